import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setup, v } from "./InProcessMcp.js";

let s: Awaited<ReturnType<typeof setup>>;
beforeAll(async () => {
  s = await setup();
});
afterAll(() => s.close());
type Answer = Record<string, any>;
const tower = { version: 1, operations: [{ type: "box", min: v(4, 64, 4), max: v(8, 72, 8), block: "minecraft:stone_bricks", hollow: true }] };
const image = (r: CallToolResult) => r.content.find((c) => c.type === "image") as { data: string; mimeType: string } | undefined;

/** How many blocks of the tower's box the world holds now (a preview writes none). */
async function built(): Promise<number> {
  const r = (await s.call("region_inspect", { min: v(4, 64, 4), max: v(8, 72, 8), detail: "summary" })).structuredContent as Answer;
  return (r.palette as { state: string; count: number }[]).filter((p) => p.state !== "minecraft:air").reduce((n, p) => n + p.count, 0);
}

describe("previews: a plan seen before it is written", () => {
  it("build_prepare with preview answers the plan and its picture in one call, and writes nothing", async () => {
    const r = await s.call("build_prepare", { recipe: tower, preview: { side: "south" } });
    expect(r.isError).toBeFalsy();
    const answer = r.structuredContent as Answer;
    expect(answer.changed_blocks).toBeGreaterThan(100);
    expect(answer.preview).toMatchObject({ capture_id: expect.stringMatching(/^cap_/), overlay: "changes" });
    const img = image(r)!;
    expect(img.mimeType).toBe("image/jpeg");
    const meta = await sharp(Buffer.from(img.data, "base64")).metadata();
    expect(meta.format).toBe("jpeg");
    expect(await built()).toBe(0);
    // the same picture again by its capture id; the plan still applies as prepared
    const again = (await s.call("camera_capture", { capture_id: answer.preview.capture_id })).structuredContent as Answer;
    expect(again).toMatchObject({ plan_id: answer.plan_id, overlay: "changes", width: meta.width, height: meta.height });
    const op = (await s.call("build_apply", { plan_id: answer.plan_id, plan_hash: answer.plan_hash, idempotency_key: "t", wait_ms: 5000 }))
      .structuredContent as Answer;
    expect(op.status).toBe("applied");
    expect(await built()).toBe(answer.changed_blocks);
  });

  it("camera_capture with plan_id draws any prepared plan (an undo's too), framed on its writes or from a pose; overlay none is the plain picture", async () => {
    const plan = (await s.call("build_prepare", { recipe: { ...tower, operations: [{ ...tower.operations[0], block: "minecraft:oak_planks" }] } }))
      .structuredContent as Answer;
    const framed = await s.call("camera_capture", { plan_id: plan.plan_id, format: "png" });
    expect((framed.structuredContent as Answer).frame.box).toEqual({ min: v(4, 64, 4), max: v(8, 72, 8) });
    const marked = await s.call("camera_capture", { plan_id: plan.plan_id, pose: { x: 6.5, y: 70, z: -10, look_at: v(6, 68, 6) }, format: "png" });
    const plain = await s.call("camera_capture", {
      plan_id: plan.plan_id,
      pose: { x: 6.5, y: 70, z: -10, look_at: v(6, 68, 6) },
      format: "png",
      overlay: "none",
    });
    const world = await s.call("camera_capture", { pose: { x: 6.5, y: 70, z: -10, look_at: v(6, 68, 6) }, format: "png" });
    const pixels = async (r: CallToolResult) =>
      sharp(Buffer.from(image(r)!.data, "base64"))
        .raw()
        .toBuffer();
    const [m, p, w] = await Promise.all([pixels(marked), pixels(plain), pixels(world)]);
    expect(Buffer.compare(m, p)).not.toBe(0); // the marks tint what changes
    expect(Buffer.compare(p, w)).not.toBe(0); // planks instead of stone bricks
    expect((plain.structuredContent as Answer).overlay).toBe("none");
    // an undo plan previews the same way
    const undo = (await s.call("operation_list", {})).structuredContent as Answer;
    const last = (undo.operations as Answer[])[0]!.operation_id;
    const undoPlan = (await s.call("operation_undo_prepare", { operation_id: last })).structuredContent as Answer;
    expect((await s.call("camera_capture", { plan_id: undoPlan.plan_id })).isError).toBeFalsy();
  });

  it("refuses what a preview cannot be, changing nothing", async () => {
    expect(s.error(await s.call("camera_capture", { plan_id: "plan_nope" }))).toMatchObject({ code: "not_found" });
    expect(s.error(await s.call("camera_capture", { overlay: "none", pose: { x: 0, y: 70, z: 0, yaw: 0, pitch: 0 } }))).toMatchObject({
      code: "invalid_request",
      details: { reason: "overlay" },
    });
    expect(s.error(await s.call("build_prepare", { recipe: tower, preview: {}, apply: { idempotency_key: "x" } }))).toMatchObject({
      code: "invalid_request",
      details: { reason: "preview_with_apply" },
    });
    // a plan that changes nothing: the answer has no picture
    const same = await s.call("build_prepare", { recipe: tower, preview: {} });
    expect((same.structuredContent as Answer).changed_blocks).toBe(0);
    expect(image(same)).toBeUndefined();
  });

  it("capture_id returns the picture it took; with refresh: true it draws that view again from the world as it is now", async () => {
    const pose = { x: 20.5, y: 70, z: -6, look_at: v(20, 66, 6) };
    const first = await s.call("camera_capture", { pose, format: "png" });
    const id = (first.structuredContent as Answer).capture_id as string;
    const wall = { version: 1, operations: [{ type: "box", min: v(18, 64, 6), max: v(22, 68, 6), block: "minecraft:gold_block" }] };
    const plan = (await s.call("build_prepare", { recipe: wall, apply: { idempotency_key: "gold", wait_ms: 5000 } })).structuredContent as Answer;
    expect(plan.operation.status).toBe("applied");
    const again = await s.call("camera_capture", { capture_id: id });
    expect(image(again)!.data).toBe(image(first)!.data); // the picture it took, as it was
    const refreshed = await s.call("camera_capture", { capture_id: id, refresh: true });
    expect((refreshed.structuredContent as Answer).capture_id).not.toBe(id);
    expect(image(refreshed)!.data).not.toBe(image(first)!.data); // the gold wall is in it now
  });

  it("schematic_import_prepare with preview draws the paste before it is written", async () => {
    const t = await setup({ toolsets: ["build", "schematic"] });
    try {
      const base = { version: 1, operations: [{ type: "box", min: v(2, 64, 2), max: v(4, 66, 4), block: "minecraft:bricks" }] };
      expect(
        ((await t.call("build_prepare", { recipe: base, apply: { idempotency_key: "b", wait_ms: 5000 } })).structuredContent as Answer).operation.status,
      ).toBe("applied");
      expect(t.error(await t.call("schematic_export", { name: "hut", min: v(2, 64, 2), max: v(4, 66, 4) }))).toBeNull();
      const r = await t.call("schematic_import_prepare", { asset_id: "hut", target: v(12, 64, 12), preview: { side: "north" } });
      expect(t.error(r)).toBeNull();
      const answer = r.structuredContent as Answer;
      expect(answer.changed_blocks).toBe(27);
      expect(answer.preview).toMatchObject({ overlay: "changes" });
      expect(image(r)?.mimeType).toBe("image/jpeg");
      const framed = (await t.call("camera_capture", { capture_id: answer.preview.capture_id })).structuredContent as Answer;
      expect(framed.frame.box).toEqual({ min: v(12, 64, 12), max: v(14, 66, 14) });
      expect(t.world.stateAt(13, 65, 13)).toBe("minecraft:air"); // nothing written
    } finally {
      await t.close();
    }
  });
});
