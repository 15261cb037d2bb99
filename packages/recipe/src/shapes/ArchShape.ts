import { normalizeBox, type Put, type Shape, type Span } from "./Shape.js";

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
      // Along x in the inner loop (collectors merge a row's consecutive positions into one interval).
      const c = cells();
      if (axis === "z") {
        for (let i = 0; i < c.length; i += 2) for (let w = wMin; w <= wMax; w++) put(w, box.minY + c[i + 1]!, c[i]!);
        return;
      }
      for (let i = 0; i < c.length;) {
        // Cells come by v, then u: one v's cells, repeated for each w.
        let j = i;
        while (j < c.length && c[j + 1] === c[i + 1]) j += 2;
        const y = box.minY + c[i + 1]!;
        for (let w = wMin; w <= wMax; w++) for (let k = i; k < j; k += 2) put(c[k]!, y, w);
        i = j;
      }
    },
    emitSpans(span: Span): void {
      const c = cells();
      if (axis === "z") {
        for (let i = 0; i < c.length; i += 2) span(wMin, wMax, box.minY + c[i + 1]!, c[i]!);
        return;
      }
      for (let i = 0; i < c.length;) {
        // One v's cells as u-intervals, repeated for each w.
        let j = i + 2;
        while (j < c.length && c[j + 1] === c[i + 1] && c[j] === c[j - 2]! + 1) j += 2;
        const y = box.minY + c[i + 1]!;
        for (let w = wMin; w <= wMax; w++) span(c[i]!, c[j - 2]!, y, w);
        i = j;
      }
    },
  };
}
