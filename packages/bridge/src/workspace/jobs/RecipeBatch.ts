import { createHash } from "node:crypto";
import { join } from "node:path";
import { fail, mcbError, ok, type BlockRegistry, type McbError, type Result, type Vec3 } from "@mcb/blocks";
import type { ManualEditPolicy } from "@mcb/engine";
import { compileRecipe, PLAN_TILE_BLOCKS, PlanTiles, type Plan } from "@mcb/recipe";
import { partOnComplete, runBatch, type BatchSummary, type ProgressSink } from "./Batch.js";
import type { BatchJobSpec } from "./BatchJobs.js";
import type { Workspace } from "../world/Workspace.js";

/** The most positions one build may have: it runs in tiles of a plan's size (the schematic library reads as many). */
export const MAX_BUILD_POSITIONS = 20_000_000;

/**
 * When a prepare refused a recipe for its size (`budget_exceeded` over the plan's block limit),
 * the recipe compiled again for a build of up to `MAX_BUILD_POSITIONS`, with the size of its
 * tiles (the limit the refusal named); null when the refusal was about something else, or the
 * recipe is too large even so (then the refusal stands as it was).
 */
export function bigBuild(
  registry: BlockRegistry,
  recipe: unknown,
  refusal: McbError,
  dependencies: readonly Vec3[] = [],
): { plan: Plan; tileBlocks: number } | null {
  if (refusal.code !== "budget_exceeded") return null;
  const limit = Number(refusal.details?.limit);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > PLAN_TILE_BLOCKS) return null;
  const plan = compileRecipe(registry, recipe, { limits: { maxBlocks: MAX_BUILD_POSITIONS, maxEmitted: 2 * MAX_BUILD_POSITIONS }, dependencies });
  return plan.ok && plan.value.count > limit ? { plan: plan.value, tileBlocks: limit } : null;
}

/**
 * A big build as a batch of tiles (bottom up, each a checked, undoable operation of at most
 * `tileBlocks` positions), its id from the plan's hash and `key` (the CLI's, or an agent's
 * idempotency key): the same recipe with the same key always resumes the same batch (progress in
 * `<state>/builds/<build_id>.json`).
 */
export function buildBatch(plan: Plan, tileBlocks: number, key: string = "cli"): BatchJobSpec {
  const id = "b_" + createHash("sha256").update(`mcb-build/1\0${plan.planHash}\0${tileBlocks}\0${key}`).digest("hex").slice(0, 24);
  const tiles = new PlanTiles(plan, tileBlocks);
  return { id, total: tiles.count, keyPrefix: `build-${id}`, plan: (i) => ok(tiles.tile(i)), retryConflicts: false };
}

export interface BigBuildOptions {
  readonly partName?: string;
  readonly onManualEdit?: ManualEditPolicy;
  readonly progress?: ProgressSink;
}

/** What `mcb build` did with a build too large for one plan. */
export interface BigBuildReport {
  readonly build_id: string;
  readonly positions: number;
  readonly batch: BatchSummary;
}

/**
 * `mcb build` of a recipe over one plan's size: its tiles prepared and applied in order, as
 * `mcb schem import` runs a paste (resumable: running the command again goes on; a tile that
 * meets people's edits is left in conflict unless `--on-manual-edit keep`), and every block it
 * wrote named as one part at the end (`--part`, default `build <build_id>`).
 */
export async function runBigBuild(w: Workspace, plan: Plan, tileBlocks: number, options: BigBuildOptions): Promise<Result<BigBuildReport>> {
  const spec = buildBatch(plan, tileBlocks);
  const partName = options.partName ?? `build ${spec.id}`;
  const r = await runBatch(
    w,
    {
      ...spec,
      file: join(w.dir, "builds", `${spec.id}.json`),
      ...(options.onManualEdit === undefined ? {} : { onManualEdit: options.onManualEdit }),
      onComplete: partOnComplete(w, partName),
    },
    options.progress ?? (() => undefined),
  );
  return r.ok ? ok({ build_id: spec.id, positions: plan.count, batch: r.value }) : r;
}

/**
 * A size refusal of a prepare without `apply`, told that the same prepare with `apply` builds it in
 * tiles as one job (when it is within `MAX_BUILD_POSITIONS`): `ways_out` gains "apply_in_tiles".
 */
export function withTilesWayOut(refusal: McbError): McbError {
  const d = refusal.details ?? {};
  const requested = Number(d.requested);
  if (refusal.code !== "budget_exceeded" || !Array.isArray(d.ways_out) || !(requested <= MAX_BUILD_POSITIONS)) return refusal;
  return {
    ...refusal,
    message: `${refusal.message}; or prepare it with apply: it is built in tiles of ${PLAN_TILE_BLOCKS} as one job`,
    details: { ...d, ways_out: [...(d.ways_out as unknown[]), "apply_in_tiles"] },
  };
}

/** Options of one plan that a build in tiles cannot take, refused by name. */
export function tiledRefusal(positions: number, tiles: number, what: string): Result<never> {
  return fail(
    mcbError(
      "invalid_request",
      `this build has ${positions} positions and runs in ${tiles} tiles; ${what} applies to one plan: leave it out (--on-manual-edit keep keeps people's edits), or build the design in parts`,
      { reason: "tiled_build", positions, tiles },
    ),
  );
}
