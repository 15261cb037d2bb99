import type { BridgeClaims } from "./BridgeClaims.js";
import type { OperationJournal } from "../store/Journal.js";

/** Set bits of a slice's intent mask. */
function bitCount(mask: Uint8Array): number {
  let n = 0;
  for (let b of mask) for (; b !== 0; b &= b - 1) n++;
  return n;
}

/**
 * What a new host session (or a new engine) means for operations the journal left unfinished: one
 * that had started writing is `recovery_required` (its last slice may or may not be in the world);
 * one still queued never started and is `cancelled`. Nothing is written to the world. An operation
 * another live bridge owns (its claim held) is left to it; one whose bridge died is settled by the
 * one bridge that takes its claim (the others see the result). `skipOwn`: leaves this bridge's own
 * (the periodic look for orphans while its queue runs). Returns the operations settled.
 */
export function settleUnfinished(journal: OperationJournal, now: number, claims: BridgeClaims, options: { readonly skipOwn?: boolean } = {}): string[] {
  const settled: string[] = [];
  for (const listed of journal.unfinishedOperations()) {
    if (listed.status === "recovery_required") continue;
    if (options.skipOwn === true && claims.holds(listed.operationId)) continue; // in this bridge's queue
    if (!claims.own(listed.operationId)) continue;
    // Read again under the claim: its bridge may have committed (or ended it) since the listing.
    const op = journal.getOperation(listed.operationId)!;
    if (op.status !== "queued" && op.status !== "applying") {
      claims.release(op.operationId);
      continue;
    }
    const slices = journal.slices(op.operationId);
    const started = slices.length > 0;
    const status = started ? "recovery_required" : "cancelled";
    // The blocks of slices sent but never confirmed: each may or may not stand in the world until a review says.
    let inFlight = 0;
    for (const sl of slices) if (sl.written === null) inFlight += bitCount(sl.intent);
    const message = started
      ? `the process or the world's server stopped during this operation; ${inFlight.toLocaleString("en-US")} block(s) were in flight (counted as unconfirmed); review it before new writes`
      : "the process or the world's server stopped before this operation started";
    const counters = started ? { ...op.counters, unconfirmed: inFlight } : op.counters;
    journal.commit({ ...op, status, counters, updatedAt: now, error: { code: status === "cancelled" ? "cancelled" : "recovery_required", message } }, [], []);
    claims.release(op.operationId);
    settled.push(op.operationId);
  }
  return settled;
}
