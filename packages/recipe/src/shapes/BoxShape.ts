import { boxVolume, normalizeBox, type Box3, type Put, type Shape } from "./Shape.js";

export interface BoxShape extends Shape {
  readonly kind: "box";
  readonly box: Box3;
  readonly hollow: boolean;
}

/** Solid box, or with `hollow` only its six faces. */
export function boxShape(min: { x: number; y: number; z: number }, max: { x: number; y: number; z: number }, hollow: boolean): BoxShape {
  const box = normalizeBox(min, max);
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
      for (let y = box.minY; y <= box.maxY; y++) {
        const yFace = y === box.minY || y === box.maxY;
        for (let z = box.minZ; z <= box.maxZ; z++) {
          const face = yFace || z === box.minZ || z === box.maxZ;
          if (!hollow || face) {
            for (let x = box.minX; x <= box.maxX; x++) put(x, y, z);
          } else {
            put(box.minX, y, z);
            if (box.maxX !== box.minX) put(box.maxX, y, z);
          }
        }
      }
    },
  };
}

/**
 * Disjoint solid boxes covering the box (hollow: its six faces) in (y, z, x) order: the floor and
 * ceiling layers, then per middle layer band the north and south rows and the west and east columns.
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
