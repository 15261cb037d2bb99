/**
 * The states of an operation (docs/DESIGN.md "Operations"): queued → applying → applied, or one
 * of the other ends: conflict, cancelled, failed; recovery_required after a crash until an
 * administrator decides. Every state carries exact counters: a cancelled operation may have
 * written part of its plan.
 */
export const OPERATION_STATUSES = ["queued", "applying", "applied", "conflict", "cancelled", "failed", "recovery_required"] as const;

export type OperationStatus = (typeof OPERATION_STATUSES)[number];

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
