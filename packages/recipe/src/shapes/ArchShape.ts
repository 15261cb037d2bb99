import { normalizeBox, type Put, type Shape } from "./Shape.js";

/**
 * Semi-elliptical arch in the vertical plane spanned by `axis` and y. The outer ellipse has its
 * centre on the springline (min.y) midway along the span, half-width span/2 + ½ and height rise + ½;
 * the ring keeps cells inside it and not strictly inside the ellipse shrunk by `thickness`.
 * Exact integer arithmetic (doubled coordinates), so every machine draws the same arch.
 */
export function archShape(
  min: { x: number; y: number; z: number },
  max: { x: number; y: number; z: number },
  axis: "x" | "z",
  thickness: number,
): Shape & { readonly planeArea: number } {
  const box = normalizeBox(min, max);
  const uMin = axis === "x" ? box.minX : box.minZ;
  const uMax = axis === "x" ? box.maxX : box.maxZ;
  const wMin = axis === "x" ? box.minZ : box.minX;
  const wMax = axis === "x" ? box.maxZ : box.maxX;
  const rise = box.maxY - box.minY;
  const A = uMax - uMin + 1;
  const B = 2 * rise + 1;
  const Ai = A - 2 * thickness;
  const Bi = B - 2 * thickness;
  const planeArea = A * (rise + 1);
  const inRing = (u: number, v: number): boolean => {
    const U = 2 * u - (uMin + uMax);
    const V = 2 * v;
    if (U * U * B * B + V * V * A * A > A * A * B * B) return false;
    return !(Ai > 0 && Bi > 0 && U * U * Bi * Bi + V * V * Ai * Ai < Ai * Ai * Bi * Bi);
  };
  let cached: Int32Array | undefined;
  const cells = (): Int32Array => {
    if (cached !== undefined) return cached;
    const out: number[] = [];
    for (let v = 0; v <= rise; v++) for (let u = uMin; u <= uMax; u++) if (inRing(u, v)) out.push(u, v);
    cached = Int32Array.from(out);
    return cached;
  };
  const depth = wMax - wMin + 1;
  return {
    bounds: box,
    planeArea,
    get count(): number {
      return (cells().length / 2) * depth;
    },
    emit(put: Put): void {
      const c = cells();
      for (let i = 0; i < c.length; i += 2) {
        const u = c[i]!;
        const y = box.minY + c[i + 1]!;
        for (let w = wMin; w <= wMax; w++) {
          if (axis === "x") put(u, y, w);
          else put(w, y, u);
        }
      }
    },
  };
}
