import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { BuildPrepareInput, OperationStatusView, PrepareView, RegionInspectView } from "@mcb/engine";
import type { Workspace } from "./Workspace.js";
import { readRecipeFile } from "./RecipeFiles.js";

export interface BuildReport {
  readonly plan: PrepareView;
  /** Null when the plan changes nothing: no operation is created for it. */
  readonly operation: OperationStatusView | null;
}

/**
 * Applies a prepared plan and waits for its operation; null for a plan with nothing to change, or
 * when an interrupt came before it started (nothing written). Says on stderr which operation runs.
 */
export async function applyAndWait(w: Workspace, plan: PrepareView, key: string): Promise<Result<OperationStatusView | null>> {
  if (plan.changed_blocks === 0 || w.interrupt.requested) return ok(null);
  const started = await w.engine.buildApply(w.ctx, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: key });
  if (!started.ok) return started;
  const op = started.value;
  w.log(`mcb: operation ${op.operation_id} writes ${op.counters.total} blocks in ${op.counters.slices_total} slices (Ctrl-C stops it after the current slice)`);
  if (w.interrupt.requested) {
    await w.engine.operationCancel(w.ctx, { operation_id: op.operation_id });
    w.interrupt.add(op.operation_id);
  }
  await w.engine.settle();
  return w.engine.operationStatus(w.ctx, { operation_id: op.operation_id });
}

/** How a CLI prepare meets people's edits (see `on_manual_edit` and `replace` of build_prepare). */
export type EditResolution = Pick<BuildPrepareInput, "on_manual_edit" | "replace">;

/** `mcb build`: prepare the recipe against the embedded world, apply it, wait for the result. */
export async function buildRecipeFile(w: Workspace, path: string, resolution: EditResolution = {}): Promise<Result<BuildReport>> {
  const recipe = await readRecipeFile(path);
  if (!recipe.ok) return recipe;
  const plan = await w.engine.buildPrepare(w.ctx, { recipe: recipe.value, ...resolution });
  if (!plan.ok) return plan;
  // The key is bound to this exact prepared plan: rerunning the command prepares a new plan.
  const op = await applyAndWait(w, plan.value, `cli-${plan.value.plan_id}`);
  return op.ok ? ok({ plan: plan.value, operation: op.value }) : op;
}

/** `mcb undo`: a checked reverse plan of one operation, applied like any other. */
export async function undoOperation(w: Workspace, operationId: string): Promise<Result<BuildReport & { conflicts: number; uncertain: number }>> {
  const plan = await w.engine.operationUndoPrepare(w.ctx, { operation_id: operationId });
  if (!plan.ok) return plan;
  const op = await applyAndWait(w, plan.value, `cli-${plan.value.plan_id}`);
  return op.ok ? ok({ plan: plan.value, operation: op.value, conflicts: plan.value.conflicts.count, uncertain: plan.value.uncertain_blocks }) : op;
}

/** `mcb inspect x1 y1 z1 x2 y2 z2`: a palette summary of at most 4096 positions. */
export async function inspectRegion(w: Workspace, coords: readonly string[]): Promise<Result<RegionInspectView>> {
  const n = coords.map(Number);
  if (n.length !== 6 || !n.every(Number.isSafeInteger)) return fail(mcbError("invalid_request", "inspect needs six integers: x1 y1 z1 x2 y2 z2"));
  const [x1, y1, z1, x2, y2, z2] = n as [number, number, number, number, number, number];
  return w.engine.regionInspect(w.ctx, { min: { x: x1, y: y1, z: z1 }, max: { x: x2, y: y2, z: z2 }, detail: "summary" });
}
