import type { Box3 } from "@mcb/blocks";

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
