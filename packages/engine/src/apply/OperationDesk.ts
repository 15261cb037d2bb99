import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { OperationRecord } from "../store/Journal.js";
import type { ProjectAccess, RequestContext } from "../core/Project.js";
import { operationView, type OperationStatusView } from "../project/Views.js";
import type { SavedWriteJournal } from "../store/Journal.js";
import { applyPlan, type ApplyDeps, type ApplyInput } from "./ApplyAdmission.js";
import type { OperationQueue } from "./OperationQueue.js";

/** What build_apply's admission needs (its queue and status view are the desk's), and the engine's scope and guard. */
export interface OperationDeskDeps extends Omit<ApplyDeps, "submit" | "view" | "journal"> {
  readonly journal: ApplyDeps["journal"] & SavedWriteJournal;
  /** The queue that runs operations (made after the desk: read when a request comes). */
  queue(): OperationQueue;
  scope(ctx: RequestContext): Result<ProjectAccess>;
  guard<T>(run: () => Promise<Result<T>>): Promise<Result<T>>;
}

/**
 * Requests about operations themselves: build_apply (admission, see `applyPlan`), their status and
 * cancellation, and the one reading of an operation id and the one status view every desk uses.
 */
export class OperationDesk {
  /** build_apply's admission over the desk's queue and view, made once. */
  private readonly admission: ApplyDeps;

  constructor(private readonly d: OperationDeskDeps) {
    this.admission = { ...d, submit: (id) => d.queue().submit(id), view: (op) => this.view(op) };
  }

  /** build_apply; a vanished host answers busy (host_down), never an exception. */
  async apply(ctx: RequestContext, input: ApplyInput): Promise<Result<OperationStatusView>> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    return this.d.guard(() => applyPlan(this.admission, ctx, input, scope.value.protectedParts));
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

  /** Asks every queued or running operation (of `client` when given) to stop before its next slice. Returns the operations asked. */
  cancelAll(client?: string): string[] {
    const ids = this.d.journal
      .unfinishedOperations()
      .filter((o) => (o.status === "queued" || o.status === "applying") && (client === undefined || o.initiator.client === client))
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
