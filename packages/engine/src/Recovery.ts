import { createHash } from "node:crypto";
import { getBit, posKey } from "./Geometry.js";
import type { Journal, OperationRecord } from "./Journal.js";
import type { PreparedPlan } from "./PreparedPlan.js";
import type { WorldAdapter } from "./WorldAdapter.js";
import { readPositions } from "./WorldReader.js";

/** PROTOCOL.md "Crash recovery": field names follow the seeds' Java record. */
export interface RecoveryReview {
  readonly operationId: string;
  readonly planId: string;
  readonly positions: number;
  readonly matchesBefore: number;
  readonly matchesAfter: number;
  readonly foreignStates: number;
  /** SHA-256 of the reviewed snapshot: pass it to recovery_abandon as expected_digest. */
  readonly currentDigest: string;
  readonly sampledAtMillis: number;
}

/**
 * The reviewed mask as write-set indices, ascending: confirmed writes of finished slices plus every
 * potential write of the unfinished slice (its intent). Positions skipped because they already
 * matched are excluded.
 */
export function recoveryMask(journal: Journal, operationId: string): { indices: number[]; unfinished: Set<number> } {
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
  journal: Journal,
  adapter: WorldAdapter,
  plan: PreparedPlan,
  op: OperationRecord,
  now: number,
): Promise<{ review: RecoveryReview; mask: Int32Array; unconfirmedAfter: number }> {
  const { indices: idx, unfinished } = recoveryMask(journal, op.operationId);
  let unconfirmedAfter = 0;
  const mask = new Int32Array(idx.length * 3);
  idx.forEach((i, k) => mask.set(plan.pos.subarray(i * 3, i * 3 + 3), k * 3));
  const current = await readPositions(adapter, mask);
  let matchesBefore = 0, matchesAfter = 0, foreignStates = 0;
  const hash = createHash("sha256").update(`mcb-recovery/1\0${op.operationId}\0`);
  idx.forEach((i, k) => {
    const c = current.states[k]!;
    const d = current.digests[k] ?? "";
    if (c === plan.states[plan.before[i]!]) matchesBefore++;
    else if (c === plan.states[plan.after[i]!]) {
      matchesAfter++;
      if (unfinished.has(i)) unconfirmedAfter++;
    } else foreignStates++;
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
      currentDigest: hash.digest("hex"),
      sampledAtMillis: now,
    },
    mask,
    unconfirmedAfter,
  };
}
