import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { OperationStatusView, PrepareView, RegionInspectView } from "@mcb/engine";
import type { EmbeddedWorld } from "./EmbeddedWorld.js";
import { readRecipeFile } from "./RecipeCommand.js";

export interface BuildReport {
  readonly plan: PrepareView;
  /** Null when the plan changes nothing: no operation is created for it. */
  readonly operation: OperationStatusView | null;
}

/** Applies a prepared plan and waits for its operation; null for a plan with nothing to change. */
export async function applyAndWait(w: EmbeddedWorld, plan: PrepareView, key: string): Promise<Result<OperationStatusView | null>> {
  if (plan.changed_blocks === 0) return ok(null);
  const started = await w.engine.buildApply(w.ctx, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: key });
  if (!started.ok) return started;
  await w.engine.settle();
  return w.engine.operationStatus(w.ctx, { operation_id: started.value.operation_id });
}

/** `mcb build`: prepare the recipe against the embedded world, apply it, wait for the result. */
export async function buildRecipeFile(w: EmbeddedWorld, path: string): Promise<Result<BuildReport>> {
  const recipe = await readRecipeFile(path);
  if (!recipe.ok) return recipe;
  const plan = await w.engine.buildPrepare(w.ctx, { recipe: recipe.value });
  if (!plan.ok) return plan;
  // The key is bound to this exact prepared plan: rerunning the command prepares a new plan.
  const op = await applyAndWait(w, plan.value, `cli-${plan.value.plan_id}`);
  return op.ok ? ok({ plan: plan.value, operation: op.value }) : op;
}

/** `mcb undo`: a checked reverse plan of one operation, applied like any other. */
export async function undoOperation(w: EmbeddedWorld, operationId: string): Promise<Result<BuildReport & { conflicts: number }>> {
  const plan = await w.engine.operationUndoPrepare(w.ctx, { operation_id: operationId });
  if (!plan.ok) return plan;
  const op = await applyAndWait(w, plan.value, `cli-${plan.value.plan_id}`);
  return op.ok ? ok({ plan: plan.value, operation: op.value, conflicts: plan.value.conflicts.count }) : op;
}

/** `mcb inspect x1 y1 z1 x2 y2 z2`: a palette summary of at most 4096 positions. */
export async function inspectRegion(w: EmbeddedWorld, coords: readonly string[]): Promise<Result<RegionInspectView>> {
  const n = coords.map(Number);
  if (n.length !== 6 || !n.every(Number.isSafeInteger)) return fail(mcbError("invalid_request", "inspect needs six integers: x1 y1 z1 x2 y2 z2"));
  const [x1, y1, z1, x2, y2, z2] = n as [number, number, number, number, number, number];
  return w.engine.regionInspect(w.ctx, { min: { x: x1, y: y1, z: z1 }, max: { x: x2, y: y2, z: z2 }, detail: "summary" });
}

export function formatOperation(op: OperationStatusView): string {
  const c = op.counters;
  const lines = [
    `operation ${op.operation_id} ${op.status}${op.kind === "undo" ? ` (undo of ${op.undo_of})` : ""}`,
    `  written ${c.written} of ${c.total}, skipped ${c.skipped}, conflicts ${c.conflicts}, slices ${c.slices_done}/${c.slices_total}${c.unconfirmed > 0 ? `, ${c.unconfirmed} more in the world but never confirmed` : ""}`,
  ];
  for (const k of op.conflicts)
    lines.push(`  conflict ${k.kind} at ${k.pos.x} ${k.pos.y} ${k.pos.z}: expected ${k.expected}, found ${k.actual}${k.changed_since_prepare ? " (changed and changed back since the plan was prepared)" : ""}`);
  if (op.error !== null) lines.push(`  ${op.error.code}: ${op.error.message}`);
  return lines.join("\n");
}
