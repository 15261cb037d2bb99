import { PLAN_ORIGINS, type PlanOrigin } from "./PreparedPlan.js";

/**
 * The states of an operation (docs/DESIGN.md "Operations"): queued → applying → applied, or one
 * of the other ends: conflict, cancelled, failed; recovery_required after a crash until an
 * administrator decides. Every state carries exact counters: a cancelled operation may have
 * written part of its plan.
 */
export const OPERATION_STATUSES = ["queued", "applying", "applied", "conflict", "cancelled", "failed", "recovery_required"] as const;

export type OperationStatus = (typeof OPERATION_STATUSES)[number];

/** What an operation did: a recipe build, an undo, terrain tiles, a schematic import, a brush. */
export const OPERATION_KINDS = ["build", "undo", ...PLAN_ORIGINS] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

/**
 * Whether operation_undo_prepare would prepare an undo now: ended, not undone, history certain, and
 * something written (an operation that wrote nothing has nothing to undo).
 */
export function isUndoable(op: {
  readonly status: OperationStatus;
  readonly undoable: boolean;
  readonly undoneBy: string | null;
  readonly counters: { readonly written: number };
}): boolean {
  return op.undoable && op.undoneBy === null && hasEnded(op.status) && op.counters.written > 0;
}

/** An operation's kind: its plan's origin for builds from compiled plans (older records: build). */
export function operationKind(op: { readonly kind: "build" | "undo"; readonly origin?: PlanOrigin }): OperationKind {
  return op.kind === "undo" ? "undo" : (op.origin ?? "build");
}

export function isOperationStatus(s: unknown): s is OperationStatus {
  return typeof s === "string" && (OPERATION_STATUSES as readonly string[]).includes(s);
}

/** Settled: the operation changes no more by itself (it ended, or it waits for an administrator's recovery decision). */
export function isSettled(s: OperationStatus): boolean {
  return s !== "queued" && s !== "applying";
}

/** Ended: applied, conflict, cancelled or failed (settled, and not waiting for recovery). */
export function hasEnded(s: OperationStatus): boolean {
  return isSettled(s) && s !== "recovery_required";
}
