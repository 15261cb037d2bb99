import { describe, expect, it } from "vitest";
import { MemoryJournal } from "@mcb/engine";
import { runModelSuite } from "../src/index.js";

/** Planted bug 1: the journal forgets observed external edits (ABA undo would restore over them). */
class ForgetfulTouchesJournal extends MemoryJournal {
  override addTouches(_positions: Int32Array): number {
    return super.addTouches(new Int32Array(0));
  }
}

/** Planted bug 2: the journal hides later writes by other operations from undo ownership. */
class HiddenLaterWritesJournal extends MemoryJournal {
  override slicesAfter(): ReturnType<MemoryJournal["slicesAfter"]> {
    return [];
  }
}

describe("model-based suite", () => {
  it("engine matches the model over 1,000 random command sequences (memory journal)", async () => {
    const stats = new Map<string, number>();
    await runModelSuite({ numRuns: 1000, stats });
    // The sequences must actually reach every behaviour the model describes.
    for (const outcome of [
      "apply none → applied (wrote)",
      "apply none → conflict",
      "dependency changed: conflict",
      "apply cancel → cancelled (wrote)",
      "apply crash → recovery_required (wrote)",
      "apply crash → recovery_required",
      "apply crash → cancelled",
      "apply refused during recovery",
      "apply of a used plan refused",
      "undo restored blocks",
      "undo refused some blocks",
      "undo refused an ABA block",
      "recovery abandoned (non-empty mask)",
    ]) {
      expect(stats.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
    }
  }, 300_000);

  it("engine matches the model with the durable SQLite journal (200 sequences)", async () => {
    await runModelSuite({ numRuns: 200, journal: "sqlite" });
  }, 300_000);

  it("catches planted bug: forgotten external-edit events", async () => {
    await expect(runModelSuite({ numRuns: 1000, journalFactory: () => new ForgetfulTouchesJournal() })).rejects.toThrow(/undo/);
  }, 300_000);

  it("catches planted bug: later writes hidden from undo ownership", async () => {
    await expect(runModelSuite({ numRuns: 1000, journalFactory: () => new HiddenLaterWritesJournal() })).rejects.toThrow(/undo/);
  }, 300_000);
});
