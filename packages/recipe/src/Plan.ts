import type { Box3 } from "@mcb/blocks";

/** Source filter of a `replace`: a position is written only where the current block matches. */
export interface SourceFilter {
  /** Block ids matching any of their states, sorted. */
  readonly ids: readonly string[];
  /** Exact canonical states, sorted. */
  readonly states: readonly string[];
}

/**
 * Maximal runs along +x of equal (state, filter), sorted by (y, z, x). Parallel arrays, one entry
 * per run. `state` indexes `Plan.palette`; `filter` is 0 for none, otherwise `Plan.filters[filter − 1]`.
 */
export interface PlanRuns {
  readonly y: Int32Array;
  readonly z: Int32Array;
  readonly x: Int32Array;
  readonly length: Int32Array;
  readonly state: Uint16Array;
  readonly filter: Uint16Array;
}

/**
 * An immutable compiled plan (docs/DESIGN.md "Plans"): unique positions sorted by (y, z, x),
 * later operation wins, canonical states, read dependencies, optional per-position source filters.
 */
export interface Plan {
  readonly format: 1;
  readonly minecraftVersion: string;
  readonly dataVersion: number;
  /** Canonical states, sorted. */
  readonly palette: readonly string[];
  readonly filters: readonly SourceFilter[];
  readonly runs: PlanRuns;
  /** Number of positions. */
  readonly count: number;
  /** Inclusive bounds of the positions, null for an empty plan. */
  readonly bounds: Box3 | null;
  /** Read dependencies as (x, y, z) triples, unique and sorted by (y, z, x). */
  readonly reads: Int32Array;
  /**
   * Block-entity data to place with the block (a pasted chest's items), by position, sorted by
   * (y, z, x); each at a plan position. Opaque canonical NBT bytes. Empty for recipes.
   */
  readonly blockData: readonly PlanBlockData[];
  /** SHA-256 (lowercase hex) of the canonical encoding: see the function `planHash`; `plan_hash` on every wire. */
  readonly planHash: string;
}

export interface PlanBlockData {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly data: Uint8Array;
}

/** Calls `visit` for each position in plan order. */
export function forEachPlanBlock(plan: Plan, visit: (x: number, y: number, z: number, state: number, filter: number) => void): void {
  const { x, y, z, length, state, filter } = plan.runs;
  for (let r = 0; r < length.length; r++) {
    const x0 = x[r]!;
    const end = x0 + length[r]!;
    for (let px = x0; px < end; px++) visit(px, y[r]!, z[r]!, state[r]!, filter[r]!);
  }
}

/** Number of positions per palette state, in palette order. */
export function paletteCounts(plan: Plan): Map<string, number> {
  const counts = new Array<number>(plan.palette.length).fill(0);
  const { length, state } = plan.runs;
  for (let r = 0; r < length.length; r++) counts[state[r]!]! += length[r]!;
  return new Map(plan.palette.map((s, i) => [s, counts[i]!]));
}
