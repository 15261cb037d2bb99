import { createHash } from "node:crypto";
import { type Box3, fail, mcbError, ok, posKey, type Result } from "@mcb/blocks";
import { coverBoxes } from "../merge/BoxCover.js";
import type { OperationRecord, OperationJournal, TouchJournal, SavedWriteJournal } from "../store/Journal.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import type { WorldAdapter } from "../world/WorldAdapter.js";
import { readPositions } from "../world/WorldReader.js";
import { getBit } from "../core/BitMask.js";

/** docs/DESIGN.md "Recovery"; the review's field names are those of docs/PROTOCOL.md (camelCase, as first designed). */
export interface RecoveryReview {
  readonly operationId: string;
  readonly planId: string;
  readonly positions: number;
  readonly matchesBefore: number;
  readonly matchesAfter: number;
  readonly foreignStates: number;
  /**
   * Writes this operation confirmed that the world lost when its server stopped before saving them
   * (reason lost_after_host_crash): their count and an exact cover of at most 16 boxes.
   */
  readonly lost: number;
  readonly lostBoxes: readonly Box3[];
  readonly lostBoxesTruncated: boolean;
  /** SHA-256 of the reviewed snapshot: pass it to recovery_abandon as expected_digest. */
  readonly currentDigest: string;
  readonly sampledAtMillis: number;
}

/**
 * The reviewed mask as write-set indices, ascending: confirmed writes of finished slices plus every
 * potential write of the unfinished slice (its intent). Positions skipped because they already
 * matched are excluded.
 */
export function recoveryMask(
  journal: OperationJournal & TouchJournal & SavedWriteJournal,
  operationId: string,
): { indices: number[]; unfinished: Set<number> } {
  const indices: number[] = [];
  const unfinished = new Set<number>();
  for (const s of journal.slices(operationId)) {
    const mask = s.written ?? s.intent;
    for (let off = 0; off < s.end - s.start; off++) {
      if (!getBit(mask, off)) continue;
      indices.push(s.start + off);
      if (s.written === null) unfinished.add(s.start + off);
    }
  }
  return { indices: indices.sort((a, b) => a - b), unfinished };
}

/**
 * Reads the mask now. `unconfirmedAfter`: positions of unfinished slices at the plan's desired
 * state (very likely written by us, never confirmed), for the abandoned operation's counters.
 */
export async function reviewRecovery(
  journal: OperationJournal & TouchJournal & SavedWriteJournal,
  adapter: WorldAdapter,
  plan: PreparedPlan,
  op: OperationRecord,
  now: number,
): Promise<{ review: RecoveryReview; unconfirmedAfter: number; unfinished: { pos: number[]; states: string[]; ours: boolean[] } }> {
  const { indices: idx, unfinished: open0 } = recoveryMask(journal, op.operationId);
  // Lost writes are uncertain as an unfinished slice is: the administrator's abandon takes them as they are.
  const lost = journal.lostWrites(op.operationId);
  const unfinished = new Set([...open0, ...lost]);
  const lostPos = new Int32Array(lost.length * 3);
  lost.forEach((i, k) => lostPos.set(plan.pos.subarray(i * 3, i * 3 + 3), k * 3));
  const boxes = coverBoxes(lostPos);
  let unconfirmedAfter = 0;
  const mask = new Int32Array(idx.length * 3);
  idx.forEach((i, k) => mask.set(plan.pos.subarray(i * 3, i * 3 + 3), k * 3));
  const current = await readPositions(adapter, mask);
  let matchesBefore = 0,
    matchesAfter = 0,
    foreignStates = 0;
  const hash = createHash("sha256").update(`mcb-recovery/1\0${op.operationId}\0`);
  const open = { pos: [] as number[], states: [] as string[], ours: [] as boolean[] };
  idx.forEach((i, k) => {
    const c = current.states[k]!;
    const d = current.digests[k] ?? "";
    const known = c === plan.states[plan.before[i]!] || c === plan.states[plan.after[i]!];
    if (c === plan.states[plan.before[i]!]) matchesBefore++;
    else if (c === plan.states[plan.after[i]!]) {
      matchesAfter++;
      if (unfinished.has(i)) unconfirmedAfter++;
    } else foreignStates++;
    if (unfinished.has(i)) {
      open.pos.push(mask[k * 3]!, mask[k * 3 + 1]!, mask[k * 3 + 2]!);
      open.states.push(c);
      open.ours.push(known);
    }
    hash.update(`${posKey(mask[k * 3]!, mask[k * 3 + 1]!, mask[k * 3 + 2]!)}=${c}#${d}\n`);
  });
  return {
    review: {
      operationId: op.operationId,
      planId: plan.planId,
      positions: mask.length / 3,
      matchesBefore,
      matchesAfter,
      foreignStates,
      lost: lost.length,
      lostBoxes: boxes.slice(0, 16),
      lostBoxesTruncated: boxes.length > 16,
      currentDigest: hash.digest("hex"),
      sampledAtMillis: now,
    },
    unconfirmedAfter,
    unfinished: open,
  };
}

/**
 * recovery abandon: leaves every block as it is and ends the operation `failed`. Its confirmed
 * writes stay undoable (checked undo restores them where the world still holds them). The
 * unfinished slice's positions are uncertain: recorded as touches, so no earlier undo writes
 * there blindly, and the merge takes them as they are — a `baseline` where they hold the plan's
 * base or result, `accepted` (a person's edit, but no change event) where they hold something else. Refused (invalid_request,
 * stale_digest) when the reviewed blocks changed since the review that produced `expectedDigest`.
 */
export async function abandonRecovery(
  journal: OperationJournal & TouchJournal & SavedWriteJournal,
  adapter: WorldAdapter,
  plan: PreparedPlan,
  op: OperationRecord,
  expectedDigest: unknown,
  now: number,
): Promise<Result<OperationRecord>> {
  const { review, unconfirmedAfter, unfinished } = await reviewRecovery(journal, adapter, plan, op, now);
  if (expectedDigest !== review.currentDigest)
    return fail(mcbError("invalid_request", "the reviewed blocks changed (or the digest is wrong); review again", { reason: "stale_digest" }));
  const pick = (ours: boolean): [Int32Array, string[]] => {
    const pos: number[] = [],
      states: string[] = [];
    unfinished.ours.forEach((o, k) => {
      if (o !== ours) return;
      pos.push(unfinished.pos[k * 3]!, unfinished.pos[k * 3 + 1]!, unfinished.pos[k * 3 + 2]!);
      states.push(unfinished.states[k]!);
    });
    return [Int32Array.from(pos), states];
  };
  const [basePos, baseStates] = pick(true);
  const [foreignPos, foreignStates] = pick(false);
  if (basePos.length > 0) journal.addTouches(basePos, baseStates, { kind: "baseline" });
  if (foreignPos.length > 0) journal.addTouches(foreignPos, foreignStates, { kind: "accepted" });
  const lostNote =
    review.lost > 0
      ? `; the ${review.lost} blocks lost when the server stopped before saving them stay as the world has them (build again to restore them)`
      : "";
  const done: OperationRecord = {
    ...op,
    status: "failed",
    counters: { ...op.counters, unconfirmed: unconfirmedAfter, ...(review.lost > 0 ? { lost: review.lost } : {}) },
    updatedAt: now,
    error: {
      code: "abandoned",
      message: `recovery abandoned by an administrator: ${review.matchesAfter} blocks match the plan, ${review.matchesBefore} the original, ${review.foreignStates} neither; world left as is. Undo restores the confirmed writes the world still holds; the ${unfinished.states.length - review.lost} blocks of the unfinished slice stay as they are${lostNote}`,
    },
  };
  journal.commit(done, [], []);
  return ok(done);
}
