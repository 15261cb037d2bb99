import { ok, type Result } from "@mcb/blocks";
import type { Engine, OperationStatusView, RequestContext } from "@mcb/engine";
import { waitForOperation, waitSaved } from "./OperationWait.js";

/** The operation a prepare's `apply` started, in brief. */
export interface AppliedView {
  readonly operation_id: string;
  readonly status: OperationStatusView["status"];
  readonly written: number;
  readonly total: number;
  readonly conflicts: number;
  readonly part: OperationStatusView["part"];
  readonly error: OperationStatusView["error"];
  /** As operation_status: true once the world saved its writes, false not yet, null when the world does not say. */
  readonly saved: OperationStatusView["saved"];
}

/** build_prepare's and operation_undo_prepare's `apply`: apply the plan in the same call. */
export interface ApplyNow {
  readonly idempotency_key: string;
  readonly part_name?: string;
  /** Parts (names or ids) whose blocks the named part may take over. */
  readonly take_over?: readonly string[];
  readonly wait_ms?: number;
  /** Wait until the world saved the writes of an operation that ended (the embedded world's default). */
  readonly wait_saved?: boolean;
}

/**
 * Prepares, then applies what was prepared with the caller's idempotency key, waiting up to
 * `wait_ms` (default 2000). Nothing changes about the checks: a refused prepare (people's edits,
 * limits) writes nothing and answers as build_prepare does; a plan that changes nothing is not
 * applied. A retry with the same key after the apply started returns that operation again
 * (the plan prepared by the retry is left to expire).
 */
export async function prepareThenApply<V extends { readonly plan_id: string; readonly plan_hash: string; readonly changed_blocks: number }>(
  engine: Engine,
  ctx: RequestContext,
  prepared: Result<V>,
  apply: ApplyNow,
): Promise<Result<V & { readonly operation?: AppliedView }>> {
  if (!prepared.ok || prepared.value.changed_blocks === 0) return prepared;
  const { plan_id, plan_hash } = prepared.value;
  let op = await engine.buildApply(ctx, {
    plan_id,
    plan_hash,
    idempotency_key: apply.idempotency_key,
    ...(apply.part_name === undefined ? {} : { part_name: apply.part_name }),
    ...(apply.take_over === undefined ? {} : { take_over: apply.take_over }),
  });
  if (!op.ok && op.error.details?.reason === "idempotency_key_reused" && typeof op.error.details.operation_id === "string") {
    op = await engine.operationStatus(ctx, { operation_id: op.error.details.operation_id }); // the retried call's operation
  }
  if (!op.ok) return op;
  const ended = await waitForOperation(engine, ctx, ok(op.value), apply.wait_ms ?? 2000);
  const done = apply.wait_saved === true ? (await waitSaved(engine, ctx, ended)).status : ended;
  if (!done.ok) return done;
  const o = done.value;
  return ok({
    ...prepared.value,
    operation: {
      operation_id: o.operation_id,
      status: o.status,
      written: o.counters.written,
      total: o.counters.total,
      conflicts: o.counters.conflicts,
      part: o.part,
      error: o.error,
      saved: o.saved,
    },
  });
}
