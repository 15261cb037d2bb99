import { afterEach, describe, expect, it } from "vitest";
import { SliceRefused } from "@mcb/engine";
import { Harness, boxRecipe, unwrap } from "@mcb/property-tests";

const STONE = "minecraft:stone";
let harnesses: Harness[] = [];
afterEach(() => {
  for (const h of harnesses) h.close();
  harnesses = [];
});

describe.each(["memory", "sqlite"] as const)("%s journal", (journal) => {
  it("a slice the world refuses before writing ends the operation failed, not in recovery, with an exact count and a working undo", async () => {
    const h = await Harness.create({ journal, limits: { sliceSize: 8 } });
    harnesses.push(h);
    const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 7, y: 64, z: 3 }, STONE) }));
    expect(plan.changed_blocks).toBe(32);
    h.faults.beforeCompareAndSet = (call) => {
      if (call === 2) throw new SliceRefused("out_of_bounds", "the chunk is not loaded");
    };
    const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "refused" }));
    await h.engine.settle();
    h.faults.beforeCompareAndSet = null;
    expect(h.engine.stopped).toBe(false);
    const st = unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id }));
    expect(st).toMatchObject({ status: "failed", counters: { written: 16 }, error: { code: "out_of_bounds" } });
    expect(unwrap(await h.engine.projectContext(h.agent)).recovery_required).toEqual([]);
    // The same holds after a restart: nothing is left uncertain.
    await h.restart();
    expect(unwrap(await h.engine.projectContext(h.agent)).recovery_required).toEqual([]);
    const undo = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: op.operation_id }));
    expect(undo.changed_blocks).toBe(16);
    unwrap(await h.engine.buildApply(h.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "undo" }));
    await h.engine.settle();
    for (let x = 0; x <= 7; x++) for (let z = 0; z <= 3; z++) expect(h.world.stateAt(x, 64, z)).toBe("minecraft:air");
  });
});
