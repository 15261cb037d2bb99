import type { ResolvedPose } from "./CameraPose.js";
import type { Box3 } from "@mcb/blocks";

const SECTION_RADIUS = 8 * Math.sqrt(3);

/**
 * Section coordinates (16³) that can hold a visible block: inside the view frustum up to
 * `maxDistance`, inside `bounds` (readable area and build height). Sorted near to far.
 */
export function frustumSections(p: ResolvedPose, maxDistance: number, bounds: Box3): [number, number, number][] {
  const [ex, ey, ez] = p.eye;
  const corners: [number, number, number][] = [];
  for (const sx of [-1, 1])
    for (const sy of [-1, 1]) {
      const h = sx * p.tanHalf * p.aspect,
        v = sy * p.tanHalf;
      corners.push([p.forward[0] + h * p.right[0] + v * p.up[0], p.forward[1] + h * p.right[1] + v * p.up[1], p.forward[2] + h * p.right[2] + v * p.up[2]]);
    }
  // Side planes through the eye: normals pointing inwards (cross products of adjacent corner rays).
  const cross = (a: number[], b: number[]) => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
  const order = [0, 1, 3, 2]; // around the rectangle
  const planes: number[][] = [];
  for (let k = 0; k < 4; k++) {
    const a = corners[order[k]!]!,
      b = corners[order[(k + 1) % 4]!]!;
    let n = cross(a, b);
    const len = Math.hypot(n[0]!, n[1]!, n[2]!);
    n = n.map((c) => c / len);
    if (n[0]! * p.forward[0] + n[1]! * p.forward[1] + n[2]! * p.forward[2] < 0) n = n.map((c) => -c);
    planes.push(n);
  }
  // Axis-aligned box of the eye and the far corners, clipped to the bounds.
  let minX = ex,
    minY = ey,
    minZ = ez,
    maxX = ex,
    maxY = ey,
    maxZ = ez;
  for (const c of corners) {
    const l = Math.hypot(c[0], c[1], c[2]);
    const fx = ex + (c[0] / l) * maxDistance * 1.0001,
      fy = ey + (c[1] / l) * maxDistance,
      fz = ez + (c[2] / l) * maxDistance;
    ((minX = Math.min(minX, fx)), (minY = Math.min(minY, fy)), (minZ = Math.min(minZ, fz)));
    ((maxX = Math.max(maxX, fx)), (maxY = Math.max(maxY, fy)), (maxZ = Math.max(maxZ, fz)));
  }
  // The far cap bulges past the corners along the forward axis.
  ((minX = Math.min(minX, ex + p.forward[0] * maxDistance)), (maxX = Math.max(maxX, ex + p.forward[0] * maxDistance)));
  ((minY = Math.min(minY, ey + p.forward[1] * maxDistance)), (maxY = Math.max(maxY, ey + p.forward[1] * maxDistance)));
  ((minZ = Math.min(minZ, ez + p.forward[2] * maxDistance)), (maxZ = Math.max(maxZ, ez + p.forward[2] * maxDistance)));
  const s0x = Math.floor(Math.max(minX, bounds.minX) / 16),
    s1x = Math.floor(Math.min(maxX, bounds.maxX) / 16);
  const s0y = Math.floor(Math.max(minY, bounds.minY) / 16),
    s1y = Math.floor(Math.min(maxY, bounds.maxY) / 16);
  const s0z = Math.floor(Math.max(minZ, bounds.minZ) / 16),
    s1z = Math.floor(Math.min(maxZ, bounds.maxZ) / 16);
  const out: [number, number, number, number][] = [];
  for (let sy = s0y; sy <= s1y; sy++)
    for (let sz = s0z; sz <= s1z; sz++)
      for (let sx = s0x; sx <= s1x; sx++) {
        const cx = sx * 16 + 8 - ex,
          cy = sy * 16 + 8 - ey,
          cz = sz * 16 + 8 - ez;
        const dist = Math.hypot(cx, cy, cz);
        if (dist - SECTION_RADIUS > maxDistance) continue;
        if (dist > SECTION_RADIUS && planes.some((n) => n[0]! * cx + n[1]! * cy + n[2]! * cz < -SECTION_RADIUS)) continue;
        out.push([sx, sy, sz, dist]);
      }
  out.sort((a, b) => a[3] - b[3]);
  return out.map(([x, y, z]) => [x, y, z]);
}
