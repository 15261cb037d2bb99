/**
 * Fault injection for crash tests (see `CrashingWorld`, which arms the world it wraps with it). A
 * crash point fires once, on the (skip+1)-th time execution reaches it, throwing `HostCrash`; the
 * world then stays down (every call throws) until `restart()`, as a crashed server would.
 *
 * - `read`: during a read, i.e. before the engine could persist the next slice intent;
 * - `before_write`: at compare-and-set entry, after the intent was persisted, before any write;
 * - `mid_slice`: after writing the first half of the slice's groups (not atomic, like an exception
 *   inside a tick);
 * - `after_write`: after the whole slice was written, before the result reaches the engine.
 */
export type CrashPoint = "read" | "before_write" | "mid_slice" | "after_write";

export const CRASH_POINTS: readonly CrashPoint[] = ["read", "before_write", "mid_slice", "after_write"];

export class Faults {
  private armed: { point: CrashPoint; skip: number } | null = null;
  /** Called at compare-and-set entry with its 0-based call number (to edit "between slices"). */
  beforeCompareAndSet: ((call: number) => void) | null = null;

  crashAt(point: CrashPoint, skip = 0): void {
    if (!Number.isInteger(skip) || skip < 0) throw new RangeError(`skip must be a non-negative integer, got ${skip}`);
    this.armed = { point, skip };
  }

  disarm(): void {
    this.armed = null;
  }

  get pending(): CrashPoint | null {
    return this.armed?.point ?? null;
  }

  /** True when the armed crash fires here; consumes it. */
  fires(point: CrashPoint): boolean {
    const a = this.armed;
    if (a === null || a.point !== point) return false;
    if (a.skip > 0) {
      this.armed = { point, skip: a.skip - 1 };
      return false;
    }
    this.armed = null;
    return true;
  }
}
