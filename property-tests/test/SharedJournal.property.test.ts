import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SqlJournal } from "@mcb/engine";
import { runShared, sharedCmd } from "../src/index.js";

/**
 * Planted bug: a claim that ignores who holds it (every bridge is the claimant of everything):
 * a bridge opening or looking for orphans settles another live bridge's operation, and two
 * bridges write slices in one region at once.
 */
class TwoClaimantsJournal extends SqlJournal {
  override claim(name: string, holder: string, ttlMs: number): boolean {
    super.claim(name, holder, ttlMs);
    return true;
  }
}

const schedules = fc.array(sharedCmd, { minLength: 4, maxLength: 24 });

describe("several bridges on one PostgreSQL journal", () => {
  it("random schedules of builds (shared keys), bridges dying and joining, a person's edits: every promise holds (10 runs)", async () => {
    await fc.assert(
      fc.asyncProperty(schedules, async (cmds) => {
        const broken = await runShared(cmds);
        if (broken !== null) throw new Error(broken);
      }),
      { numRuns: 10 },
    );
  }, 240_000);

  it("catches the planted two-claimant bug", async () => {
    let found: string | null = null;
    try {
      await fc.assert(
        fc.asyncProperty(schedules, async (cmds) => {
          const broken = await runShared(cmds, (db) => new TwoClaimantsJournal(db));
          if (broken !== null) throw new Error(broken);
        }),
        { numRuns: 60, endOnFailure: true },
      );
    } catch (e) {
      const cause = (e as { cause?: unknown }).cause;
      found = cause instanceof Error ? cause.message : String(e);
    }
    // Seen as: a live bridge's operation settled or ended by another, slices interleaved in a
    // region, or a live bridge's fence finding its lease taken (it stops writing: a broken promise too).
    expect(found).toMatch(/ended recovery_required|ended cancelled|interleaved|settled|took over/);
  }, 240_000);
});
