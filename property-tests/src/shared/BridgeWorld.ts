import type { Box3 } from "@mcb/blocks";
import type { CasResult, CasSlice, EventPage, RegionRead, SavedMarks, WorldAdapter, WorldInfo } from "@mcb/engine";

/** One compare-and-set slice as the world received it: which bridge sent it, and the rows (z) it wrote. */
export interface SliceSent {
  readonly bridge: string;
  readonly rows: readonly number[];
  /** Lease regions (x >> 9, z >> 9) its writes touch. */
  readonly regions: readonly string[];
}

/**
 * One bridge's view of a world shared with other bridges (the in-process twin of several `mcb`
 * processes on one server): every slice it sends is logged in a log all bridges share, each
 * after a short wait (so operations overlap), and `kill()` is the process dying: from then on no
 * call of its returns, so it writes nothing more.
 */
export class BridgeWorld implements WorldAdapter {
  private dead = false;
  readonly flush?: () => Promise<SavedMarks>;

  constructor(
    private readonly inner: WorldAdapter,
    readonly bridge: string,
    private readonly log: SliceSent[],
    private readonly sliceDelayMs = 2,
  ) {
    if (inner.flush !== undefined) this.flush = () => this.live(() => inner.flush!());
  }

  kill(): void {
    this.dead = true;
  }

  private live<T>(call: () => Promise<T>): Promise<T> {
    return this.dead ? new Promise<T>(() => {}) : call();
  }

  info(): Promise<WorldInfo> {
    return this.live(() => this.inner.info());
  }

  read(box: Box3): Promise<RegionRead> {
    return this.live(() => this.inner.read(box));
  }

  readBlockEntities(box: Box3): Promise<ReadonlyMap<number, Uint8Array>> {
    return this.live(() => this.inner.readBlockEntities!(box));
  }

  events(cursor: string | null): Promise<EventPage> {
    return this.live(() => this.inner.events(cursor));
  }

  async compareAndSet(slice: CasSlice): Promise<CasResult> {
    await new Promise((r) => setTimeout(r, this.sliceDelayMs));
    return this.live(() => {
      this.note(slice);
      return this.inner.compareAndSet(slice);
    });
  }

  private note(slice: CasSlice): void {
    const rows = [...new Set(slice.writes.map((w) => w.z))].sort((a, b) => a - b);
    const regions = [...new Set(slice.writes.map((w) => `${w.x >> 9},${w.z >> 9}`))].sort();
    this.log.push({ bridge: this.bridge, rows, regions });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
