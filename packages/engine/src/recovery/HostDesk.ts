import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { OperationRecord, OperationJournal, TouchJournal, PartJournal, SavedWriteJournal } from "../store/Journal.js";
import type { HostWatch } from "./HostWatch.js";
import { partsAfterUndo } from "../parts/Parts.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import type { ProjectAccess, RequestContext } from "../core/Project.js";
import { abandonRecovery, reviewRecovery, type RecoveryReview } from "./Recovery.js";
import type { OperationStatusView } from "../project/Views.js";
import type { SavedMarks, WorldAdapter } from "../world/WorldAdapter.js";

/** flush's answer: the world's host session and what it has saved. */
export interface FlushView {
  readonly session: string;
  readonly saved_through: number;
  readonly ms: number;
}

export interface HostDeskDeps {
  readonly adapter: WorldAdapter;
  readonly journal: OperationJournal & TouchJournal & PartJournal & SavedWriteJournal;
  readonly clock: () => number;
  readonly host: HostWatch;
  scope(ctx: RequestContext): Result<ProjectAccess>;
  ownOperation(ctx: RequestContext, id: unknown): Result<OperationRecord>;
  plan(planId: string): PreparedPlan;
  view(op: OperationRecord): OperationStatusView;
  guard<T>(run: () => Promise<Result<T>>): Promise<Result<T>>;
}

/**
 * Requests about what the world's host keeps (docs/DESIGN.md "Saved writes", "Recovery"): saving
 * now (`flush`), and the administrator's review and abandon of an operation left uncertain by a
 * crash or by writes the host lost.
 */
export class HostDesk {
  constructor(private readonly d: HostDeskDeps) {}

  /**
   * Saves every block written so far and resolves when the world has; the operations it covers
   * then report `saved: true`. Errors: busy (host down), invalid_request (`reason: "no_saved_writes"`:
   * the world does not number its writes and saves on its own schedule).
   */
  async flush(ctx: RequestContext): Promise<Result<FlushView>> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    const adapter = this.d.adapter;
    if (adapter.flush === undefined)
      return fail(mcbError("invalid_request", "this world does not report saved writes; it saves on its own schedule", { reason: "no_saved_writes" }));
    return this.d.guard(async () => {
      const t0 = performance.now();
      await this.d.host.check();
      const marks: SavedMarks = await adapter.flush!();
      this.d.journal.noteSaved(marks.session, marks.savedThrough);
      return ok({ session: marks.session, saved_through: marks.savedThrough, ms: Math.round((performance.now() - t0) * 10) / 10 });
    });
  }

  private target(ctx: RequestContext, id: unknown): Result<OperationRecord> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    if (ctx.principal.role !== "admin") return fail(mcbError("permission_denied", "recovery requires the administrator key"));
    const op = this.d.ownOperation(ctx, id);
    if (!op.ok) return op;
    if (op.value.status !== "recovery_required")
      return fail(mcbError("invalid_request", `operation ${op.value.operationId} is ${op.value.status}, not awaiting recovery`, { reason: "not_in_recovery" }));
    return op;
  }

  /** Compares the uncertain mask (an unfinished slice, lost writes) with before/after now; returns a digest of what was seen. */
  review(ctx: RequestContext, input: { operation_id: string }): Promise<Result<RecoveryReview>> {
    return this.d.guard(async () => {
      const op = this.target(ctx, input?.operation_id);
      if (!op.ok) return op;
      const { review } = await reviewRecovery(this.d.journal, this.d.adapter, this.d.plan(op.value.planId), op.value, this.d.clock());
      return ok(review);
    });
  }

  /** Leaves every block as it is and ends the operation `failed` (see `abandonRecovery`). */
  abandon(ctx: RequestContext, input: { operation_id: string; expected_digest: string }): Promise<Result<OperationStatusView>> {
    return this.d.guard(async () => {
      const op = this.target(ctx, input?.operation_id);
      if (!op.ok) return op;
      const done = await abandonRecovery(this.d.journal, this.d.adapter, this.d.plan(op.value.planId), op.value, input.expected_digest, this.d.clock());
      if (!done.ok) return done;
      partsAfterUndo(this.d.journal, (id) => this.d.plan(id), done.value); // an abandoned undo's confirmed writes leave their parts too
      return ok(this.d.view(done.value));
    });
  }
}
