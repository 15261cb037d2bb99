import { boxFromCorners, boxVolume, type Box3 } from "@mcb/blocks";
import type { Put, Shape } from "./Shape.js";

/** Which cells of a box: all of them, its six faces, or its four sides (no floor, no ceiling). */
export type BoxMode = "solid" | "faces" | "walls";

/** The mode a recipe's `hollow` names. */
export function boxMode(hollow: boolean | "walls" | undefined): BoxMode {
  return hollow === "walls" ? "walls" : hollow === true ? "faces" : "solid";
}

export interface BoxShape extends Shape {
  readonly kind: "box";
  readonly box: Box3;
  readonly mode: BoxMode;
}

/** A box: solid, its six faces, or its four walls. */
export function boxShape(min: { x: number; y: number; z: number }, max: { x: number; y: number; z: number }, mode: BoxMode): BoxShape {
  const box = boxFromCorners(min, max);
  const dx = box.maxX - box.minX + 1;
  const dy = box.maxY - box.minY + 1;
  const dz = box.maxZ - box.minZ + 1;
  const hole =
    mode === "faces" ? Math.max(0, dx - 2) * Math.max(0, dy - 2) * Math.max(0, dz - 2) : mode === "walls" ? Math.max(0, dx - 2) * dy * Math.max(0, dz - 2) : 0;
  return {
    kind: "box",
    box,
    mode,
    bounds: box,
    count: boxVolume(box) - hole,
    emit(put: Put): void {
      // The same slabs the compiler fills, so tests of `emit` cover the geometry actually written.
      for (const slab of boxSlabs(box, mode)) {
        for (let y = slab.minY; y <= slab.maxY; y++) for (let z = slab.minZ; z <= slab.maxZ; z++) for (let x = slab.minX; x <= slab.maxX; x++) put(x, y, z);
      }
    },
  };
}

/**
 * Disjoint solid boxes covering the box's cells for a mode. Faces: the floor layer, the north and
 * south rows and the west and east columns of the middle layers, then the ceiling layer. Walls: the
 * north and south rows and the west and east columns over the full height.
 */
export function boxSlabs(b: Box3, mode: BoxMode): Box3[] {
  if (mode === "solid" || b.maxX - b.minX < 2 || b.maxZ - b.minZ < 2) return [b];
  if (mode === "faces" && b.maxY - b.minY < 2) return [b];
  const mid = mode === "faces" ? { minY: b.minY + 1, maxY: b.maxY - 1 } : { minY: b.minY, maxY: b.maxY };
  const inner = { minZ: b.minZ + 1, maxZ: b.maxZ - 1 };
  const sides = [
    { ...b, ...mid, maxZ: b.minZ },
    { ...b, ...mid, minZ: b.maxZ },
    { ...b, ...mid, ...inner, maxX: b.minX },
    { ...b, ...mid, ...inner, minX: b.maxX },
  ];
  return mode === "faces" ? [{ ...b, maxY: b.minY }, ...sides, { ...b, minY: b.maxY }] : sides;
}
