import type { Box3 } from "@mcb/blocks";
import { casInOrder } from "@mcb/adapter-kit";
import {
  type CasBatchResult,
  type CasResult,
  type CasSlice,
  type EventPage,
  type RegionRead,
  type SavedMarks,
  type WorldAdapter,
  type WorldInfo,
} from "@mcb/engine";

/**
 * A world that takes compare-and-set slices in batches, as the world port does (`compareAndSetBatch`):
 * the slices of a batch run in order, each through the wrapped world's own compare-and-set, and
 * the batch stops after the first that meets a mismatch or is refused. With it the engine runs a
 * twin world the way it runs a live server: windows of slices, their intents in one journal
 * commit (group commit), one call per window.
 */
export class BatchingWorld implements WorldAdapter {
  readonly readBlockEntities?: (box: Box3) => Promise<ReadonlyMap<number, Uint8Array>>;
  readonly flush?: () => Promise<SavedMarks>;

  constructor(readonly inner: WorldAdapter) {
    if (inner.readBlockEntities !== undefined) this.readBlockEntities = (box) => inner.readBlockEntities!(box);
    if (inner.flush !== undefined) this.flush = () => inner.flush!();
  }

  info(): Promise<WorldInfo> {
    return this.inner.info();
  }

  read(box: Box3): Promise<RegionRead> {
    return this.inner.read(box);
  }

  events(cursor: string | null): Promise<EventPage> {
    return this.inner.events(cursor);
  }

  compareAndSet(slice: CasSlice): Promise<CasResult> {
    return this.inner.compareAndSet(slice);
  }

  compareAndSetBatch(slices: readonly CasSlice[]): Promise<CasBatchResult> {
    return casInOrder(slices, (slice) => this.inner.compareAndSet(slice));
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
