import type { Put, Shape, Span } from "./Shape.js";

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

/** The disk's cells (u, v pairs by v, then u) as u-intervals: [u0, u1, v] triples. */
function diskSpans(disk: Int32Array): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < disk.length; i += 2) {
    const u = disk[i]!,
      v = disk[i + 1]!,
      k = out.length;
    if (k > 0 && out[k - 1] === v && out[k - 2] === u - 1) out[k - 2] = u;
    else out.push(u, u, v);
  }
  return Int32Array.from(out);
}

/**
 * Cylinder whose base disk is centred on `center` and which extends `height` blocks along +axis.
 * `hollow` keeps the side wall only (no caps).
 */
export function cylinderShape(center: { x: number; y: number; z: number }, radius: number, height: number, hollow: boolean, axis: "x" | "y" | "z"): Shape {
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
    emitSpans(span: Span): void {
      if (axis === "x") {
        // Each disk cell is a run along the height.
        for (let i = 0; i < disk.length; i += 2) span(cx, cx + h, cy + disk[i]!, cz + disk[i + 1]!);
        return;
      }
      const spans = diskSpans(disk);
      for (let s = 0; s < height; s++)
        for (let i = 0; i < spans.length; i += 3) {
          if (axis === "y") span(cx + spans[i]!, cx + spans[i + 1]!, cy + s, cz + spans[i + 2]!);
          else span(cx + spans[i]!, cx + spans[i + 1]!, cy + spans[i + 2]!, cz + s);
        }
    },
  };
}
