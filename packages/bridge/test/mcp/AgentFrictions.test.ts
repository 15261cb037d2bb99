import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setup, v } from "./InProcessMcp.js";

let s: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  s = await setup();
});
afterAll(() => s.close());
type Answer = Record<string, any>;
const box = (block: string) => ({ version: 1, operations: [{ type: "box", min: v(0, 64, 0), max: v(3, 66, 3), block }] });

describe("what an agent met in its third hour, answered", () => {
  it("region_changes without a cursor says that it lists changes only since one", async () => {
    const r = (await s.call("region_changes", { min: v(0, 60, 0), max: v(8, 70, 8) })).structuredContent as Answer;
    expect(r.changes).toEqual([]);
    expect(r.note).toMatch(/^no since_cursor: changes are listed only since a cursor; this is the current one/);
  });

  it("an argument given at the top that belongs under another says where it goes", async () => {
    const e = s.error(await s.call("build_prepare", { recipe: box("minecraft:stone"), take_over: ["walls"] }));
    expect(e).toMatchObject({ code: "invalid_request", details: { belongs_under: { take_over: "apply" } } });
    expect(e.message).toMatch(/take_over belongs under apply \(apply\.take_over\)$/);
  });

  it("a plan over the budget names the ways out", async () => {
    const huge = { version: 1, operations: [{ type: "box", min: v(0, 0, 0), max: v(31, 120, 31), block: "minecraft:stone" }] };
    const e = s.error(await s.call("build_prepare", { recipe: huge }));
    expect(e).toMatchObject({ code: "budget_exceeded", details: { ways_out: ["split_into_parts"] } });
    expect(e.message).toMatch(/split the design into parts, one prepare each/);
  });

  it("a part is found by its name wherever a part_id is asked for", async () => {
    const built = (
      await s.call("build_prepare", { recipe: box("minecraft:stone_bricks"), apply: { idempotency_key: "walls", part_name: "walls", wait_ms: 5000 } })
    ).structuredContent as Answer;
    expect(built.operation.part).toMatchObject({ name: "walls" });
    const part = (await s.call("part_get", { part_id: "walls" })).structuredContent as Answer;
    expect(part.name).toBe("walls");
    const rebuild = (await s.call("build_prepare", { recipe: box("minecraft:mossy_stone_bricks"), part_id: "walls" })).structuredContent as Answer;
    expect(rebuild.changed_blocks).toBe(48);
    const framed = await s.call("camera_capture", { frame: { part_id: "walls" } });
    expect(s.error(framed)).toBeNull();
    // operation_list names the part an operation built (it said part_id: null)
    const listed = (await s.call("operation_list", {})).structuredContent as Answer;
    expect((listed.operations as Answer[]).find((o) => o.operation_id === built.operation.operation_id)!.part_id).toBe(part.part_id);
  });
});
