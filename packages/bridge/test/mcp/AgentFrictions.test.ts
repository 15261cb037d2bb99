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
    expect(e).toMatchObject({ code: "budget_exceeded", details: { ways_out: ["split_into_parts", "apply_in_tiles"] } });
    expect(e.message).toMatch(/split the design into parts, one prepare each.*; or prepare it with apply: it is built in tiles/);
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

describe("framed views next to something bigger", () => {
  it("name the sides whose camera stands inside a block, and say what to do", async () => {
    const t = await setup();
    try {
      const house = { version: 1, operations: [{ type: "box", min: v(22, 64, 12), max: v(26, 67, 16), block: "minecraft:oak_planks" }] };
      const cliff = { version: 1, operations: [{ type: "box", min: v(0, 64, 0), max: v(19, 110, 31), block: "minecraft:stone" }] };
      for (const [recipe, key] of [
        [house, "house"],
        [cliff, "cliff"],
      ] as const)
        expect(
          ((await t.call("build_prepare", { recipe, apply: { idempotency_key: key, wait_ms: 10_000 } })).structuredContent as Answer).operation.status,
        ).toBe("applied");
      const r = (await t.call("camera_capture", { frame: { min: v(22, 64, 12), max: v(26, 67, 16), views: ["west", "east"] } })).structuredContent as Answer;
      expect(r.frame.blocked).toEqual(["west"]);
      expect(r.note).toMatch(/^the west view's camera stands inside a block/);
      const open = (await t.call("camera_capture", { frame: { min: v(22, 64, 12), max: v(26, 67, 16), side: "east" } })).structuredContent as Answer;
      expect(open.frame.blocked).toBeUndefined();
      expect(open.note).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe("answers without a second copy of their JSON (mcb mcp --text summary)", () => {
  it("the text beside structuredContent is a short line; refusals keep the whole error as text; by default the text is the JSON", async () => {
    const lean = await setup({ textCopy: "summary" });
    try {
      const r = await lean.call("project_context", {});
      const text = (r.content[0] as { text: string }).text;
      expect(text.length).toBeLessThan(320);
      expect(text).toMatch(/^schema_version: \d+; project_id: p; .*\(the whole answer is in structuredContent\)$/);
      expect((r.structuredContent as Answer).project_id).toBe("p");
      expect(lean.error(await lean.call("part_get", { part_id: "nope" }))).toMatchObject({ code: "not_found" });
    } finally {
      await lean.close();
    }
    const r = await s.call("project_context", {});
    expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(r.structuredContent);
  });
});
