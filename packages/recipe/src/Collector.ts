/** What a compile collects blocks into, and the raw runs it yields (shared by both collectors). */
import type { Box3 } from "@mcb/blocks";
import type { Material } from "./Material.js";

/**
 * Raw runs in collection order (y, z, x); `value` = (filter << 16) | (state + 1). The arrays may be
 * views of a collector's scratch memory: the plan assembly copies them before its next compile.
 */
export interface RawRuns {
  readonly y: Int32Array;
  readonly z: Int32Array;
  readonly x: Int32Array;
  readonly length: Int32Array;
  readonly value: Uint32Array;
  /** Total positions. */
  readonly count: number;
  /** Tight bounds of the runs when the collector computed them on the way (absent: computed from the runs). */
  readonly bounds?: Box3;
}

/**
 * Collects encoded values by world position; a later put at the same position wins. Row-interval
 * painting (RowCollector) serves recipes whose bounds have at most ROW_LIMIT (y, z) rows;
 * otherwise an append log is sorted (stable by emission index).
 */
export interface BlockCollector {
  put(x: number, y: number, z: number, value: number): void;
  /** Writes `value` to positions x0..x1 of the row (y, z). */
  putSpan(x0: number, x1: number, y: number, z: number, value: number): void;
  /** Writes `shift + pick(material, …)` to positions x0..x1 of the row (y, z). */
  putSpanPalette(x0: number, x1: number, y: number, z: number, material: Material, shift: number): void;
  /** Writes `value` to every position of an inclusive box (constant-state fast path). */
  fillBox(box: Box3, value: number): void;
  /** Writes `shift + pick(material, x, y, z)` to every position of an inclusive box. */
  fillBoxPalette(box: Box3, material: Material, shift: number): void;
  toRuns(): RawRuns;
}
