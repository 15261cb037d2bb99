import { describe, expect, it, vi } from "vitest";
import { Harness, boxRecipe, unwrap } from "@mcb/property-tests";
import { SqlJournal, openJournal, type OperationRecord, type SliceRecord } from "../../src/index.js";
import type { SliceResult } from "../../src/store/Journal.js";

/** A journal whose disk fills up after `budget` commits. */
class FillingJournal extends SqlJournal {
  budget = Infinity;
  override commit(op: OperationRecord, results: readonly SliceResult[], intents: readonly SliceRecord[]): number {
    if (this.budget-- <= 0) throw new Error("SQLITE_FULL: database or disk is full");
    return super.commit(op, results, intents);
  }
}

describe("fail-stop", () => {
  it("a journal that cannot persist stops the engine before any unjournaled write; recovery follows", async () => {
    let journal!: FillingJournal;
    const logged: string[] = [];
    const h = await Harness.create({ journalFactory: (db) => (journal = new FillingJournal(db)), limits: { sliceSize: 4 }, log: (line) => logged.push(line) });
    const stderr = vi.spyOn(process.stderr, "write");
    const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 15, y: 64, z: 0 }, "minecraft:stone") }));
    const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "full" }));
    journal.budget = 2; // intents of slices 0 and 1 persist; the third commit fails
    await h.engine.settle();
    expect(h.engine.stopped).toBe(true);
    // The engine reports through the logger it was given, never to stderr itself.
    expect(logged).toEqual(["mcb engine stopped: SQLITE_FULL: database or disk is full"]);
    expect(stderr).not.toHaveBeenCalled();
    stderr.mockRestore();
    let stones = 0;
    for (let x = 0; x < 16; x++) if (h.world.stateAt(x, 64, 0) === "minecraft:stone") stones++;
    expect(stones).toBe(8); // never more than what intents cover
    expect(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id })).toMatchObject({
      ok: false,
      error: { code: "busy", details: { reason: "engine_stopped" } },
    });
    journal.budget = Infinity;
    await h.restart();
    expect(unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id })).status).toBe("recovery_required");
    const review = unwrap(await h.engine.recoveryReview(h.admin, { operation_id: op.operation_id }));
    expect(review).toMatchObject({ positions: 8, matchesAfter: 8 });
    h.close();
  });

  it("a world that is down gives a retryable busy result, not an exception", async () => {
    const h = await Harness.create();
    h.faults.crashAt("read");
    const r = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 1, y: 64, z: 0 }, "minecraft:stone") });
    expect(r).toMatchObject({ ok: false, error: { code: "busy", retryable: true, details: { reason: "host_down" } } });
    const i = await h.engine.regionInspect(h.agent, { min: { x: 0, y: 64, z: 0 }, max: { x: 0, y: 64, z: 0 }, detail: "summary" });
    expect(i).toMatchObject({ ok: false, error: { code: "busy" } });
    h.close();
  });

  it("refuses new operations once the journal is over its disk quota", async () => {
    const fresh = openJournal(":memory:");
    const quota = fresh.sizeBytes() + 50_000; // an empty journal's schema, and room for 50 kB
    fresh.close();
    const h = await Harness.create({ limits: { maxJournalBytes: quota } });
    const first = await h.build(boxRecipe({ x: 0, y: 64, z: 0 }, { x: 39, y: 64, z: 24 }, "minecraft:stone")); // 1,000 blocks ≈ 25 kB
    expect(first.status).toBe("applied");
    expect(h.journal.sizeBytes()).toBeLessThan(quota);
    // A plan whose blocks are a random mix (stored plans pack runs: a plain box would take a few kB only): + ≈ 100 kB
    const mix = {
      version: 1,
      palettes: {
        mix: {
          choices: ["stone", "dirt", "cobblestone", "andesite", "granite", "diorite", "gravel", "sand"].map((b) => ({ block: `minecraft:${b}`, weight: 1 })),
        },
      },
      operations: [{ type: "box", min: { x: 0, y: 65, z: 0 }, max: { x: 39, y: 72, z: 79 }, block: { palette: "mix" } }],
    };
    const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: mix }));
    const r = await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "q" });
    expect(r).toMatchObject({ ok: false, error: { code: "budget_exceeded", details: { reason: "journal_quota" } } });
    h.close();
  });
});
