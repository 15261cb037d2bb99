import type { PlanOrigin } from "../core/PreparedPlan.js";
import { type BlockRegistry, fail, mcbError, ok, posKey, type Result, type Vec3 } from "@mcb/blocks";
import type { Plan } from "@mcb/recipe";
import type { ConnectionMode } from "./Connections.js";
import type { ManualEditPolicy } from "../merge/ManualEdits.js";
import type { EngineLimits } from "../core/Project.js";

// The request of a prepare (build_prepare and every other kind of plan) and the checks of its
// options, apart from the plan itself.

export interface ExpectedBlock {
  readonly pos: Vec3;
  readonly state: string;
  readonly snapshot_id?: string;
}

export interface BuildPrepareInput {
  /** A recipe JSON value (version 1). Exactly one of `recipe` and `plan`. */
  readonly recipe?: unknown;
  /** A plan compiled by `@mcb/recipe` (library callers); its hash is re-verified. */
  readonly plan?: Plan;
  readonly dependencies?: readonly Vec3[];
  /** What made a compiled `plan` (operation kind terrain, import or brush); a recipe is a build. */
  readonly origin?: PlanOrigin;
  readonly part_id?: string;
  readonly expected_blocks?: readonly ExpectedBlock[];
  /**
   * Connection states of fences, panes, walls and stairs: "auto" computes them from neighbours
   * (and existing neighbours join back), "pinned" keeps them as written. Default: the recipe's
   * own `connections` ("auto" when absent); "pinned" for a compiled plan (schematics, terrain).
   */
  readonly connections?: ConnectionMode;
  /**
   * Where a person changed a block since we wrote it (or placed it where we never built) and the
   * new design differs: "refuse" (default) refuses the plan with the exact positions; "keep"
   * leaves those blocks as the person made them and prepares the rest.
   */
  readonly on_manual_edit?: ManualEditPolicy;
  /**
   * Positions of people's edits to write over anyway, after an explicit owner decision: each must
   * be a person's edit this plan meets, conflicting or kept (others are refused), at most
   * `maxExpectedBlocks`.
   */
  readonly replace?: readonly Vec3[];
}

/** Most positions an error samples. */
export const SAMPLE = 8;
const DIGEST = /^[0-9a-f]{64}$/;

/** The plan source and the options read before the plan is compiled. */
export interface PlanSource {
  readonly mode: ConnectionMode;
  readonly dependencies: readonly Vec3[];
}

/** Exactly one of recipe and plan; the connection mode; the dependencies within their budget. */
export function readPlanSource(input: BuildPrepareInput, limits: EngineLimits): Result<PlanSource> {
  if ((input.recipe === undefined) === (input.plan === undefined))
    return fail(mcbError("invalid_request", "give exactly one of recipe and plan", { reason: "recipe_or_plan" }));
  const recipeMode =
    input.recipe !== undefined && typeof input.recipe === "object" && input.recipe !== null
      ? (input.recipe as { connections?: unknown }).connections
      : undefined;
  const mode = input.connections ?? recipeMode ?? (input.plan !== undefined ? "pinned" : "auto");
  if (mode !== "auto" && mode !== "pinned")
    return fail(mcbError("invalid_request", 'connections must be "auto" or "pinned"', { reason: "connections", allowed: ["auto", "pinned"] }));
  const dependencies = input.dependencies ?? [];
  if (!Array.isArray(dependencies)) return fail(mcbError("invalid_request", "dependencies must be an array of {x,y,z}"));
  if (dependencies.length > limits.maxDependencies)
    return fail(mcbError("budget_exceeded", `more than ${limits.maxDependencies} dependencies`, { limit: limits.maxDependencies }));
  return ok({ mode, dependencies });
}

/** What the caller decided about people's edits: the policy and the positions to write over. */
export interface EditResolution {
  readonly policy: ManualEditPolicy;
  /** By position key; null when `replace` was not given. */
  readonly replace: Map<string, Vec3> | null;
}

export function readEditResolution(input: BuildPrepareInput, limits: EngineLimits): Result<EditResolution> {
  const policy = input.on_manual_edit ?? "refuse";
  if (policy !== "refuse" && policy !== "keep")
    return fail(mcbError("invalid_request", 'on_manual_edit must be "refuse" or "keep"', { reason: "on_manual_edit", allowed: ["refuse", "keep"] }));
  const replace = replaceSet(input.replace, limits.maxExpectedBlocks);
  if (!replace.ok) return replace;
  return ok({ policy, replace: replace.value });
}

/** `replace` as a map from position key to position; null when absent. */
function replaceSet(list: readonly Vec3[] | undefined, max: number): Result<Map<string, Vec3> | null> {
  if (list === undefined) return ok(null);
  if (!Array.isArray(list)) return fail(mcbError("invalid_request", "replace must be an array of {x, y, z}", { reason: "replace" }));
  if (list.length > max) return fail(mcbError("budget_exceeded", `replace has ${list.length} positions; at most ${max}`, { reason: "replace", limit: max }));
  const out = new Map<string, Vec3>();
  for (const [i, p] of list.entries()) {
    if (typeof p !== "object" || p === null || ![p.x, p.y, p.z].every(Number.isSafeInteger))
      return fail(mcbError("invalid_request", `replace entry ${i} must be an integer position {x, y, z}`, { reason: "replace", index: i }));
    const key = posKey(p.x, p.y, p.z);
    if (out.has(key)) return fail(mcbError("invalid_request", `replace names ${key} twice`, { reason: "replace", index: i }));
    out.set(key, { x: p.x, y: p.y, z: p.z });
  }
  return ok(out);
}

/** Validates expected_blocks: every desired position exactly once, canonical states, digests. */
export function checkExpectedShape(
  registry: BlockRegistry,
  list: readonly ExpectedBlock[] | undefined,
  pos: Int32Array,
  n: number,
  max: number,
): Result<(ExpectedBlock | undefined)[] | null> {
  if (list === undefined) return ok(null);
  const bad = (message: string, details?: Record<string, unknown>): Result<never> =>
    fail(mcbError("invalid_request", `expected_blocks: ${message}`, { reason: "expected_blocks", ...details }));
  if (!Array.isArray(list)) return bad("must be an array");
  if (list.length > max) return fail(mcbError("budget_exceeded", `expected_blocks has ${list.length} entries; at most ${max}`, { limit: max }));
  const byKey = new Map<string, ExpectedBlock>();
  for (const [i, e] of list.entries()) {
    const p = e?.pos;
    if (p === undefined || ![p.x, p.y, p.z].every(Number.isSafeInteger)) return bad(`entry ${i} needs integer pos {x,y,z}`);
    if (typeof e.state !== "string") return bad(`entry ${i} needs a state string`);
    if (e.snapshot_id !== undefined && (typeof e.snapshot_id !== "string" || !DIGEST.test(e.snapshot_id)))
      return bad(`entry ${i}: snapshot_id must be 64 lowercase hex characters`);
    const state = registry.resolveState(e.state);
    if (!state.ok) return fail(mcbError(state.error.code, `expected_blocks entry ${i}: ${state.error.message}`, state.error.details));
    const key = posKey(p.x, p.y, p.z);
    if (byKey.has(key)) return bad(`position ${key} appears twice`);
    byKey.set(key, { pos: p, state: state.value.canonical, ...(e.snapshot_id === undefined ? {} : { snapshot_id: e.snapshot_id }) });
  }
  const ordered = new Array<ExpectedBlock | undefined>(n);
  for (let i = 0; i < n; i++) {
    const key = posKey(pos[i * 3]!, pos[i * 3 + 1]!, pos[i * 3 + 2]!);
    const e = byKey.get(key);
    if (e === undefined) return bad(`must cover every desired position; missing ${key}`, { missing: key });
    ordered[i] = e;
    byKey.delete(key);
  }
  if (byKey.size > 0) return bad(`${byKey.size} entries are not desired positions of the plan`, { extra: [...byKey.keys()].slice(0, SAMPLE) });
  return ok(ordered);
}
