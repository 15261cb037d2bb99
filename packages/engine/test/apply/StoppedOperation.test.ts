import { afterEach, describe, expect, it } from "vitest";
import { Harness, boxRecipe, unwrap } from "@mcb/property-tests";

const STONE = "minecraft:stone";
const GLASS = "minecraft:glass";
const TOWER = boxRecipe({ x: 0, y: 64, z: 0 }, { x: 3, y: 67, z: 3 }, STONE, true); // 56 blocks, 7 slices of 8

let harnesses: Harness[] = [];
afterEach(() => {
  for (const h of harnesses) h.close();
  harnesses = [];
});

/**
 * A person's edits in the part of a plan not yet written, made while it is applied: the operation
 * stops at the first, lists every one of them (each a change since preparation), writes over none,
 * and the blocks it did write become the part it was asked to name.
 */
describe.each(["memory", "sqlite"] as const)("%s journal: an operation stopped by people's edits", (journal) => {
  it("lists every edit of the unwritten rest with changed_since_prepare, keeps them, and names its written blocks as the part", async () => {
    const h = await Harness.create({ journal, limits: { sliceSize: 8 } });
    harnesses.push(h);
    const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: TOWER }));
    expect(plan.changed_blocks).toBe(56);
    // While slice 2 is about to be written, a person places glass at two places its later slices would fill.
    const edits = [
      { x: 3, y: 66, z: 3 },
      { x: 0, y: 67, z: 0 },
    ];
    h.faults.beforeCompareAndSet = (call) => {
      if (call === 2) for (const e of edits) h.world.externalEdit(e.x, e.y, e.z, GLASS);
    };
    const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "tower", part_name: "tower" }));
    await h.engine.settle();
    h.faults.beforeCompareAndSet = null;
    const st = unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id }));
    expect(st.status).toBe("conflict");
    expect(st.counters.conflicts).toBe(2);
    expect(st.conflicts.map((c) => c.pos).sort((a, b) => a.y - b.y)).toEqual(edits.sort((a, b) => a.y - b.y));
    expect(st.conflicts.every((c) => c.changed_since_prepare && c.actual === GLASS && c.kind === "write")).toBe(true);
    for (const e of edits) expect(h.world.stateAt(e.x, e.y, e.z)).toBe(GLASS);
    expect(st.counters.written).toBeGreaterThan(0);
    expect(st.part).toMatchObject({ name: "tower", error: null });
    const part = unwrap(await h.engine.partGet(h.agent, { part_id: "tower" }));
    expect(part.count).toBe(st.counters.written);
  });
});
