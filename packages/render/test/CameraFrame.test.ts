import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FRAME_MARGIN, FRAME_SIDES, framePose, frameSize, lookAtAngles, resolvePose, type CameraPose } from "../src/index.js";

/**
 * Framed views, checked with the renderer's own camera model (resolvePose): every corner of the
 * box projects inside the image with the margin, and the box fills the image along its limiting
 * dimension.
 */
type Box = { minX: number; minY: number; minZ: number; maxX: number; maxY: number; maxZ: number };

/** Corner projections in normalized image coordinates (−1..1), or null for a corner behind the eye. */
function project(pose: CameraPose, box: Box): Array<[number, number] | null> {
  const p = resolvePose(pose);
  if (!p.ok) throw new Error(p.error.message);
  const v = p.value;
  const out: Array<[number, number] | null> = [];
  for (const x of [box.minX, box.maxX + 1])
    for (const y of [box.minY, box.maxY + 1])
      for (const z of [box.minZ, box.maxZ + 1]) {
        const d = [x - v.eye[0], y - v.eye[1], z - v.eye[2]] as const;
        const depth = d[0] * v.forward[0] + d[1] * v.forward[1] + d[2] * v.forward[2];
        if (depth <= 0) {
          out.push(null);
          continue;
        }
        const sx = (d[0] * v.right[0] + d[1] * v.right[1] + d[2] * v.right[2]) / depth / (v.tanHalf * v.aspect);
        const sy = (d[0] * v.up[0] + d[1] * v.up[1] + d[2] * v.up[2]) / depth / v.tanHalf;
        out.push([sx, sy]);
      }
  return out;
}

/** Problems with a framed pose: a corner outside the margin, or the box not filling its limiting dimension. */
function frameFaults(pose: CameraPose, box: Box): string[] {
  const pts = project(pose, box);
  if (pts.some((p) => p === null)) return ["a corner is behind the camera"];
  const limit = 1 - 2 * FRAME_MARGIN + 1e-6;
  const faults = pts.filter((p) => Math.abs(p![0]) > limit || Math.abs(p![1]) > limit).map((p) => `corner at ${p![0].toFixed(3)}, ${p![1].toFixed(3)}`);
  // As close as the margin allows: some corner reaches it (the view axis goes through the box's centre).
  const reach = Math.max(...pts.map((p) => Math.max(Math.abs(p![0]), Math.abs(p![1]))));
  if (reach < (1 - 2 * FRAME_MARGIN) * 0.98) faults.push(`reaches only ${reach.toFixed(3)} of the image`);
  return faults;
}

const boxes = fc
  .record({
    x: fc.integer({ min: -500, max: 500 }),
    y: fc.integer({ min: -64, max: 250 }),
    z: fc.integer({ min: -500, max: 500 }),
    w: fc.integer({ min: 0, max: 63 }),
    h: fc.integer({ min: 0, max: 63 }),
    l: fc.integer({ min: 0, max: 63 }),
  })
  .map((r) => ({ minX: r.x, minY: r.y, minZ: r.z, maxX: r.x + r.w, maxY: r.y + r.h, maxZ: r.z + r.l }));

describe("framed camera poses", () => {
  it("every corner lies inside the image with the margin and the nearest edge reaches it, from every side (property)", () => {
    fc.assert(
      fc.property(boxes, fc.constantFrom(...FRAME_SIDES), fc.boolean(), (box, side, shaped) => {
        const size = shaped ? frameSize(box, side) : { width: 640, height: 360 };
        expect(frameFaults(framePose(box, side, size), box)).toEqual([]);
      }),
      { numRuns: 600 },
    );
  });

  it("the check can fail: a camera moved a fifth closer cuts corners off", () => {
    const box = { minX: 0, minY: 64, minZ: 0, maxX: 8, maxY: 76, maxZ: 8 };
    for (const side of FRAME_SIDES) {
      const pose = framePose(box, side);
      const c = [4.5, 70.5, 4.5];
      const closer = { ...pose, x: c[0]! + (pose.x - c[0]!) * 0.8, y: c[1]! - 1.62 + (pose.y + 1.62 - c[1]!) * 0.8, z: c[2]! + (pose.z - c[2]!) * 0.8 };
      expect(frameFaults(closer, box).length, side).toBeGreaterThan(0);
    }
  });

  it("look_at angles point the view axis at the target", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -100, max: 100 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: -100, max: 100 }),
        fc.integer({ min: -50, max: 50 }),
        fc.integer({ min: 60, max: 120 }),
        fc.integer({ min: -50, max: 50 }),
        (x, y, z, tx, ty, tz) => {
          const from = { x: x + 0.5, y, z: z + 0.5 };
          fc.pre(Math.hypot(tx - x, tz - z) > 1);
          const pose = { ...from, ...lookAtAngles(from, { x: tx, y: ty, z: tz }) };
          const p = resolvePose(pose);
          if (!p.ok) throw new Error("pose");
          const d = [tx + 0.5 - p.value.eye[0], ty + 0.5 - p.value.eye[1], tz + 0.5 - p.value.eye[2]];
          const n = Math.hypot(d[0]!, d[1]!, d[2]!);
          const cos = (d[0]! * p.value.forward[0] + d[1]! * p.value.forward[1] + d[2]! * p.value.forward[2]) / n;
          expect(cos).toBeGreaterThan(0.99999);
        },
      ),
      { numRuns: 300 },
    );
  });
});
