/**
 * Compile limits (docs/DESIGN.md "Plans"). All are enforced before the plan is allocated, except
 * `maxBlocks`, which is also rechecked on the deduplicated result.
 */
export interface CompileLimits {
  /** Unique changed positions in one plan (100,000). */
  readonly maxBlocks: number;
  /** Positions produced before "later operation wins" deduplication: the compiler's work bound. */
  readonly maxEmitted: number;
  /** Operation instances after expanding every repeat. */
  readonly maxOperations: number;
  /** Operation objects written in the recipe JSON. */
  readonly maxRecipeOperations: number;
  /** Nesting depth of repeat/transform. */
  readonly maxDepth: number;
  /** Distinct block states in one plan. */
  readonly maxStates: number;
  /** Positions listed as read dependencies. */
  readonly maxDependencies: number;
}

export const DEFAULT_LIMITS: CompileLimits = Object.freeze({
  maxBlocks: 100_000,
  maxEmitted: 2_000_000,
  maxOperations: 10_000,
  maxRecipeOperations: 1_000,
  maxDepth: 8,
  maxStates: 4_096,
  maxDependencies: 4_096,
});

/** Horizontal coordinates stay inside the vanilla world border; y inside the largest allowed world height. */
export const MAX_HORIZONTAL = 30_000_000;
export const MIN_Y = -2_048;
export const MAX_Y = 2_047;
