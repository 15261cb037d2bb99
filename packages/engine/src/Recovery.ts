import { createHash } from "node:crypto";
import { getBit } from "./Geometry.js";
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
 * The reviewed mask: confirmed writes of finished slices plus every potential write of the
 * unfinished slice (its intent). Positions skipped because they already matched are excluded.
 */
export function recoveryMask(journal: Journal, plan: PreparedPlan, operationId: string): Int32Array {
  const idx: number[] = [];
  for (const s of journal.slices(operationId)) {
    const mask = s.written ?? s.intent;
    for (let off = 0; off < s.end - s.start; off++) if (getBit(mask, off)) idx.push(s.start + off);
  }
  idx.sort((a, b) => a - b);
  const out = new Int32Array(idx.length * 3);
  idx.forEach((i, k) => out.set(plan.pos.subarray(i * 3, i * 3 + 3), k * 3));
  return out;
}

export async function reviewRecovery(
  journal: Journal,
  adapter: WorldAdapter,
  plan: PreparedPlan,
  op: OperationRecord,
  now: number,
): Promise<{ review: RecoveryReview; mask: Int32Array }> {
  const mask = recoveryMask(journal, plan, op.operationId);
  const current = await readPositions(adapter, mask);
  // Before/after per mask position, looked up through the plan's write-set order.
  const index = new Map<string, number>();
  for (let i = 0; i < plan.pos.length / 3; i++) index.set(`${plan.pos[i * 3]},${plan.pos[i * 3 + 1]},${plan.pos[i * 3 + 2]}`, i);
  let matchesBefore = 0, matchesAfter = 0, foreignStates = 0;
  const hash = createHash("sha256").update(`mcb-recovery/1\0${op.operationId}\0`);
  for (let k = 0; k < mask.length / 3; k++) {
    const key = `${mask[k * 3]},${mask[k * 3 + 1]},${mask[k * 3 + 2]}`;
    const i = index.get(key)!;
    const c = current.states[k]!;
    const d = current.digests[k] ?? "";
    if (c === plan.states[plan.before[i]!]) matchesBefore++;
    else if (c === plan.states[plan.after[i]!]) matchesAfter++;
    else foreignStates++;
    hash.update(`${key}=${c}#${d}\n`);
  }
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
  };
}
