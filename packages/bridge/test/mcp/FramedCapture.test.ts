import { PNG } from "pngjs";
import sharp from "sharp";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolvePose, rayDirection, type CameraPose } from "../../../render/src/CameraPose.js";
import { skyColor } from "../../../render/src/Raycaster.js";
import { setup, v } from "./InProcessMcp.js";

/**
 * camera_capture's frame, rendered for real: a stone tower floating in an empty memory world (no
 * ground, so every non-sky pixel is the tower), named as a part in the same call that built it.
 */
let s: Awaited<ReturnType<typeof setup>>;
let partId: string;

function png(r: CallToolResult): PNG {
  const img = r.content.find((c) => c.type === "image");
  if (img === undefined || img.type !== "image") throw new Error(`no image: ${JSON.stringify(r.content)}`);
  return PNG.sync.read(Buffer.from(img.data, "base64"));
}

/** Bounding rectangle of pixels that are not the renderer's sky for their ray (as `pose` casts them). */
function subject(img: PNG, pose: CameraPose): { minX: number; minY: number; maxX: number; maxY: number; pixels: number } {
  const p = resolvePose({ ...pose, width: img.width, height: img.height });
  if (!p.ok) throw new Error("pose");
  const dir = new Float64Array(3),
    sky = new Float64Array(3);
  const r = { minX: Infinity, minY: Infinity, maxX: -1, maxY: -1, pixels: 0 };
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      rayDirection(p.value, x, y, dir);
      skyColor(dir[1]! / Math.hypot(dir[0]!, dir[1]!, dir[2]!), sky);
      const o = (y * img.width + x) * 4;
      if ([0, 1, 2].every((k) => Math.abs(img.data[o + k]! - sky[k]!) <= 1)) continue;
      r.pixels++;
      ((r.minX = Math.min(r.minX, x)), (r.maxX = Math.max(r.maxX, x)), (r.minY = Math.min(r.minY, y)), (r.maxY = Math.max(r.maxY, y)));
    }
  return r;
}

beforeAll(async () => {
  s = await setup();
  const plan = (
    await s.call("build_prepare", {
      recipe: { version: 1, operations: [{ type: "box", min: v(4, 64, 4), max: v(12, 79, 12), block: "minecraft:stone_bricks" }] },
    })
  ).structuredContent as Record<string, string>;
  const op = (await s.call("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "tower", part_name: "tower", wait_ms: 10_000 }))
    .structuredContent as { status: string; part: { part_id: string; name: string } };
  expect(op).toMatchObject({ status: "applied", part: { name: "tower", error: null } });
  partId = op.part.part_id;
});
afterAll(() => s.close());

describe("framed captures", () => {
  for (const side of ["north", "south", "east", "west", "top", "iso"]) {
    it(`frame {part_id, side: ${side}}: the tower lies wholly inside the image and covers at least 40% of it`, async () => {
      const r = await s.call("camera_capture", { format: "png", frame: { part_id: partId, side } });
      expect(s.error(r)).toBeNull();
      const img = png(r);
      const out = r.structuredContent as { width: number; height: number; hit_fraction: number; pose: CameraPose; frame: { sides: string[]; box: unknown } };
      expect([img.width, img.height]).toEqual([out.width, out.height]);
      expect(img.width * img.height).toBeLessThanOrEqual(640 * 360 + 1000);
      expect(out.frame).toMatchObject({ sides: [side], box: { min: v(4, 64, 4), max: v(12, 79, 12) } });
      const t = subject(img, out.pose);
      expect(t.minX).toBeGreaterThan(2);
      expect(t.minY).toBeGreaterThan(2);
      expect(t.maxX).toBeLessThan(img.width - 3);
      expect(t.maxY).toBeLessThan(img.height - 3);
      expect(t.pixels / (img.width * img.height)).toBeGreaterThanOrEqual(0.4);
      expect(out.hit_fraction).toBeCloseTo(t.pixels / (img.width * img.height), 2);
    });
  }

  it("views: four sides tiled in one 960 × 540 image (tiles of 480 × 270), each tile showing the tower inside its own frame", async () => {
    const r = await s.call("camera_capture", { format: "png", frame: { min: v(4, 64, 4), max: v(12, 79, 12), views: ["north", "east", "south", "top"] } });
    const img = png(r);
    expect([img.width, img.height]).toEqual([960, 540]);
    const poses = (r.structuredContent as { frame: { poses: CameraPose[] } }).frame.poses;
    expect(poses).toHaveLength(4);
    for (const [i, [x0, y0]] of (
      [
        [0, 0],
        [480, 0],
        [0, 270],
        [480, 270],
      ] as const
    ).entries()) {
      const tile = new PNG({ width: 480, height: 270 });
      PNG.bitblt(img, tile, x0, y0, 480, 270, 0, 0);
      const t = subject(tile, poses[i]!);
      expect(t.pixels, `${x0},${y0}`).toBeGreaterThan(480 * 270 * 0.1);
      expect(t.minX > 1 && t.minY > 1 && t.maxX < 478 && t.maxY < 268, `${x0},${y0}`).toBe(true);
    }
  });

  it("a pose with look_at faces the block; camera_save keeps a capture's pose for camera_capture(camera_id)", async () => {
    const r = await s.call("camera_capture", { format: "png", pose: { x: 8.5, y: 70, z: -20.5, look_at: v(8, 72, 8) } });
    expect(s.error(r)).toBeNull();
    const meta = r.structuredContent as { capture_id: string; pose: { yaw: number; pitch: number }; width: number };
    expect(meta.width).toBe(640);
    expect(meta.pose.yaw).toBeCloseTo(0, 3);
    const img = png(r);
    const centre = img.data.readUInt32BE(((img.height / 2) * img.width + img.width / 2) * 4);
    expect(centre).not.toBe(img.data.readUInt32BE(0)); // the tower in the middle, sky in the corner
    const saved = await s.call("camera_save", { camera_id: "front", capture_id: meta.capture_id });
    expect(saved.structuredContent).toMatchObject({ camera_id: "front", pose: meta.pose });
    const list = (await s.call("camera_list", {})).structuredContent as { cameras: Array<{ camera_id: string }> };
    expect(list.cameras.map((c) => c.camera_id)).toContain("front");
    const again = await s.call("camera_capture", { format: "png", camera_id: "front" });
    expect(Buffer.compare(Buffer.from(png(again).data), Buffer.from(img.data))).toBe(0);
  });

  it("refuses unclear requests with the field named", async () => {
    expect(s.error(await s.call("camera_capture", { format: "png", frame: { part_id: partId }, pose: { x: 0, y: 70, z: 0, yaw: 0, pitch: 0 } }))).toMatchObject(
      { details: { reason: "camera_or_pose" } },
    );
    expect(s.error(await s.call("camera_capture", { format: "png", frame: { min: v(0, 64, 0) } }))).toMatchObject({ details: { reason: "frame" } });
    expect(s.error(await s.call("camera_capture", { format: "png", frame: { part_id: partId, side: "top", views: ["top"] } }))).toMatchObject({
      details: { reason: "frame" },
    });
    expect(s.error(await s.call("camera_capture", { format: "png", pose: { x: 0, y: 70, z: 0 } }))).toMatchObject({ details: { reason: "pose" } });
    expect(s.error(await s.call("camera_capture", { pose: { x: 0, y: 70, z: 0, yaw: 0, pitch: 0, look_at: v(0, 70, 5) } }))).toMatchObject({
      details: { reason: "pose" },
    });
    expect(s.error(await s.call("camera_capture", { pose: { x: 0, y: 70, z: 0 }, look_at: v(0, 70, 5) }))).toMatchObject({ code: "invalid_request" }); // look_at lives in the pose now
    expect(s.error(await s.call("camera_capture", { frame: { part_id: partId }, format: "gif" }))).toMatchObject({ code: "invalid_request" });
    expect(s.error(await s.call("camera_capture", { frame: { part_id: partId }, quality: 0 }))).toMatchObject({ code: "invalid_request" });
    expect(s.error(await s.call("camera_capture", { format: "png", frame: { part_id: "part_nope" } }))?.code).toBe("not_found");
    expect(s.error(await s.call("camera_save", { camera_id: "../x", pose: { x: 0, y: 70, z: 0, yaw: 0, pitch: 0 } }))).toMatchObject({
      details: { reason: "camera_id" },
    });
  });
});

describe("capture formats", () => {
  it("JPEG by default at the stated quality, WebP and PNG on request: the same view, a fraction of the PNG's bytes", async () => {
    const pose = { x: 8.5, y: 70, z: -20.5, look_at: v(8, 72, 8) };
    const pngShot = await s.call("camera_capture", { pose, format: "png" });
    const jpegShot = await s.call("camera_capture", { pose });
    const webpShot = await s.call("camera_capture", { pose, format: "webp", quality: 70 });
    const bytesOf = (r: CallToolResult) => {
      const img = r.content.find((c) => c.type === "image");
      if (img === undefined || img.type !== "image") throw new Error("no image");
      return { data: Buffer.from(img.data, "base64"), mime: img.mimeType };
    };
    const [p, j, w] = [bytesOf(pngShot), bytesOf(jpegShot), bytesOf(webpShot)];
    expect([p.mime, j.mime, w.mime]).toEqual(["image/png", "image/jpeg", "image/webp"]);
    expect(jpegShot.structuredContent).toMatchObject({ mime_type: "image/jpeg", quality: 80 });
    expect(webpShot.structuredContent).toMatchObject({ mime_type: "image/webp", quality: 70 });
    expect(pngShot.structuredContent).toMatchObject({ mime_type: "image/png", quality: null });
    expect(j.data.length).toBeLessThan(p.data.length * 0.5);
    expect(w.data.length).toBeLessThan(p.data.length * 0.5);
    // Decoded by libvips (sharp) and pngjs: the same picture within the lossy encoders' error.
    const truth = PNG.sync.read(p.data);
    for (const lossy of [j.data, w.data]) {
      const { data, info } = await sharp(lossy).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([truth.width, truth.height]);
      let error = 0;
      for (let i = 0, k = 0; i < data.length; i += 3, k += 4) for (let c = 0; c < 3; c++) error += Math.abs(data[i + c]! - truth.data[k + c]!);
      expect(error / (info.width * info.height * 3)).toBeLessThan(6);
    }
    // capture_id gives the image as it was delivered, or re-encoded on request.
    const id = (jpegShot.structuredContent as { capture_id: string }).capture_id;
    expect(bytesOf(await s.call("camera_capture", { capture_id: id })).data.equals(j.data)).toBe(true);
    const asPng = await s.call("camera_capture", { capture_id: id, format: "png" });
    expect(PNG.sync.read(bytesOf(asPng).data).data.equals(truth.data)).toBe(true);
  });
});
