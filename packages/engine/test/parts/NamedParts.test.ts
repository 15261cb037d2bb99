import { describe, expect, it } from "vitest";
import { boxRecipe, unwrap, type Harness } from "@mcb/property-tests";
import { harnessPool } from "../harnesses.js";

/** build_apply's part_name: one call builds and names the part; a name that cannot be given is said so. */
const harness = harnessPool();
const STONE = "minecraft:stone";
const v = (x: number, y: number, z: number) => ({ x, y, z });

async function applyNamed(h: Harness, recipe: unknown, part_name: string, key: string) {
  const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe }));
  const r = await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: key, part_name });
  if (!r.ok) return r;
  await h.engine.settle();
  return h.engine.operationStatus(h.agent, { operation_id: r.value.operation_id });
}

describe("part_name on build_apply", () => {
  it("names exactly the written blocks when the operation ends; the part is the same as part_define's", async () => {
    const h = await harness({ journal: "sqlite" });
    const op = unwrap(await applyNamed(h, boxRecipe(v(0, 70, 0), v(3, 70, 3), STONE), "roof", "k1"));
    expect(op.status).toBe("applied");
    expect(op.part).toMatchObject({ name: "roof", error: null });
    const part = unwrap(await h.engine.partGet(h.agent, { part_id: op.part!.part_id! }));
    expect(part).toMatchObject({ name: "roof", count: op.counters.written, operation_id: op.operation_id });
    expect(unwrap(await h.engine.projectContext(h.agent)).parts).toEqual([{ part_id: part.part_id, name: "roof", count: 16, retired: false }]);
  });

  it("the name of an active part grows it; a malformed name and an undo with a name are refused before writing", async () => {
    const h = await harness();
    const first = unwrap(await applyNamed(h, boxRecipe(v(0, 70, 0), v(1, 70, 1), STONE), "roof", "k1"));
    const more = unwrap(await applyNamed(h, boxRecipe(v(5, 70, 0), v(6, 70, 1), STONE), "roof", "k2"));
    expect(more.part).toMatchObject({ name: "roof", part_id: first.part!.part_id });
    const roof = unwrap(await h.engine.partGet(h.agent, { part_id: "roof" }));
    expect(roof).toMatchObject({ count: 8, revision: 2, operation_ids: [first.operation_id, more.operation_id] });
    // a rebuild of the part's own blocks under its name is no overlap
    const rebuilt = unwrap(await applyNamed(h, boxRecipe(v(0, 70, 0), v(6, 70, 1), "minecraft:glass"), "roof", "k3"));
    expect(unwrap(await h.engine.partGet(h.agent, { part_id: "roof" }))).toMatchObject({ count: 14, revision: 3 });
    expect(rebuilt.part!.part_id).toBe(first.part!.part_id);
    const bad = await applyNamed(h, boxRecipe(v(9, 70, 0), v(9, 70, 1), STONE), "", "k4");
    expect(bad).toMatchObject({ ok: false, error: { details: { reason: "name" } } });
    expect(h.world.stateAt(9, 70, 0)).toBe("minecraft:air");
    const undo = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: rebuilt.operation_id }));
    expect(await h.engine.buildApply(h.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "u", part_name: "x" })).toMatchObject({
      ok: false,
      error: { details: { reason: "part_name" } },
    });
    // undoing the growth takes out only the blocks it added: the 8 the earlier builds wrote stay in the part
    unwrap(await h.engine.buildApply(h.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "u2" }));
    await h.engine.settle();
    expect(h.world.stateAt(0, 70, 0)).toBe(STONE);
    expect(unwrap(await h.engine.partGet(h.agent, { part_id: "roof" }))).toMatchObject({ count: 8, retired: false });
  });

  it("an overlap with another part is refused before anything is written, naming the exact overlap and take_over", async () => {
    const h = await harness();
    unwrap(await applyNamed(h, boxRecipe(v(0, 70, 0), v(3, 70, 0), STONE), "wall", "k1"));
    const over = await applyNamed(h, boxRecipe(v(0, 70, 0), v(3, 71, 0), "minecraft:glass"), "wall 2", "k2");
    expect(over).toMatchObject({
      ok: false,
      error: { code: "invalid_request", details: { reason: "part_overlap", name: "wall", count: 4, boxes: [{ min: v(0, 70, 0), max: v(3, 70, 0) }] } },
    });
    expect(!over.ok && over.error.message).toMatch(/take_over: \["wall"\]/);
    expect(h.world.stateAt(0, 71, 0)).toBe("minecraft:air");
    expect(unwrap(await h.engine.operationList(h.agent, {})).operations).toHaveLength(1);
  });

  it("an overlap found when the part is named (after a restart) leaves the operation applied and says why no part was named", async () => {
    const h = await harness({ journal: "sqlite" });
    unwrap(await applyNamed(h, boxRecipe(v(0, 70, 0), v(3, 70, 0), STONE), "wall", "k1"));
    const over = await h.build(boxRecipe(v(0, 70, 0), v(3, 71, 0), "minecraft:glass")); // unnamed: no part rule applies
    h.journal.commit({ ...h.journal.getOperation(over.operation_id)!, partName: "wall 2" }, [], []);
    await h.reopen();
    const after = unwrap(await h.engine.operationStatus(h.agent, { operation_id: over.operation_id }));
    expect(after.status).toBe("applied");
    expect(after.part).toMatchObject({ name: "wall 2", part_id: null, error: { code: "invalid_request" } });
    expect(after.part!.error!.message).toMatch(/already belong to part "wall"/);
  });

  it("an engine that stopped after the operation ended but before naming names the part when it opens", async () => {
    const h = await harness({ journal: "sqlite" });
    const op = await h.build(boxRecipe(v(0, 70, 0), v(2, 70, 2), STONE));
    // The record as the engine left it: ended, part asked for, not yet named (the process died here).
    h.journal.commit({ ...h.journal.getOperation(op.operation_id)!, partName: "late" }, [], []);
    await h.reopen();
    const after = unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id }));
    expect(after.part).toMatchObject({ name: "late", error: null });
    expect(unwrap(await h.engine.partGet(h.agent, { part_id: after.part!.part_id! })).count).toBe(9);
  });
});
