/**
 * Block positions and inclusive integer boxes: the one spelling of `Vec3` and `Box3` and their
 * helpers for every package (recipe, render, engine, bridge). Pure functions over plain values.
 */

/** An integer block position. */
export interface Vec3 {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/** An inclusive integer box (min ≤ max on every axis). */
export interface Box3 {
  readonly minX: number;
  readonly minY: number;
  readonly minZ: number;
  readonly maxX: number;
  readonly maxY: number;
  readonly maxZ: number;
}

export function boxesIntersect(a: Box3, b: Box3): boolean {
  return a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY && a.minZ <= b.maxZ && b.minZ <= a.maxZ;
}

export function inBox(b: Box3, x: number, y: number, z: number): boolean {
  return x >= b.minX && x <= b.maxX && y >= b.minY && y <= b.maxY && z >= b.minZ && z <= b.maxZ;
}

/** True when `inner` lies wholly inside `outer`. */
export function boxContains(outer: Box3, inner: Box3): boolean {
  return (
    inner.minX >= outer.minX &&
    inner.maxX <= outer.maxX &&
    inner.minY >= outer.minY &&
    inner.maxY <= outer.maxY &&
    inner.minZ >= outer.minZ &&
    inner.maxZ <= outer.maxZ
  );
}

/** Positions in the box (a float beyond 2^53 for absurd boxes: compare, never index). */
export function boxVolume(b: Box3): number {
  return (b.maxX - b.minX + 1) * (b.maxY - b.minY + 1) * (b.maxZ - b.minZ + 1);
}

/** The box spanned by two corners in any order. */
export function boxFromCorners(a: Vec3, b: Vec3): Box3 {
  return {
    minX: Math.min(a.x, b.x),
    minY: Math.min(a.y, b.y),
    minZ: Math.min(a.z, b.z),
    maxX: Math.max(a.x, b.x),
    maxY: Math.max(a.y, b.y),
    maxZ: Math.max(a.z, b.z),
  };
}

/** The smallest box holding both. */
export function boxUnion(a: Box3, b: Box3): Box3 {
  return {
    minX: Math.min(a.minX, b.minX),
    minY: Math.min(a.minY, b.minY),
    minZ: Math.min(a.minZ, b.minZ),
    maxX: Math.max(a.maxX, b.maxX),
    maxY: Math.max(a.maxY, b.maxY),
    maxZ: Math.max(a.maxZ, b.maxZ),
  };
}

/** Bounds of the triples in `pos[from*3 .. to*3)`, or null when empty. */
export function boundsOf(pos: Int32Array | readonly number[], from = 0, to = pos.length / 3): Box3 | null {
  if (to <= from) return null;
  let minX = Infinity,
    minY = Infinity,
    minZ = Infinity,
    maxX = -Infinity,
    maxY = -Infinity,
    maxZ = -Infinity;
  for (let i = from * 3; i < to * 3; i += 3) {
    const x = pos[i]!,
      y = pos[i + 1]!,
      z = pos[i + 2]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  return { minX, minY, minZ, maxX, maxY, maxZ };
}

/** Map key of a position. Coordinates are bounded integers, so the string is unique. */
export function posKey(x: number, y: number, z: number): string {
  return `${x},${y},${z}`;
}

/** The wire form of a box: `{min, max}` corners. */
export function boxJson(b: Box3): { min: Vec3; max: Vec3 } {
  return { min: { x: b.minX, y: b.minY, z: b.minZ }, max: { x: b.maxX, y: b.maxY, z: b.maxZ } };
}
