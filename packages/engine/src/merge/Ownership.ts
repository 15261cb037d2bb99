import type { OperationRecord, SliceRecord, OperationJournal, TouchJournal } from "../store/Journal.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import { getBit } from "../core/BitMask.js";
import { boundsOf, posKey } from "@mcb/blocks";

/** One confirmed write of an operation, in plan order. */
export interface ConfirmedWrite {
  /** Index in the plan's write set. */
  readonly index: number;
  readonly x: number;
  readonly y: number;
  readonly z: number;
  /** Journal sequence of the slice that confirmed it. */
  readonly seq: number;
  /** Block-entity digest right after our write, null if none. */
  readonly afterDigest: string | null;
}

/**
 * The prepared plan of an operation by id, its plan id looked up through the journal once per
 * operation: for readers of slices (a slice names its operation, not its plan). The plans
 * themselves come from `plans` each time (the engine's bounded plan cache): keeping them here too
 * held every plan a long-lived process ever folded (a 100-tile paste: 100 plans, some 300 MB).
 * Throws for a slice whose operation the journal does not have (a broken invariant).
 */
export function operationPlans(journal: OperationJournal & TouchJournal, plans: (planId: string) => PreparedPlan): (operationId: string) => PreparedPlan {
  const planIds = new Map<string, string>();
  return (operationId) => {
    let id = planIds.get(operationId);
    if (id === undefined) {
      const op = journal.getOperation(operationId);
      if (op === null) throw new Error(`journal slice of unknown operation ${operationId}`);
      id = op.planId;
      if (planIds.size >= 100_000) planIds.clear(); // ids only: bounded all the same
      planIds.set(operationId, id);
    }
    return plans(id);
  };
}

/** Every write the journal confirms for `op` (skipped and unwritten positions excluded). */
export function confirmedWrites(journal: OperationJournal & TouchJournal, plan: PreparedPlan, operationId: string): ConfirmedWrite[] {
  const out: ConfirmedWrite[] = [];
  for (const s of journal.slices(operationId)) forEachWritten(plan, s, (w) => out.push(w));
  return out;
}

/** Visits the confirmed writes of one slice (nothing while it is unfinished). */
export function forEachWritten(plan: PreparedPlan, s: SliceRecord, visit: (w: ConfirmedWrite) => void): void {
  if (s.written === null) return;
  const digests = new Map(s.entityDigests);
  for (let off = 0; off < s.end - s.start; off++) {
    if (!getBit(s.written, off)) continue;
    const i = s.start + off;
    visit({ index: i, x: plan.pos[i * 3]!, y: plan.pos[i * 3 + 1]!, z: plan.pos[i * 3 + 2]!, seq: s.seq, afterDigest: digests.get(off) ?? null });
  }
}

/**
 * Splits an operation's confirmed writes into those it still owns and those a later write touched:
 * a later confirmed write by any operation, or an observed external change (ABA included: an edit
 * that restored our value still revokes ownership). Content is checked separately by the caller.
 */
export function ownership(
  journal: OperationJournal & TouchJournal,
  plans: (planId: string) => PreparedPlan,
  op: OperationRecord,
): { owned: ConfirmedWrite[]; revoked: ConfirmedWrite[] } {
  const plan = plans(op.planId);
  const writes = confirmedWrites(journal, plan, op.operationId);
  if (writes.length === 0) return { owned: [], revoked: [] };
  const minSeq = writes.reduce((m, w) => Math.min(m, w.seq), Infinity);
  const flat = new Int32Array(writes.length * 3);
  writes.forEach((w, i) => ((flat[i * 3] = w.x), (flat[i * 3 + 1] = w.y), (flat[i * 3 + 2] = w.z)));
  const box = boundsOf(flat)!;
  const lastTouch = new Map<string, number>();
  const note = (key: string, seq: number): void => {
    if ((lastTouch.get(key) ?? -1) < seq) lastTouch.set(key, seq);
  };
  const planOf = operationPlans(journal, plans);
  for (const s of journal.slicesAfter(minSeq, box)) {
    if (s.operationId !== op.operationId) forEachWritten(planOf(s.operationId), s, (w) => note(posKey(w.x, w.y, w.z), w.seq));
  }
  const t = journal.touchesAfter(minSeq, box).quads;
  for (let i = 0; i < t.length; i += 4) note(posKey(t[i + 1]!, t[i + 2]!, t[i + 3]!), t[i]!);
  const owned: ConfirmedWrite[] = [];
  const revoked: ConfirmedWrite[] = [];
  for (const w of writes) ((lastTouch.get(posKey(w.x, w.y, w.z)) ?? -1) > w.seq ? revoked : owned).push(w);
  return { owned, revoked };
}
