import { boundsOf } from "@mcb/blocks";
import type { ChangedSincePrepare } from "../merge/ChangedSincePrepare.js";
import type { ConflictSample, SliceRecord } from "../store/Journal.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import type { PositionsRead } from "../world/WorldReader.js";
import { setBit } from "../core/BitMask.js";
import type { CasCheck, CasSlice, CasWrite } from "../world/WorldAdapter.js";

/** One slice ready to send: its journal intent, its compare-and-set, and where each write sits in the slice. */
export interface BuiltSlice {
  readonly intent: SliceRecord;
  readonly cas: CasSlice;
  /** Offset within the slice of each write. */
  readonly offsets: readonly number[];
  /** Targets already at the desired state (not ours: skipped). */
  readonly skipped: number;
}

/** A slice's targets classified: ready to send, or the conflicts that stop the operation before it writes. */
export type SliceOutcome = { readonly ok: true; readonly slice: BuiltSlice } | { readonly ok: false; readonly conflicts: readonly ConflictSample[] };

/**
 * Classifies the targets of slice `sliceNo` (plan positions `start..end`) against `cur` (read from
 * plan position `readFrom`) by the write rule (docs/DESIGN.md "Write rule"): at base → write (a
 * base position held by something else since preparation is a conflict, see
 * `ChangedSincePrepare`), at desired → skip, else conflict. A pair whose two members are both
 * written is one indivisible group.
 */
export function buildSlice(
  plan: PreparedPlan,
  operationId: string,
  sliceNo: number,
  start: number,
  end: number,
  cur: PositionsRead,
  readFrom: number,
  checks: readonly CasCheck[],
  changed: ChangedSincePrepare,
  pairStart: ReadonlySet<number>,
): SliceOutcome {
  const intent = new Uint8Array(Math.ceil((end - start) / 8));
  const writes: CasWrite[] = [];
  const offsets: number[] = [];
  const groupEnds: number[] = [];
  const conflicts: ConflictSample[] = [];
  let skipped = 0;
  for (let i = start; i < end; i++) {
    const state = cur.states[i - readFrom]!;
    const verdict = classify(plan, i, state, cur.digests[i - readFrom]!, changed);
    if (verdict === "skip") skipped++;
    else if (verdict === "write") {
      setBit(intent, i - start);
      const joinsPrevious = pairStart.has(i - 1) && offsets[offsets.length - 1] === i - 1 - start;
      if (joinsPrevious) groupEnds.pop();
      const p = i * 3;
      const data = plan.afterData[i]!;
      writes.push({
        x: plan.pos[p]!,
        y: plan.pos[p + 1]!,
        z: plan.pos[p + 2]!,
        before: plan.states[plan.before[i]!]!,
        beforeDigest: digestOf(plan, plan.beforeDigest[i]!),
        after: plan.states[plan.after[i]!]!,
        ...(data < 0 ? {} : { afterData: plan.data[data]! }),
      });
      offsets.push(i - start);
      groupEnds.push(writes.length);
    } else conflicts.push(targetConflict(plan, i, state, verdict === "changed"));
  }
  if (conflicts.length > 0) return { ok: false, conflicts };
  const record: SliceRecord = { operationId, sliceNo, start, end, intent, written: null, seq: 0, bounds: boundsOf(plan.pos, start, end)!, entityDigests: [] };
  return { ok: true, slice: { intent: record, cas: { checks, writes, groupEnds }, offsets, skipped } };
}

/**
 * docs/DESIGN.md "Write rule" for write-set position i: at base (state and digest) → write, unless the block held
 * something else since preparation (`changed`: the base is stale); at desired → skip; else conflict.
 */
export function classify(
  plan: PreparedPlan,
  i: number,
  current: string,
  digest: string | null,
  changed: ChangedSincePrepare,
): "write" | "skip" | "conflict" | "changed" {
  if (current === plan.states[plan.before[i]!] && digest === digestOf(plan, plan.beforeDigest[i]!)) return changed.has(i) ? "changed" : "write";
  return current === plan.states[plan.after[i]!] ? "skip" : "conflict";
}

/**
 * The conflict at write-set position i. Every conflict an operation meets is a change made after its
 * plan was prepared (the plan's base is what preparation read): `changedSincePrepare` is true; a
 * block back at its base (`back`: something else was there in between) differs in nothing else.
 */
export function targetConflict(plan: PreparedPlan, i: number, actual: string, back: boolean): ConflictSample {
  const expected = plan.states[plan.before[i]!]!;
  const pos = { x: plan.pos[i * 3]!, y: plan.pos[i * 3 + 1]!, z: plan.pos[i * 3 + 2]! };
  return { pos, kind: "write", expected, actual, dataChanged: !back && actual === expected, changedSincePrepare: true };
}

export function dependencyChecks(plan: PreparedPlan): CasCheck[] {
  const checks: CasCheck[] = [];
  for (let d = 0; d < plan.depPos.length / 3; d++) {
    checks.push({
      x: plan.depPos[d * 3]!,
      y: plan.depPos[d * 3 + 1]!,
      z: plan.depPos[d * 3 + 2]!,
      state: plan.states[plan.depState[d]!]!,
      digest: digestOf(plan, plan.depDigest[d]!),
    });
  }
  return checks;
}

export function digestOf(plan: PreparedPlan, i: number): string | null {
  return i < 0 ? null : plan.digests[i]!;
}
