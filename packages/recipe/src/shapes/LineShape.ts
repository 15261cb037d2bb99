import { boxFromCorners } from "@mcb/blocks";
import type { Put, Shape, Span } from "./Shape.js";

/**
 * Digital line from `from` to `to`, both included: one block per step of the dominant axis, the
 * other axes rounded half up. Positions are distinct because the dominant axis is strictly monotonic.
 */
export function lineShape(from: { x: number; y: number; z: number }, to: { x: number; y: number; z: number }): Shape {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const dz = to.z - from.z;
  const n = Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dz));
  const step = (start: number, d: number, i: number): number => start + Math.floor((2 * i * d + n) / (2 * n));
  return {
    bounds: boxFromCorners(from, to),
    count: n + 1,
    emit(put: Put): void {
      if (n === 0) {
        put(from.x, from.y, from.z);
        return;
      }
      for (let i = 0; i <= n; i++) put(step(from.x, dx, i), step(from.y, dy, i), step(from.z, dz, i));
    },
    emitSpans(span: Span): void {
      // Consecutive points of one row (a line mostly along x) become one span.
      let x0 = from.x,
        x1 = from.x,
        y = from.y,
        z = from.z;
      for (let i = 1; i <= n; i++) {
        const x = step(from.x, dx, i),
          py = step(from.y, dy, i),
          pz = step(from.z, dz, i);
        if (py === y && pz === z && (x === x1 + 1 || x === x0 - 1)) {
          if (x > x1) x1 = x;
          else x0 = x;
          continue;
        }
        span(x0, x1, y, z);
        ((x0 = x), (x1 = x), (y = py), (z = pz));
      }
      span(x0, x1, y, z);
    },
  };
}
