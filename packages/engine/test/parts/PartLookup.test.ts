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
