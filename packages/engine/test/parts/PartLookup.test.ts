import { describe, expect, it } from "vitest";
import { boxRecipe, unwrap } from "@mcb/property-tests";
import { harnessPool } from "../harnesses.js";

const harness = harnessPool();
const v = (x: number, y: number, z: number) => ({ x, y, z });

describe("a part is named by its id or by its name", () => {
  it("part_get, part_diff, part_rename and a rebuild's part_id take an active part's name; an unknown one is refused listing the parts", async () => {
    const h = await harness();
    const walls = await h.build(boxRecipe(v(0, 64, 0), v(4, 66, 4), "minecraft:stone_bricks", true));
    const part = unwrap(await h.engine.partDefine(h.agent, { name: "tower walls", operation_id: walls.operation_id }));
    expect(unwrap(await h.engine.partGet(h.agent, { part_id: "tower walls" })).part_id).toBe(part.part_id);
    expect(unwrap(await h.engine.partDiff(h.agent, { part_id: "tower walls" })).part_id).toBe(part.part_id);
    // A rebuild inside the part by its name: the plan is bound to the part's id.
    const rebuild = unwrap(
      await h.engine.buildPrepare(h.agent, { recipe: boxRecipe(v(0, 64, 0), v(4, 66, 4), "minecraft:mossy_stone_bricks", true), part_id: "tower walls" }),
    );
    expect(rebuild.changed_blocks).toBeGreaterThan(0);
    const outside = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe(v(0, 64, 0), v(5, 66, 5), "minecraft:stone", true), part_id: "tower walls" });
    expect(outside).toMatchObject({ ok: false, error: { code: "out_of_bounds", details: { part_id: part.part_id } } });
    unwrap(await h.engine.partRename(h.agent, { part_id: "tower walls", name: "keep" }));
    const gone = await h.engine.partGet(h.agent, { part_id: "tower walls" });
    expect(gone).toMatchObject({ ok: false, error: { code: "not_found", details: { active_parts: ["keep"] } } });
    expect(gone.ok ? "" : gone.error.message).toBe('no part "tower walls" in this project (by id or name); its parts: keep');
  });
});

describe("a replace inside a part", () => {
  it("counts only the positions it would write: a box wider than the part, matching only the part's blocks, is prepared; one that would write outside is refused", async () => {
    const h = await harness();
    const walls = await h.build(boxRecipe(v(0, 64, 0), v(4, 66, 4), "minecraft:stone_bricks", true));
    unwrap(await h.engine.partDefine(h.agent, { name: "walls", operation_id: walls.operation_id }));
    const replace = (block: string, from: string) => ({
      version: 1,
      operations: [{ type: "replace", min: v(-3, 63, -3), max: v(7, 67, 7), from: [from], block }],
    });
    const mossy = unwrap(await h.engine.buildPrepare(h.agent, { recipe: replace("minecraft:mossy_stone_bricks", "minecraft:stone_bricks"), part_id: "walls" }));
    expect(mossy.changed_blocks).toBe(66); // every block of the part, none of the 539 other positions of the box
    // a stone floor under it, built apart: a replace of stone would write the floor, outside the part
    await h.build(boxRecipe(v(-2, 63, -2), v(6, 63, 6), "minecraft:stone"));
    const outside = await h.engine.buildPrepare(h.agent, { recipe: replace("minecraft:dirt", "minecraft:stone"), part_id: "walls" });
    expect(outside).toMatchObject({ ok: false, error: { code: "out_of_bounds", details: { outside: 81 } } });
  });
});

describe("an undone part", () => {
  it("retires even where a person changed one of its blocks (that block stays the person's), and its name is free", async () => {
    const h = await harness();
    const roof = await h.build(boxRecipe(v(0, 70, 0), v(1, 70, 1), "minecraft:stone"));
    const part = unwrap(await h.engine.partDefine(h.agent, { name: "roof", operation_id: roof.operation_id }));
    h.world.externalEdit(1, 70, 1, "minecraft:glass"); // the person's block
    const undo = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: roof.operation_id }));
    expect([undo.changed_blocks, undo.conflicts.count]).toEqual([3, 1]);
    unwrap(await h.engine.buildApply(h.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "u" }));
    await h.engine.settle();
    expect(h.world.stateAt(1, 70, 1)).toBe("minecraft:glass");
    expect(unwrap(await h.engine.partGet(h.agent, { part_id: part.part_id }))).toMatchObject({ count: 0, retired: true });
    const again = await h.build(boxRecipe(v(5, 70, 0), v(5, 70, 0), "minecraft:stone"));
    expect(unwrap(await h.engine.partDefine(h.agent, { name: "roof", operation_id: again.operation_id })).name).toBe("roof");
  });
});
