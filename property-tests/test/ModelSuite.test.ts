import { describe, expect, it } from "vitest";
import { SqlJournal, type SqlDb } from "@mcb/engine";
import { runModelSuite, type JournalKind } from "../src/index.js";

/** Planted bug 1: the journal forgets observed external edits (ABA undo would restore over them). */
class ForgetfulTouchesJournal extends SqlJournal {
  override addTouches(_positions: Int32Array): number {
    return super.addTouches(new Int32Array(0));
  }
}

/** Planted bug 2: the journal hides later writes by other operations from undo ownership. */
class HiddenLaterWritesJournal extends SqlJournal {
  override slicesAfter(): ReturnType<SqlJournal["slicesAfter"]> {
    return [];
  }
}

/** Planted bug 3: the journal leaves plan uniqueness to the engine's earlier lookup (check, await, create). */
class CallerCheckedPlanJournal extends SqlJournal {
  protected override planInUse(): boolean {
    return false;
  }
}

/** Planted bug 4: the journal reports a head past its records, so plans think nothing changed since preparation. */
class LateHeadJournal extends SqlJournal {
  override headSeq(): number {
    return Number.MAX_SAFE_INTEGER;
  }
}

/** Planted bug 5: the standing-write index never sees our writes, so the merge has no G0 (only touches). */
class MergeWithoutG0Journal extends SqlJournal {
  override slicesAfter(afterSeq: number, box: Parameters<SqlJournal["slicesAfter"]>[1]): ReturnType<SqlJournal["slicesAfter"]> {
    return box.minX === -(2 ** 31) ? [] : super.slicesAfter(afterSeq, box); // the index's fold asks for everything
  }
}

/** Planted bug 6: an undo's part changes keep only the first part (the taker): taken blocks are never given back. */
class NoGiveBackJournal extends SqlJournal {
  override commitParts(
    added: Parameters<SqlJournal["commitParts"]>[0],
    updated: Parameters<SqlJournal["commitParts"]>[1],
    op?: Parameters<SqlJournal["commitParts"]>[2],
  ): void {
    super.commitParts(added, op === undefined ? updated.slice(0, 1) : updated, op);
  }
}

/** The model's own complaint (fast-check keeps it as the report's cause), or "passed". */
async function complaint(journalFactory: (db: SqlDb) => SqlJournal, focus: "all" | "parts" = "all", journal: JournalKind = "memory"): Promise<string> {
  try {
    await runModelSuite({ numRuns: focus === "parts" ? 300 : journal === "postgres" ? 300 : 1000, journalFactory, focus, journal });
    return "passed";
  } catch (e) {
    const cause = (e as { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : String(e);
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
      "apply of an empty plan refused",
      "concurrent duplicate applies refused",
      "base changed since prepare: conflict",
      "undo of an undone operation refused",
      "abandoned recovery reports unconfirmed writes",
      "undo restored blocks",
      "undo refused some blocks",
      "undo refused an ABA block",
      "recovery abandoned (non-empty mask)",
      "apply next to people's edits",
      "merge unchanged",
      "merge write",
      "merge kept (refuse)",
      "merge kept (keep)",
      "merge kept (replace)",
      "merge conflict (refuse)",
      "merge conflict (keep)",
      "merge conflict (replace)",
      "take over: some blocks",
      "named apply refused: part_overlap",
    ]) {
      expect(stats.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
    }
  }, 300_000);

  it("parts: named applies taking over other parts, growing parts by name, undos and redos match the model (500 + 60 sequences, memory and SQLite journals)", async () => {
    const stats = new Map<string, number>();
    await runModelSuite({ numRuns: 500, stats, focus: "parts" });
    await runModelSuite({ numRuns: 60, journal: "sqlite", focus: "parts" });
    for (const outcome of [
      "take over: some blocks",
      "take over: a whole part",
      "undo gave taken blocks back",
      "redo took blocks again",
      "a part grew",
      "undo of a part's growth",
      "undo left a person's block out of the part",
      "named apply refused: part_overlap",
      "undo restored blocks",
    ])
      expect(stats.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
  }, 300_000);

  it("engine matches the model with the durable SQLite journal (200 sequences)", async () => {
    await runModelSuite({ numRuns: 200, journal: "sqlite" });
  }, 300_000);

  it("engine matches the model with the shared PostgreSQL journal (30 sequences; restarts reopen it)", async () => {
    await runModelSuite({ numRuns: 30, journal: "postgres" });
  }, 300_000);

  it("catches a planted bug on PostgreSQL too: plan uniqueness checked outside the writer lock", async () => {
    expect(await complaint((db) => new CallerCheckedPlanJournal(db), "all", "postgres")).toMatch(
      /^operations created by concurrent applies of one plan: got 2, model expects 1$/,
    );
  }, 300_000);

  it("catches planted bug: forgotten external-edit events", async () => {
    expect(await complaint((db) => new ForgetfulTouchesJournal(db))).toMatch(
      /^(undo changed_blocks|undo conflicts|operation status|conflicts|written|world diverged|engine crashed|changed_blocks|manual_edits|refused positions|prepare over people's edits): (got|succeeded)|^invariant: a person's block|^prepare refused where the model expects a plan: conflict/,
    );
  }, 300_000);

  it("catches planted bug: later writes hidden from undo ownership", async () => {
    expect(await complaint((db) => new HiddenLaterWritesJournal(db))).toMatch(
      /^(undo changed_blocks|undo conflicts|operation status|conflicts|written|world diverged|engine crashed|changed_blocks|manual_edits|refused positions|prepare over people's edits): (got|succeeded)|^invariant: a person's block|^prepare refused where the model expects a plan: conflict/,
    );
  }, 300_000);

  it("catches planted bug: plan uniqueness checked before an await instead of atomically", async () => {
    expect(await complaint((db) => new CallerCheckedPlanJournal(db))).toMatch(/^operations created by concurrent applies of one plan: got 2, model expects 1$/);
  }, 300_000);

  it("catches planted bug: a merge that ignores G0 (our earlier writes) and writes over people's edits", async () => {
    expect(await complaint((db) => new MergeWithoutG0Journal(db))).toMatch(
      /^(changed_blocks|manual_edits|prepare over people's edits|refused positions|invariant: a person's block|prepare refused where the model expects a plan: conflict)/,
    );
  }, 300_000);

  it("catches planted bug: an undo that never gives taken-over blocks back to their part", async () => {
    expect(await complaint((db) => new NoGiveBackJournal(db), "parts")).toMatch(/^parts: got /);
  }, 300_000);

  it("catches planted bug: a stale base written over (plans blind to changes since preparation)", async () => {
    expect(await complaint((db) => new LateHeadJournal(db))).toMatch(
      /^(operation status|conflicts|written|world diverged|engine crashed|changed_blocks|manual_edits|prepare over people's edits): (got|succeeded)|^invariant: a person's block|^prepare refused where the model expects a plan: conflict/,
    );
  }, 300_000);
});
