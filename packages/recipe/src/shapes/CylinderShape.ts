import type { Put, Shape } from "./Shape.js";

/** Offsets (u, v) of a disk of radius r: u² + v² ≤ r² + r, i.e. inside radius r + ½. With `ring`, only cells with a 4-neighbour outside. */
function diskOffsets(r: number, ring: boolean): Int32Array {
  const inside = (u: number, v: number): boolean => u * u + v * v <= r * r + r;
  const out: number[] = [];
  for (let v = -r; v <= r; v++) {
    for (let u = -r; u <= r; u++) {
      if (!inside(u, v)) continue;
      if (ring && inside(u + 1, v) && inside(u - 1, v) && inside(u, v + 1) && inside(u, v - 1)) continue;
      out.push(u, v);
    }
  }
  return Int32Array.from(out);
}

/**
 * Cylinder whose base disk is centred on `center` and which extends `height` blocks along +axis.
 * `hollow` keeps the side wall only (no caps).
 */
export function cylinderShape(
  center: { x: number; y: number; z: number },
  radius: number,
  height: number,
  hollow: boolean,
  axis: "x" | "y" | "z",
): Shape {
  const disk = diskOffsets(radius, hollow);
  const cells = disk.length / 2;
  const { x: cx, y: cy, z: cz } = center;
  const h = height - 1;
  const bounds =
    axis === "y"
      ? { minX: cx - radius, maxX: cx + radius, minY: cy, maxY: cy + h, minZ: cz - radius, maxZ: cz + radius }
      : axis === "x"
        ? { minX: cx, maxX: cx + h, minY: cy - radius, maxY: cy + radius, minZ: cz - radius, maxZ: cz + radius }
        : { minX: cx - radius, maxX: cx + radius, minY: cy - radius, maxY: cy + radius, minZ: cz, maxZ: cz + h };
  return {
    bounds,
    count: cells * height,
    emit(put: Put): void {
      for (let s = 0; s < height; s++) {
        for (let i = 0; i < disk.length; i += 2) {
          const u = disk[i]!;
          const v = disk[i + 1]!;
          if (axis === "y") put(cx + u, cy + s, cz + v);
          else if (axis === "x") put(cx + s, cy + u, cz + v);
          else put(cx + u, cy + v, cz + s);
        }
      }
    },
  };
}
