import { describe, expect, it } from "vitest";
import { boxRecipe, unwrap, type Harness } from "@mcb/property-tests";
import { harnessPool } from "../harnesses.js";

const harness = harnessPool();
const STONE = "minecraft:stone";
const GLASS = "minecraft:glass";
const v = (x: number, y: number, z: number) => ({ x, y, z });

async function undo(h: Harness, operationId: string, key: string) {
  const plan = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: operationId }));
  const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: key }));
  await h.engine.settle();
  return unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id }));
}

describe("parts with a life cycle", () => {
  it("undo takes its blocks out of the part (retired when empty) and frees the name and the space", async () => {
    const h = await harness({ journal: "sqlite" });
    const roof = await h.build(boxRecipe(v(0, 70, 0), v(3, 70, 3), STONE));
    const part = unwrap(await h.engine.partDefine(h.agent, { name: "roof", operation_id: roof.operation_id }));
    expect(part).toMatchObject({ count: 16, revision: 1, retired: false });
    const u = await undo(h, roof.operation_id, "undo-roof");
    expect(u.status).toBe("applied");
    expect(unwrap(await h.engine.operationStatus(h.agent, { operation_id: roof.operation_id }))).toMatchObject({ undoable: false, undone_by: u.operation_id });
    const listed = unwrap(await h.engine.operationList(h.agent, {})).operations.find((o) => o.operation_id === roof.operation_id)!;
    expect([listed.undoable, listed.undone_by]).toEqual([false, u.operation_id]);
    expect(unwrap(await h.engine.partGet(h.agent, { part_id: part.part_id }))).toMatchObject({ count: 0, retired: true, revision: 2, bounds: null });
    expect(unwrap(await h.engine.projectContext(h.agent)).parts).toEqual([{ part_id: part.part_id, name: "roof", count: 0, retired: true }]);
    expect(await h.engine.partDefine(h.agent, { name: "roof again", operation_id: roof.operation_id })).toMatchObject({
      ok: false,
      error: { details: { reason: "operation_undone" } },
    });

    // A new roof over the same blocks, under the same name: no overlap, no duplicate name.
    const roof2 = await h.build(boxRecipe(v(0, 70, 0), v(3, 70, 3), GLASS));
    const part2 = unwrap(await h.engine.partDefine(h.agent, { name: "roof", operation_id: roof2.operation_id }));
    expect(part2.count).toBe(16);

    // A redo of the first undo has nothing left to restore: later writes of ours own every block.
    const redo = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: u.operation_id }));
    expect([redo.changed_blocks, redo.conflicts.count]).toEqual([0, 16]);
    expect(unwrap(await h.engine.partGet(h.agent, { part_id: part.part_id })).retired).toBe(true);
  });

  it("a redo puts the blocks back into the part they left", async () => {
    const h = await harness();
    const wall = await h.build(boxRecipe(v(0, 64, 0), v(4, 64, 0), STONE));
    const part = unwrap(await h.engine.partDefine(h.agent, { name: "wall", operation_id: wall.operation_id }));
    h.world.externalEdit(4, 64, 0, GLASS); // the person's: undo leaves it, and it leaves the part (it is the person's now)
    const u = await undo(h, wall.operation_id, "u");
    expect([u.status, u.counters.written]).toEqual(["applied", 4]);
    expect(unwrap(await h.engine.partGet(h.agent, { part_id: part.part_id }))).toMatchObject({ count: 0, retired: true });
    await undo(h, u.operation_id, "redo");
    expect(unwrap(await h.engine.partGet(h.agent, { part_id: part.part_id }))).toMatchObject({ count: 4, retired: false, revision: 3 });
  });

  it("part_overlap names the other part and the exact overlap; part_rename and part_delete", async () => {
    const h = await harness();
    const a = await h.build(boxRecipe(v(0, 64, 0), v(3, 64, 0), STONE));
    const pa = unwrap(await h.engine.partDefine(h.agent, { name: "north wall", operation_id: a.operation_id }));
    const b = await h.build(boxRecipe(v(2, 64, 0), v(5, 65, 0), GLASS));
    const overlap = await h.engine.partDefine(h.agent, { name: "windows", operation_id: b.operation_id });
    expect(overlap).toMatchObject({
      ok: false,
      error: {
        code: "invalid_request",
        details: {
          reason: "part_overlap",
          part_id: pa.part_id,
          name: "north wall",
          count: 2,
          boxes: [{ min: v(2, 64, 0), max: v(3, 64, 0) }],
          sample: [v(2, 64, 0), v(3, 64, 0)],
        },
      },
    });
    expect((overlap as { error: { message: string } }).error.message).toMatch(/part_delete|undo/);

    const renamed = unwrap(await h.engine.partRename(h.agent, { part_id: pa.part_id, name: "front wall" }));
    expect([renamed.name, renamed.revision]).toEqual(["front wall", 2]);
    expect(await h.engine.partRename(h.agent, { part_id: pa.part_id, name: "x".repeat(65) })).toMatchObject({
      ok: false,
      error: { details: { reason: "name" } },
    });
    expect(await h.engine.partRename(h.agent, { part_id: "part_nope", name: "y" })).toMatchObject({ ok: false, error: { code: "not_found" } });

    h.engine.protectPart(h.agent, pa.part_id, true);
    expect(await h.engine.partDelete(h.agent, { part_id: pa.part_id })).toMatchObject({
      ok: false,
      error: { code: "permission_denied", details: { reason: "protected_part" } },
    });
    h.engine.protectPart(h.agent, pa.part_id, false);
    expect(unwrap(await h.engine.partDelete(h.agent, { part_id: pa.part_id })).name).toBe("front wall");
    expect(await h.engine.partGet(h.agent, { part_id: pa.part_id })).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(h.world.stateAt(0, 64, 0)).toBe(STONE); // blocks stay
    expect(unwrap(await h.engine.partDefine(h.agent, { name: "windows", operation_id: b.operation_id })).count).toBe(8);
    expect(await h.engine.partDelete(h.agent, { part_id: 42 as unknown as string })).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});

describe("part_diff", () => {
  it("finds the person's edits over a part or an operation: observed ones, silent ones by content, in boxes", async () => {
    const h = await harness({ journal: "sqlite" });
    const wall = await h.build(boxRecipe(v(0, 64, 0), v(9, 67, 0), STONE));
    const part = unwrap(await h.engine.partDefine(h.agent, { name: "wall", operation_id: wall.operation_id }));
    for (let x = 3; x <= 5; x++) for (let y = 65; y <= 66; y++) h.world.externalEdit(x, y, 0, GLASS); // a window, by hand
    h.world.externalEdit(9, 67, 0, "minecraft:air", { emitEvent: false }); // broken by something we did not hear about
    h.world.externalEdit(0, 64, 0, "minecraft:dirt");
    h.world.externalEdit(0, 64, 0, STONE); // changed and changed back: still the person's
    const later = await h.build(boxRecipe(v(7, 64, 0), v(7, 64, 0), "minecraft:bricks")); // ours: not a difference
    expect(later.status).toBe("applied");
    const d = unwrap(await h.engine.partDiff(h.agent, { part_id: part.part_id }));
    expect(d).toMatchObject({ part_id: part.part_id, operation_id: null, positions: 40, changed: 8, observed: 7, boxes_truncated: false });
    expect(d.boxes).toEqual([
      { min: v(0, 64, 0), max: v(0, 64, 0) },
      { min: v(3, 65, 0), max: v(5, 66, 0) },
      { min: v(9, 67, 0), max: v(9, 67, 0) },
    ]);
    expect(d.sample).toContainEqual({ pos: v(9, 67, 0), expected: STONE, actual: "minecraft:air", observed: false });
    expect(d.sample).toContainEqual({ pos: v(0, 64, 0), expected: STONE, actual: STONE, observed: true });
    const byOp = unwrap(await h.engine.partDiff(h.agent, { operation_id: wall.operation_id }));
    expect([byOp.positions, byOp.changed]).toEqual([40, 8]);
    await h.reopen(); // the person's edits are on record across restarts
    expect(unwrap(await h.engine.partDiff(h.agent, { part_id: part.part_id })).changed).toBe(8);
    expect(await h.engine.partDiff(h.agent, {})).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "target" } } });
    expect(await h.engine.partDiff(h.agent, { part_id: part.part_id, operation_id: wall.operation_id })).toMatchObject({
      ok: false,
      error: { code: "invalid_request" },
    });
    expect(await h.engine.partDiff(h.agent, { part_id: "part_missing" })).toMatchObject({ ok: false, error: { code: "not_found" } });
  });
});
