import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setup, v } from "./InProcessMcp.js";

/** build_prepare / operation_undo_prepare with `apply`: one call, the same checks, the same retry rule. */
let s: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  s = await setup();
});
afterAll(() => s.close());
const wall = (block: string) => ({
  version: 1,
  operations: [{ type: "box", min: v(0, 64, 0), max: v(4, 67, 0), block, exclude: [{ min: v(2, 64, 0), max: v(2, 65, 0) }] }],
});
type Answer = Record<string, any>;

describe("prepare and apply in one call", () => {
  it("builds and names the part; a retry with the same key returns the same operation and writes nothing more", async () => {
    const r = (await s.call("build_prepare", { recipe: wall("minecraft:stone_bricks"), apply: { idempotency_key: "wall-1", part_name: "wall" } }))
      .structuredContent as Answer;
    expect(r.changed_blocks).toBe(18);
    expect(r.operation).toMatchObject({ status: "applied", written: 18, part: { name: "wall", error: null } });
    expect(s.world.stateAt(2, 64, 0)).toBe("minecraft:air"); // the doorway
    const again = (await s.call("build_prepare", { recipe: wall("minecraft:stone_bricks"), apply: { idempotency_key: "wall-1", part_name: "wall" } }))
      .structuredContent as Answer;
    expect(again.changed_blocks).toBe(0); // already built: nothing applied
    expect(again.operation).toBeUndefined();
    const retry = (await s.call("build_prepare", { recipe: wall("minecraft:mossy_stone_bricks"), apply: { idempotency_key: "wall-1" } }))
      .structuredContent as Answer;
    expect(retry.operation.operation_id).toBe(r.operation.operation_id);
    expect(s.world.stateAt(0, 64, 0)).toBe("minecraft:stone_bricks");
  });

  it("a person's edit still refuses the plan and nothing is written; undo with apply restores in one call", async () => {
    s.world.externalEdit(1, 66, 0, "minecraft:glass");
    const refused = await s.call("build_prepare", { recipe: wall("minecraft:bricks"), apply: { idempotency_key: "wall-2" } });
    expect(s.error(refused)).toMatchObject({ code: "conflict", details: { reason: "manual_edits" } });
    expect(s.world.stateAt(0, 64, 0)).toBe("minecraft:stone_bricks");
    const first = ((await s.call("operation_list", {})).structuredContent as Answer).operations.at(-1);
    const undo = (await s.call("operation_undo_prepare", { operation_id: first.operation_id, apply: { idempotency_key: "undo-wall" } }))
      .structuredContent as Answer;
    expect(undo.operation).toMatchObject({ status: "applied", written: 17 });
    expect(s.world.stateAt(0, 64, 0)).toBe("minecraft:air");
    expect(s.world.stateAt(1, 66, 0)).toBe("minecraft:glass"); // the person's block stays
  });

  it("take_over: windows take blocks of the wall part in one call; undo gives them back to the wall", async () => {
    const bricks = { version: 1, operations: [{ type: "box", min: v(0, 64, 3), max: v(4, 67, 3), block: "minecraft:bricks" }] };
    const built = (await s.call("build_prepare", { recipe: bricks, apply: { idempotency_key: "wall-3", part_name: "brick wall" } }))
      .structuredContent as Answer;
    expect(built.operation).toMatchObject({ status: "applied", part: { name: "brick wall", error: null } });
    const pane = { version: 1, operations: [{ type: "box", min: v(3, 66, 3), max: v(3, 66, 3), block: "minecraft:glass" }] };
    const refused = await s.call("build_prepare", { recipe: pane, apply: { idempotency_key: "win-1", part_name: "window" } });
    expect(s.error(refused)).toMatchObject({ code: "invalid_request", details: { reason: "part_overlap", name: "brick wall", count: 1 } });
    expect(s.world.stateAt(3, 66, 3)).toBe("minecraft:bricks");
    const win = (await s.call("build_prepare", { recipe: pane, apply: { idempotency_key: "win-2", part_name: "window", take_over: ["brick wall"] } }))
      .structuredContent as Answer;
    expect(win.operation).toMatchObject({ status: "applied", part: { name: "window", error: null } });
    const part = (await s.call("part_get", { part_id: win.operation.part.part_id })).structuredContent as Answer;
    expect(part).toMatchObject({ count: 1, taken_over: [{ part_id: built.operation.part.part_id, count: 1 }] });
    expect(((await s.call("part_get", { part_id: built.operation.part.part_id })).structuredContent as Answer).count).toBe(built.operation.written - 1);
    const undo = (await s.call("operation_undo_prepare", { operation_id: win.operation.operation_id, apply: { idempotency_key: "undo-win" } }))
      .structuredContent as Answer;
    expect(undo.operation).toMatchObject({ status: "applied", written: 1 });
    expect(s.world.stateAt(3, 66, 3)).toBe("minecraft:bricks");
    expect(((await s.call("part_get", { part_id: built.operation.part.part_id })).structuredContent as Answer).count).toBe(built.operation.written);
  });
});
