import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { BuildPrepareInput, OperationStatusView, PrepareView, RegionInspectView } from "@mcb/engine";
import type { Workspace } from "../world/Workspace.js";
import { readRecipeFile } from "./RecipeFiles.js";
import { waitSaved } from "./OperationWait.js";
import type { BatchHost, ProgressSink } from "./Batch.js";
import { bigBuild, runBigBuild, tiledRefusal, type BigBuildReport } from "./RecipeBatch.js";

/** How long a command waits for a world's server that went away during its operation to come back. */
export const HOST_WAIT_MS = 60_000;

export interface BuildReport {
  readonly plan: PrepareView;
  /** Null when the plan changes nothing: no operation is created for it. */
  readonly operation: OperationStatusView | null;
  /** How long the world took to save the operation's blocks (null: not asked, or nothing to save). */
  readonly saved_ms?: number | null;
}

/** Options of a writing command: wait until the world saved what it wrote (default yes). */
export interface WriteOptions {
  readonly waitSaved?: boolean;
  /** Name the blocks the operation writes as a part when it ends (builds only). */
  readonly partName?: string;
  /** Parts (names or ids) whose blocks that part may take over. */
  readonly takeOver?: readonly string[];
  /** No line on stderr for the operation (a batch shows one progress bar instead). */
  readonly quiet?: boolean;
}

/**
 * Applies a prepared plan and waits for its operation; null for a plan with nothing to change, or
 * when an interrupt came before it started (nothing written). Says on stderr which operation runs.
 * If the world's server goes away meanwhile, waits (up to `HOST_WAIT_MS`) for it to come back and
 * for the engine's check, then reports what became of the operation; else says which one to review.
 */
export async function applyAndWait(
  w: BatchHost,
  plan: PrepareView,
  key: string,
  options: WriteOptions = {},
): Promise<Result<OperationStatusView | null> & { savedMs?: number | null }> {
  if (plan.changed_blocks === 0 || w.interrupt.requested) return ok(null);
  const started = await w.engine.buildApply(w.ctx, {
    plan_id: plan.plan_id,
    plan_hash: plan.plan_hash,
    idempotency_key: key,
    ...(options.partName === undefined ? {} : { part_name: options.partName }),
    ...(options.takeOver === undefined ? {} : { take_over: options.takeOver }),
  });
  if (!started.ok) return started;
  const op = started.value;
  if (options.quiet !== true)
    w.log(
      `mcb: operation ${op.operation_id} writes ${op.counters.total} blocks in ${op.counters.slices_total} slices (Ctrl-C stops it after the current slice)`,
    );
  if (w.interrupt.requested) {
    await w.engine.operationCancel(w.ctx, { operation_id: op.operation_id });
    w.interrupt.add(op.operation_id);
  }
  await w.engine.settle();
  const status = await statusAfterHost(w, op.operation_id);
  if (options.waitSaved === false) return status;
  const saved = await waitSaved(w.engine, w.ctx, status);
  return { ...saved.status, savedMs: saved.savedMs };
}

/** The operation's status; while the world's server is down, waits for the engine to reconnect. */
async function statusAfterHost(w: BatchHost, operationId: string): Promise<Result<OperationStatusView>> {
  const deadline = Date.now() + HOST_WAIT_MS;
  let logged = false;
  for (;;) {
    const r = await w.engine.operationStatus(w.ctx, { operation_id: operationId });
    if (r.ok || r.error.details?.reason !== "host_down") return r;
    if (Date.now() > deadline || w.interrupt.requested)
      return fail(
        mcbError(
          "busy",
          `the world's server went away while operation ${operationId} ran and is not back; when it is, \`mcb status\` shows what became of it (an operation cut short needs \`mcb recovery review ${operationId}\`)`,
          { reason: "host_down", operation_id: operationId },
        ),
      );
    if (!logged) w.log(`mcb: the world's server went away during operation ${operationId}; waiting up to ${HOST_WAIT_MS / 1000} s for it to come back`);
    logged = true;
    await new Promise((res) => setTimeout(res, Math.min(1_000, Math.max(50, Number(r.error.details?.retry_after_ms ?? 250)))));
  }
}

/** How a CLI prepare meets people's edits (see `on_manual_edit` and `replace` of build_prepare). */
export type EditResolution = Pick<BuildPrepareInput, "on_manual_edit" | "replace">;

/**
 * `mcb build`: prepare the recipe against the embedded world, apply it, wait for the result. A
 * recipe over one plan's size (up to `MAX_BUILD_POSITIONS`) runs in tiles (`runBigBuild`).
 */
export async function buildRecipeFile(
  w: Workspace,
  path: string,
  resolution: EditResolution = {},
  options: WriteOptions & { readonly progress?: ProgressSink } = {},
): Promise<Result<({ readonly mode: "plan" } & BuildReport) | ({ readonly mode: "tiles" } & BigBuildReport)>> {
  const recipe = await readRecipeFile(path);
  if (!recipe.ok) return recipe;
  const plan = await w.engine.buildPrepare(w.ctx, { recipe: recipe.value, ...resolution });
  const big = plan.ok ? null : bigBuild(w.registry, recipe.value, plan.error);
  if (big !== null) {
    const tiles = Math.ceil(big.plan.count / big.tileBlocks);
    if (resolution.replace !== undefined) return tiledRefusal(big.plan.count, tiles, "--replace");
    if (options.takeOver !== undefined) return tiledRefusal(big.plan.count, tiles, "--take-over");
    const r = await runBigBuild(w, big.plan, big.tileBlocks, {
      ...(options.partName === undefined ? {} : { partName: options.partName }),
      ...(resolution.on_manual_edit === undefined ? {} : { onManualEdit: resolution.on_manual_edit }),
      ...(options.progress === undefined ? {} : { progress: options.progress }),
    });
    return r.ok ? ok({ mode: "tiles" as const, ...r.value }) : r;
  }
  if (!plan.ok) return plan;
  // The key is bound to this exact prepared plan: rerunning the command prepares a new plan.
  const op = await applyAndWait(w, plan.value, `cli-${plan.value.plan_id}`, options);
  return op.ok ? ok({ mode: "plan" as const, plan: plan.value, operation: op.value, saved_ms: op.savedMs ?? null }) : op;
}

/** `mcb undo`: a checked reverse plan of one operation, applied like any other. */
export async function undoOperation(
  w: Workspace,
  operationId: string,
  options: WriteOptions = {},
): Promise<Result<BuildReport & { conflicts: number; uncertain: number }>> {
  const plan = await w.engine.operationUndoPrepare(w.ctx, { operation_id: operationId });
  if (!plan.ok) return plan;
  const op = await applyAndWait(w, plan.value, `cli-${plan.value.plan_id}`, options);
  return op.ok
    ? ok({ plan: plan.value, operation: op.value, saved_ms: op.savedMs ?? null, conflicts: plan.value.conflicts.count, uncertain: plan.value.uncertain_blocks })
    : op;
}

/** `mcb inspect x1 y1 z1 x2 y2 z2`: a palette summary of at most 4096 positions. */
export async function inspectRegion(w: Workspace, coords: readonly string[]): Promise<Result<RegionInspectView>> {
  const n = coords.map(Number);
  if (n.length !== 6 || !n.every(Number.isSafeInteger)) return fail(mcbError("invalid_request", "inspect needs six integers: x1 y1 z1 x2 y2 z2"));
  const [x1, y1, z1, x2, y2, z2] = n as [number, number, number, number, number, number];
  return w.engine.regionInspect(w.ctx, { min: { x: x1, y: y1, z: z1 }, max: { x: x2, y: y2, z: z2 }, detail: "summary" });
}
