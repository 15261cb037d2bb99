import { boundsOf, boxContains, fail, mcbError, type McbError, ok, type Result } from "@mcb/blocks";
import type { OperationRecord, PartJournal } from "../store/Journal.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import { PROJECT_ID, ProjectAccess, denied, type ProjectConfig } from "../core/Project.js";
import { checkProtectedParts } from "../parts/ProtectedParts.js";

/**
 * The engine's projects: defined at open or later by the host (`/ai project create`, `/ai area
 * set`), and the per-slice write check of running operations (access, area, protected parts).
 */
export class ProjectRegistry {
  private readonly projects = new Map<string, ProjectAccess>();
  /** Protection version each running operation was last checked against. */
  private readonly checked = new Map<string, number>();

  constructor(
    configs: readonly ProjectConfig[],
    private readonly journal: PartJournal,
    private readonly plans: (planId: string) => PreparedPlan,
  ) {
    for (const c of configs) {
      const r = this.define(c);
      if (!r.ok) throw new RangeError(`project ${String(c.projectId)}: ${r.error.message}`);
    }
  }

  get(projectId: string): ProjectAccess | undefined {
    return this.projects.get(projectId);
  }

  define(config: ProjectConfig): Result<void> {
    if (typeof config?.projectId !== "string" || !PROJECT_ID.test(config.projectId))
      return fail(mcbError("invalid_request", "project ids are 1–64 letters, digits, _ or -, starting with a letter or digit", { reason: "project_id" }));
    const a = config.area;
    const ints = a !== undefined && [a.minX, a.minY, a.minZ, a.maxX, a.maxY, a.maxZ].every((v) => Number.isSafeInteger(v));
    if (!ints || a.minX > a.maxX || a.minY > a.maxY || a.minZ > a.maxZ)
      return fail(mcbError("invalid_request", "the area must be an integer box with min ≤ max on every axis", { reason: "area" }));
    if (typeof config.ownerId !== "string" || config.ownerId.length === 0)
      return fail(mcbError("invalid_request", "a project needs an owner", { reason: "owner" }));
    const existing = this.projects.get(config.projectId);
    if (existing === undefined) this.projects.set(config.projectId, new ProjectAccess(config));
    else existing.redefine(config);
    return ok(undefined);
  }

  /** Null while `op` may write its next slice: access, the current area and protections hold. */
  mayWrite(op: OperationRecord): McbError | null {
    const p = this.projects.get(op.projectId);
    if (p === undefined || !p.permits(op.initiator)) return denied(op.projectId);
    if (this.checked.get(op.operationId) === p.protectionVersion) return null;
    const plan = this.plans(op.planId);
    const b = boundsOf(plan.pos);
    if (b !== null && !boxContains(p.config.area, b))
      return mcbError("out_of_bounds", "the project area changed and no longer holds this plan; further slices stopped", { reason: "area_changed" });
    const guarded = checkProtectedParts(this.journal, p.protectedParts, plan);
    if (!guarded.ok) return guarded.error;
    this.checked.set(op.operationId, p.protectionVersion);
    return null;
  }

  finished(operationId: string): void {
    this.checked.delete(operationId);
  }
}
