import type { Box3 } from "@mcb/blocks";
import type { Put, Shape } from "./Shape.js";

/** True when (x, y, z) lies in one of the boxes. */
function inAny(boxes: readonly Box3[], x: number, y: number, z: number): boolean {
  for (const b of boxes) if (x >= b.minX && x <= b.maxX && y >= b.minY && y <= b.maxY && z >= b.minZ && z <= b.maxZ) return true;
  return false;
}

/**
 * A shape less some boxes (openings): the base shape's positions outside every excluded box, in
 * the base shape's order. The count is exact: one pass over the base shape, no allocation.
 */
export function excludeShape(base: Shape, boxes: readonly Box3[]): Shape {
  let count = 0;
  base.emit((x, y, z) => {
    if (!inAny(boxes, x, y, z)) count++;
  });
  return {
    bounds: base.bounds,
    count,
    emit(put: Put): void {
      base.emit((x, y, z) => {
        if (!inAny(boxes, x, y, z)) put(x, y, z);
      });
    },
  };
}
