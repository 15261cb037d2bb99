/** Inclusive integer box. */
export interface Box3 {
  readonly minX: number;
  readonly minY: number;
  readonly minZ: number;
  readonly maxX: number;
  readonly maxY: number;
  readonly maxZ: number;
}

export type Put = (x: number, y: number, z: number) => void;
/** An inclusive x-interval x0..x1 (x0 ≤ x1) of the row (y, z). */
export type Span = (x0: number, x1: number, y: number, z: number) => void;

/**
 * A rasterised primitive in local coordinates. `count` is exact and computed without emitting;
 * `emit` produces each position once, in a fixed order.
 */
export interface Shape {
  readonly bounds: Box3;
  readonly count: number;
  emit(put: Put): void;
  /** The same positions as `emit`, as x-intervals (each position once); shapes with long x-runs have it. */
  emitSpans?(span: Span): void;
}

export function normalizeBox(a: { x: number; y: number; z: number }, b: { x: number; y: number; z: number }): Box3 {
  return {
    minX: Math.min(a.x, b.x),
    minY: Math.min(a.y, b.y),
    minZ: Math.min(a.z, b.z),
    maxX: Math.max(a.x, b.x),
    maxY: Math.max(a.y, b.y),
    maxZ: Math.max(a.z, b.z),
  };
}

export function boxVolume(b: Box3): number {
  return (b.maxX - b.minX + 1) * (b.maxY - b.minY + 1) * (b.maxZ - b.minZ + 1);
}
