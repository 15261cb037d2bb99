import { fail, mcbError, ok, type Box3, type Result } from "@mcb/blocks";
import type { PreparedPlan } from "../core/PreparedPlan.js";

/** What a prepared plan will write, for a preview: its positions and their desired states. */
export interface PlanWrites {
  readonly plan_id: string;
  /** What build_apply is given with plan_id. */
  readonly plan_hash: string;
  readonly kind: "build" | "undo";
  /** The box of its writes (null: it writes nothing). */
  readonly region: Box3 | null;
  /** Writes as (x, y, z) triples, in plan order. */
  readonly pos: Int32Array;
  /** The desired state of write i: `states[after[i]]`. */
  readonly states: readonly string[];
  readonly after: Uint32Array;
  readonly expires_at: string;
}

/**
 * The writes of a plan of the caller's project, as a preview shows them; `not_found` for another
 * project's plan or none, `stale_snapshot` (plan_expired) for one apply would refuse as expired.
 */
export function planWrites(plan: PreparedPlan | null, projectId: string, planId: string, now: number): Result<PlanWrites> {
  if (plan === null || plan.projectId !== projectId) return fail(mcbError("not_found", `no plan ${JSON.stringify(planId)} in this project`));
  if (now > plan.expiresAt)
    return fail(
      mcbError("stale_snapshot", "the plan expired; prepare it again from fresh state", {
        reason: "plan_expired",
        expires_at: new Date(plan.expiresAt).toISOString(),
      }),
    );
  const p = plan.pos;
  let region: Box3 | null = null;
  for (let i = 0; i < p.length; i += 3) {
    const x = p[i]!,
      y = p[i + 1]!,
      z = p[i + 2]!;
    if (region === null) region = { minX: x, minY: y, minZ: z, maxX: x, maxY: y, maxZ: z };
    else
      region = {
        minX: Math.min(region.minX, x),
        minY: Math.min(region.minY, y),
        minZ: Math.min(region.minZ, z),
        maxX: Math.max(region.maxX, x),
        maxY: Math.max(region.maxY, y),
        maxZ: Math.max(region.maxZ, z),
      };
  }
  return ok({
    plan_id: plan.planId,
    plan_hash: plan.planHash,
    kind: plan.kind,
    region,
    pos: p,
    states: plan.states,
    after: plan.after,
    expires_at: new Date(plan.expiresAt).toISOString(),
  });
}
