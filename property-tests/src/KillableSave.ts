import { AnvilWorld, type AnvilWorldOptions } from "@mcb/adapter-anvil";
import type { Box3 } from "@mcb/blocks";
import { HostCrash, type CasResult, type CasSlice, type EventPage, type RegionRead, type SavedMarks, type WorldAdapter, type WorldInfo } from "@mcb/engine";

/**
 * A save the tests can kill and bring back, as a process holding it would die (kill -9) and start
 * again: the tests' wrapper around `AnvilWorld`, which itself has no such switch. A kill drops what
 * was not saved (`close({ discardUnsaved: true })`) and fails every call with HostCrash; a restart
 * opens the save again as a new process would (a new lock, a new write session; people's edits
 * without `eventDir` are forgotten).
 */
export class KillableSave implements WorldAdapter {
  private down = false;
  private closing: Promise<void> = Promise.resolve();
  private casCalls = 0;

  /** `options` null: opened by someone else (`around`), so it cannot be opened again. */
  private constructor(
    private world: AnvilWorld,
    private readonly options: AnvilWorldOptions | null,
  ) {}

  static async open(options: AnvilWorldOptions): Promise<KillableSave> {
    return new KillableSave(await AnvilWorld.open(options), options);
  }

  /** Around a save already open (a workspace's): it can be killed, not restarted. */
  static around(world: AnvilWorld): KillableSave {
    return new KillableSave(world, null);
  }

  /** The save as it is open now (a new one after each restart). */
  get save(): AnvilWorld {
    return this.world;
  }

  /** The process dies now: every call fails with HostCrash until `restart()`. */
  kill(): void {
    if (this.down) return;
    this.down = true;
    this.closing = this.world.close({ discardUnsaved: true });
  }

  get hostDown(): boolean {
    return this.down;
  }

  async restart(): Promise<void> {
    if (this.options === null) throw new Error("a save opened elsewhere (KillableSave.around) cannot be restarted here");
    await this.closing;
    if (!this.down) await this.world.close({ discardUnsaved: true });
    this.world = await AnvilWorld.open(this.options);
    this.down = false;
  }

  /** Compare-and-set calls served (slices), across restarts. */
  get compareAndSetCalls(): number {
    return this.casCalls;
  }

  private up(): AnvilWorld {
    if (this.down) throw new HostCrash("world host is down (crashed); call restart()");
    return this.world;
  }

  info(): Promise<WorldInfo> {
    return this.run(() => this.up().info());
  }

  read(box: Box3): Promise<RegionRead> {
    return this.run(() => this.up().read(box));
  }

  readBlockEntities(box: Box3): Promise<ReadonlyMap<number, Uint8Array>> {
    return this.run(() => this.up().readBlockEntities(box));
  }

  compareAndSet(slice: CasSlice): Promise<CasResult> {
    return this.run(() => {
      const w = this.up();
      this.casCalls++;
      return w.compareAndSet(slice);
    });
  }

  flush(): Promise<SavedMarks> {
    return this.run(() => this.up().flush());
  }

  events(cursor: string | null): Promise<EventPage> {
    return this.run(() => this.up().events(cursor));
  }

  stateAt(x: number, y: number, z: number): string {
    return this.up().stateAt(x, y, z);
  }

  digestAt(x: number, y: number, z: number): string | null {
    return this.up().digestAt(x, y, z);
  }

  externalEdit(x: number, y: number, z: number, state: string, options?: { readonly emitEvent?: boolean }): void {
    this.up().externalEdit(x, y, z, state, options);
  }

  async close(): Promise<void> {
    await this.closing;
    if (!this.down) await this.world.close();
  }

  /** A synchronous HostCrash becomes a rejected promise, as an adapter's call gives it. */
  private async run<T>(call: () => Promise<T>): Promise<T> {
    return call();
  }
}
