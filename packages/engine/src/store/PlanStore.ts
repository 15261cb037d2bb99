import type { PreparedPlan } from "../core/PreparedPlan.js";
import { decodePlanPositions, decodePreparedPlan, encodePreparedPlan } from "../core/PreparedPlan.js";
import type { SqlDb } from "./SqlDb.js";

/** Prepared plans, by id, in their canonical encoding. */
export class PlanStore {
  constructor(private readonly db: SqlDb) {}

  put(plan: PreparedPlan): void {
    this.db.write("INSERT INTO plans VALUES (?, ?, ?)", [plan.planId, plan.projectId, encodePreparedPlan(plan)]);
  }

  get(planId: string): PreparedPlan | null {
    const row = this.db.get("SELECT body FROM plans WHERE plan_id = ?", [planId]);
    return row === undefined ? null : decodePreparedPlan(row["body"] as Buffer);
  }

  positions(planId: string): Int32Array | null {
    const row = this.db.get("SELECT body FROM plans WHERE plan_id = ?", [planId]);
    return row === undefined ? null : decodePlanPositions(row["body"] as Buffer);
  }
}
