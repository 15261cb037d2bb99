import type { Journal } from "./Journal.js";

/**
 * What a new host session (or a new engine) means for operations the journal left unfinished: one
 * that had started writing is `recovery_required` (its last slice may or may not be in the world);
 * one still queued never started and is `cancelled`. Nothing is written to the world.
 */
export function settleUnfinished(journal: Journal, now: number): void {
  for (const op of journal.unfinishedOperations()) {
    if (op.status === "recovery_required") continue;
    const started = journal.slices(op.operationId).length > 0;
    const status = started ? "recovery_required" : "cancelled";
    const message = started
      ? "the process or the world's server stopped during this operation; review it before new writes"
      : "the process or the world's server stopped before this operation started";
    journal.commit({ ...op, status, updatedAt: now, error: { code: status === "cancelled" ? "cancelled" : "recovery_required", message } }, [], []);
  }
}
