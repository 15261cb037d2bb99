import type { Box3 } from "@mcb/blocks";
import {
  HostCrash,
  groupEndsOf,
  type CasResult,
  type CasSlice,
  type EventPage,
  type RegionRead,
  type SavedMarks,
  type WorldAdapter,
  type WorldInfo,
} from "@mcb/engine";
import { Faults, type CrashPoint } from "./Faults.js";

/** A world host the tests can kill (kill -9: every call fails until `restart()`, unsaved changes lost) and bring back. */
export type KillableWorld = WorldAdapter & {
  kill(): void;
  readonly hostDown: boolean;
  restart(): void | Promise<void>;
};

/**
 * A world with crash points, for the crash tests: wraps a killable world (the memory twin or a
 * save) and, where an armed point fires (`faults`), kills it and throws `HostCrash`, as a server
 * dying there would. The worlds themselves carry no fault injection.
 *
 * - `read`: at a read, before it runs;
 * - `before_write`: at compare-and-set entry (after `beforeCompareAndSet`, which may edit the world
 *   as a person would between slices), before anything is written;
 * - `mid_slice`: once the first half of the slice's groups are written (the world runs that half as
 *   a slice of its own: the same checks, the same groups), unless they met a mismatch, which is
 *   answered as the world answered it;
 * - `after_write`: once the whole slice is written, before its result reaches the engine.
 */
export class CrashingWorld<W extends KillableWorld = KillableWorld> implements WorldAdapter {
  readonly faults = new Faults();
  readonly readBlockEntities?: (box: Box3) => Promise<ReadonlyMap<number, Uint8Array>>;
  readonly flush?: () => Promise<SavedMarks>;
  private calls = 0;

  constructor(readonly inner: W) {
    if (inner.readBlockEntities !== undefined) this.readBlockEntities = (box) => inner.readBlockEntities!(box);
    if (inner.flush !== undefined) this.flush = () => inner.flush!();
  }

  async info(): Promise<WorldInfo> {
    const info = await this.inner.info();
    return info.capabilities.includes("fault_injection") ? info : { ...info, capabilities: [...info.capabilities, "fault_injection"] };
  }

  /** Compare-and-set calls made while the host was up (the numbers `beforeCompareAndSet` gets). */
  get compareAndSetCalls(): number {
    return this.calls;
  }

  async read(box: Box3): Promise<RegionRead> {
    if (!this.inner.hostDown && this.faults.fires("read")) this.crash("read");
    return this.inner.read(box);
  }

  async compareAndSet(slice: CasSlice): Promise<CasResult> {
    if (this.inner.hostDown) return this.inner.compareAndSet(slice); // HostCrash
    const call = this.calls++;
    this.faults.beforeCompareAndSet?.(call);
    if (this.inner.hostDown) return this.inner.compareAndSet(slice); // killed by the hook
    if (this.faults.fires("before_write")) this.crash("before_write");
    const crashMid = this.faults.fires("mid_slice");
    const crashAfter = this.faults.fires("after_write");
    if (crashMid) {
      const first = await this.inner.compareAndSet(firstHalf(slice));
      if (first.mismatches.length > 0) return first;
      this.crash("mid_slice");
    }
    const result = await this.inner.compareAndSet(slice);
    if (crashAfter) this.crash("after_write");
    return result;
  }

  events(cursor: string | null): Promise<EventPage> {
    return this.inner.events(cursor);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The host comes back (see the inner world's `restart`); crash points left armed are disarmed. */
  async restart(): Promise<void> {
    this.faults.disarm();
    await this.inner.restart();
  }

  private crash(point: CrashPoint): never {
    this.inner.kill();
    throw new HostCrash(`simulated host crash at ${point}`);
  }
}

/** The slice's checks and the first ⌊groups / 2⌋ of its groups. */
function firstHalf(slice: CasSlice): CasSlice {
  const ends = groupEndsOf(slice);
  const groups = Math.floor(ends.length / 2);
  const writes = groups === 0 ? 0 : ends[groups - 1]!;
  return { checks: slice.checks, writes: slice.writes.slice(0, writes), ...(slice.groupEnds === undefined ? {} : { groupEnds: ends.slice(0, groups) }) };
}
