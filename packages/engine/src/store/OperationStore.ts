import type { OperationFilter, OperationRecord } from "./Journal.js";
import { operationKind } from "../core/OperationStatus.js";
import type { SqlDb, SqlRow, SqlValue } from "./SqlDb.js";

function parse(row: SqlRow | undefined): OperationRecord | null {
  return row === undefined ? null : (JSON.parse(row["body"] as string) as OperationRecord);
}

/**
 * Operations and their idempotency keys: (project, key) is unique in the table, so the same key
 * creates one operation whatever the process, and a plan is used by one operation at most.
 */
export class OperationStore {
  constructor(private readonly db: SqlDb) {}

  /** Whether any operation uses the plan (a plan is applied at most once). */
  planUsed(planId: string): boolean {
    return this.db.get("SELECT 1 AS used FROM operations WHERE plan_id = ? LIMIT 1", [planId]) !== undefined;
  }

  /** Inserts a new record; `false` when its (project, key) is taken, whatever process took it. */
  insert(op: OperationRecord): boolean {
    const r = this.db.run("INSERT INTO operations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", [
      op.operationId,
      op.projectId,
      op.idempotencyKey,
      op.planId,
      op.status,
      op.createdAt,
      JSON.stringify(op),
      operationKind(op),
      op.partId ?? null,
    ]);
    return r.changes === 1;
  }

  /** Replaces a stored record (same id); throws when there is none. */
  update(op: OperationRecord): void {
    this.db.write("UPDATE operations SET status = ?, body = ? WHERE op_id = ?", [op.status, JSON.stringify(op), op.operationId], {
      changes: 1,
      failure: `unknown operation ${op.operationId}`,
    });
  }

  get(operationId: string): OperationRecord | null {
    return parse(this.db.get("SELECT body FROM operations WHERE op_id = ?", [operationId]));
  }

  byKey(projectId: string, key: string): OperationRecord | null {
    return parse(this.db.get("SELECT body FROM operations WHERE project_id = ? AND idem_key = ?", [projectId, key]));
  }

  byPlan(planId: string): OperationRecord | null {
    return parse(this.db.get("SELECT body FROM operations WHERE plan_id = ? ORDER BY created_at LIMIT 1", [planId]));
  }

  /** Most recent first (created_at, then id, descending), filtered, at most `limit`. */
  list(projectId: string, filter: OperationFilter, limit: number): OperationRecord[] {
    const where = ["project_id = ?"];
    const params: SqlValue[] = [projectId];
    if (filter.kind !== undefined) (where.push("kind = ?"), params.push(filter.kind));
    if (filter.status !== undefined) (where.push("status = ?"), params.push(filter.status));
    if (filter.part !== undefined) {
      const ops = filter.part.operationIds;
      where.push(ops.length === 0 ? "part_id = ?" : `(part_id = ? OR op_id IN (${ops.map(() => "?").join(", ")}))`);
      params.push(filter.part.partId, ...ops);
    }
    if (filter.after !== undefined) {
      where.push("(created_at < ? OR (created_at = ? AND op_id < ?))");
      params.push(filter.after.createdAt, filter.after.createdAt, filter.after.operationId);
    }
    params.push(limit);
    const rows = this.db.all(`SELECT body FROM operations WHERE ${where.join(" AND ")} ORDER BY created_at DESC, op_id DESC LIMIT ?`, params);
    return rows.map((r) => parse(r)!);
  }

  /** Operations in `queued`, `applying` or `recovery_required`, oldest first. */
  unfinished(): OperationRecord[] {
    return this.db
      .all("SELECT body FROM operations WHERE status IN ('queued', 'applying', 'recovery_required') ORDER BY created_at, op_id")
      .map((r) => parse(r)!);
  }
}
