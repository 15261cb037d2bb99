import { boxFromCorners } from "@mcb/blocks";
import type { Put, Shape, Span } from "./Shape.js";

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
  const box = boxFromCorners(min, max);
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
  const S = uMin + uMax;
  /** Largest U ≥ 0 with U²·b² + V²·a² ≤ a²·b² (strict: <), or −1 when none: exact integers. */
  const reach = (a: number, b: number, V: number, strict: boolean): number => {
    const rest = a * a * b * b - V * V * a * a;
    const fits = (U: number): boolean => (strict ? U * U * b * b < rest : U * U * b * b <= rest);
    if (!fits(0)) return -1;
    let U = Math.floor(Math.sqrt(Math.max(0, rest) / (b * b)));
    while (U > 0 && !fits(U)) U--;
    while (fits(U + 1)) U++;
    return U;
  };
  let cached: Int32Array | undefined;
  /**
   * The ring's cells by row: [u0, u1, v] triples, by v then u. Per row (doubled coordinates
   * U = 2u − (uMin + uMax), V = 2v) the cells inside the outer ellipse form one interval of U,
   * minus the interval strictly inside the ellipse shrunk by `thickness`.
   */
  const rowSpans = (): Int32Array => {
    if (cached !== undefined) return cached;
    const out: number[] = [];
    const lowest = (U: number) => Math.ceil((S - U) / 2),
      highest = (U: number) => Math.floor((S + U) / 2);
    for (let v = 0; v <= rise; v++) {
      const outer = reach(A, B, 2 * v, false);
      if (outer < 0) continue;
      const u0 = Math.max(uMin, lowest(outer)),
        u1 = Math.min(uMax, highest(outer));
      const inner = Ai > 0 && Bi > 0 ? reach(Ai, Bi, 2 * v, true) : -1;
      if (inner < 0) {
        if (u0 <= u1) out.push(u0, u1, v);
        continue;
      }
      const i0 = lowest(inner),
        i1 = highest(inner);
      if (u0 <= Math.min(u1, i0 - 1)) out.push(u0, Math.min(u1, i0 - 1), v);
      if (Math.max(u0, i1 + 1) <= u1) out.push(Math.max(u0, i1 + 1), u1, v);
    }
    cached = Int32Array.from(out);
    return cached;
  };
  const depth = wMax - wMin + 1;
  const emitSpans = (span: Span): void => {
    const spans = rowSpans();
    for (let i = 0; i < spans.length; i += 3) {
      const y = box.minY + spans[i + 2]!;
      if (axis === "x") for (let w = wMin; w <= wMax; w++) span(spans[i]!, spans[i + 1]!, y, w);
      else for (let u = spans[i]!; u <= spans[i + 1]!; u++) span(wMin, wMax, y, u);
    }
  };
  return {
    bounds: box,
    planeArea,
    get count(): number {
      const spans = rowSpans();
      let cellsInPlane = 0;
      for (let i = 0; i < spans.length; i += 3) cellsInPlane += spans[i + 1]! - spans[i]! + 1;
      return cellsInPlane * depth;
    },
    emit(put: Put): void {
      emitSpans((x0, x1, y, z) => {
        for (let x = x0; x <= x1; x++) put(x, y, z);
      });
    },
    emitSpans,
  };
}
