import { boxFromCorners, boxVolume, type Box3 } from "@mcb/blocks";
import type { Put, Shape } from "./Shape.js";

export interface BoxShape extends Shape {
  readonly kind: "box";
  readonly box: Box3;
  readonly hollow: boolean;
}

/** Solid box, or with `hollow` only its six faces. */
export function boxShape(min: { x: number; y: number; z: number }, max: { x: number; y: number; z: number }, hollow: boolean): BoxShape {
  const box = boxFromCorners(min, max);
  const dx = box.maxX - box.minX + 1;
  const dy = box.maxY - box.minY + 1;
  const dz = box.maxZ - box.minZ + 1;
  const inner = Math.max(0, dx - 2) * Math.max(0, dy - 2) * Math.max(0, dz - 2);
  const count = hollow ? boxVolume(box) - inner : boxVolume(box);
  return {
    kind: "box",
    box,
    hollow,
    bounds: box,
    count,
    emit(put: Put): void {
      // The same slabs the compiler fills, so tests of `emit` cover the geometry actually written.
      for (const slab of boxSlabs(box, hollow)) {
        for (let y = slab.minY; y <= slab.maxY; y++)
          for (let z = slab.minZ; z <= slab.maxZ; z++) for (let x = slab.minX; x <= slab.maxX; x++) put(x, y, z);
      }
    },
  };
}

/**
 * Disjoint solid boxes covering the box (hollow: its six faces): the floor layer, the north and
 * south rows and the west and east columns of the middle layers, then the ceiling layer.
 */
export function boxSlabs(b: Box3, hollow: boolean): Box3[] {
  if (!hollow || b.maxX - b.minX < 2 || b.maxY - b.minY < 2 || b.maxZ - b.minZ < 2) return [b];
  const mid = { minY: b.minY + 1, maxY: b.maxY - 1 };
  const inner = { minZ: b.minZ + 1, maxZ: b.maxZ - 1 };
  return [
    { ...b, maxY: b.minY },
    { ...b, ...mid, maxZ: b.minZ },
    { ...b, ...mid, minZ: b.maxZ },
    { ...b, ...mid, ...inner, maxX: b.minX },
    { ...b, ...mid, ...inner, minX: b.maxX },
    { ...b, minY: b.maxY },
  ];
}
