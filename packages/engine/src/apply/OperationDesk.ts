import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { Journal, OperationRecord } from "../store/Journal.js";
import type { EngineLimits, ProjectAccess, RequestContext } from "../project/Project.js";
import { operationView, type OperationStatusView } from "../project/Views.js";
import type { PreparedPlan } from "../plan/PreparedPlan.js";
import type { BridgeClaims } from "../recovery/BridgeClaims.js";
import type { WorldInfo } from "../world/WorldAdapter.js";
import { applyPlan, type ApplyInput } from "./ApplyAdmission.js";
import type { OperationQueue } from "./OperationQueue.js";

export interface OperationDeskDeps {
  readonly journal: Journal;
  readonly limits: EngineLimits;
  readonly clock: () => number;
  readonly newId: (prefix: string) => string;
  readonly claims: BridgeClaims;
  /** The queue that runs operations (made after the desk: read when a request comes). */
  queue(): OperationQueue;
  scope(ctx: RequestContext): Result<ProjectAccess>;
  guard<T>(run: () => Promise<Result<T>>): Promise<Result<T>>;
  /** The world's host as the engine knows it (a vanished or restarted one throws HostCrash). */
  world(): Promise<WorldInfo>;
  findPlan(planId: string): PreparedPlan | null;
}

/**
 * Requests about operations themselves: build_apply (admission, see `applyPlan`), their status and
 * cancellation, and the one reading of an operation id and the one status view every desk uses.
 */
export class OperationDesk {
  constructor(private readonly d: OperationDeskDeps) {}

  /** build_apply; a vanished host answers busy (host_down), never an exception. */
  async apply(ctx: RequestContext, input: ApplyInput): Promise<Result<OperationStatusView>> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    const d = this.d;
    const deps = {
      journal: d.journal,
      limits: d.limits,
      clock: d.clock,
      newId: d.newId,
      world: () => d.world(),
      submit: (id: string) => d.queue().submit(id),
      view: (op: OperationRecord) => this.view(op),
      claims: d.claims,
      findPlan: (id: string) => d.findPlan(id),
    };
    return d.guard(() => applyPlan(deps, ctx, input, scope.value.protectedParts));
  }

  async status(ctx: RequestContext, input: { operation_id: string }): Promise<Result<OperationStatusView>> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    const op = this.own(ctx, input?.operation_id);
    if (!op.ok) return op;
    const view = this.view(op.value);
    if (view.saved !== false) return ok(view);
    // Not known saved: first make sure the world's server did not restart meanwhile (it may have lost them).
    return this.d.guard(async () => ok(this.view(this.d.journal.getOperation(op.value.operationId)!)));
  }

  /** Stops further slices; completed slices stay written (and in history). Idempotent. */
  async cancel(ctx: RequestContext, input: { operation_id: string }): Promise<Result<OperationStatusView>> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    const op = this.own(ctx, input?.operation_id);
    if (!op.ok) return op;
    if (op.value.status === "queued" || op.value.status === "applying") this.d.queue().cancel(op.value.operationId);
    return ok(this.view(op.value));
  }

  /** Asks every queued or running operation to stop before its next slice. Returns the operations asked. */
  cancelAll(): string[] {
    const ids = this.d.journal
      .unfinishedOperations()
      .filter((o) => o.status === "queued" || o.status === "applying")
      .map((o) => o.operationId);
    for (const id of ids) this.d.queue().cancel(id);
    return ids;
  }

  /** The caller's operation: invalid_request without an id, not_found outside the caller's project. */
  own(ctx: RequestContext, id: unknown): Result<OperationRecord> {
    if (typeof id !== "string") return fail(mcbError("invalid_request", "operation_id is required"));
    const op = this.d.journal.getOperation(id);
    if (op === null || op.projectId !== ctx.projectId) return fail(mcbError("not_found", `no operation ${JSON.stringify(id)} in this project`));
    return ok(op);
  }

  view(op: OperationRecord): OperationStatusView {
    const journal = this.d.journal;
    return operationView(op, this.d.queue().cancelRequested(op.operationId), journal.savedState(op.operationId), journal.lostWrites(op.operationId).length);
  }
}
