import type { PreparedPlan } from "../core/PreparedPlan.js";

/** Positions (writes and dependencies) the cache keeps by default: a million, some 28 MB of arrays (stored plans are packed and read back fast). */
export const PLAN_CACHE_POSITIONS = 1_000_000;

/**
 * The plans this engine prepared or read lately, newest kept: a plan is immutable once stored
 * (its id names one content), so a copy is as good as the journal's for every bridge, and
 * build_apply, the applier and undo need not read a large body back (on a shared PostgreSQL
 * journal: tens of milliseconds for a 100,000-block plan). Bounded by positions, least recently
 * used first out; a plan larger than the bound is not kept.
 */
export class PlanCache {
  private readonly plans = new Map<string, PreparedPlan>();
  private positions = 0;

  constructor(private readonly maxPositions = PLAN_CACHE_POSITIONS) {}

  get(planId: string): PreparedPlan | undefined {
    const p = this.plans.get(planId);
    if (p !== undefined) {
      this.plans.delete(planId); // now the most recently used
      this.plans.set(planId, p);
    }
    return p;
  }

  put(plan: PreparedPlan): void {
    const size = sizeOf(plan);
    if (this.plans.has(plan.planId) || size > this.maxPositions) return;
    this.plans.set(plan.planId, plan);
    this.positions += size;
    for (const [id, old] of this.plans) {
      if (this.positions <= this.maxPositions) break;
      this.plans.delete(id);
      this.positions -= sizeOf(old);
    }
  }

  get size(): number {
    return this.plans.size;
  }
}

function sizeOf(plan: PreparedPlan): number {
  return (plan.pos.length + plan.depPos.length) / 3;
}
