import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setup, v } from "./InProcessMcp.js";

/** build_prepare / operation_undo_prepare with `apply`: one call, the same checks, the same retry rule. */
let s: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  s = await setup();
});
afterAll(() => s.close());
const wall = (block: string) => ({ version: 1, operations: [{ type: "box", min: v(0, 64, 0), max: v(4, 67, 0), block, exclude: [{ min: v(2, 64, 0), max: v(2, 65, 0) }] }] });
type Answer = Record<string, any>;

describe("prepare and apply in one call", () => {
  it("builds and names the part; a retry with the same key returns the same operation and writes nothing more", async () => {
    const r = (await s.call("build_prepare", { recipe: wall("minecraft:stone_bricks"), apply: { idempotency_key: "wall-1", part_name: "wall" } })).structuredContent as Answer;
    expect(r.changed_blocks).toBe(18);
    expect(r.operation).toMatchObject({ status: "applied", written: 18, part: { name: "wall", error: null } });
    expect(s.world.stateAt(2, 64, 0)).toBe("minecraft:air"); // the doorway
    const again = (await s.call("build_prepare", { recipe: wall("minecraft:stone_bricks"), apply: { idempotency_key: "wall-1", part_name: "wall" } })).structuredContent as Answer;
    expect(again.changed_blocks).toBe(0); // already built: nothing applied
    expect(again.operation).toBeUndefined();
    const retry = (await s.call("build_prepare", { recipe: wall("minecraft:mossy_stone_bricks"), apply: { idempotency_key: "wall-1" } })).structuredContent as Answer;
    expect(retry.operation.operation_id).toBe(r.operation.operation_id);
    expect(s.world.stateAt(0, 64, 0)).toBe("minecraft:stone_bricks");
  });

  it("a person's edit still refuses the plan and nothing is written; undo with apply restores in one call", async () => {
    s.world.externalEdit(1, 66, 0, "minecraft:glass");
    const refused = await s.call("build_prepare", { recipe: wall("minecraft:bricks"), apply: { idempotency_key: "wall-2" } });
    expect(s.error(refused)).toMatchObject({ code: "conflict", details: { reason: "manual_edits" } });
    expect(s.world.stateAt(0, 64, 0)).toBe("minecraft:stone_bricks");
    const first = ((await s.call("operation_list", {})).structuredContent as Answer).operations.at(-1);
    const undo = (await s.call("operation_undo_prepare", { operation_id: first.operation_id, apply: { idempotency_key: "undo-wall" } })).structuredContent as Answer;
    expect(undo.operation).toMatchObject({ status: "applied", written: 17 });
    expect(s.world.stateAt(0, 64, 0)).toBe("minecraft:air");
    expect(s.world.stateAt(1, 66, 0)).toBe("minecraft:glass"); // the person's block stays
  });
});
