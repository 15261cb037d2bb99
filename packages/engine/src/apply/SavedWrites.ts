import { posKey } from "@mcb/blocks";
import { getBit } from "../core/BitMask.js";
import type { OperationRecord, SliceRecord, UnsavedSlice, OperationJournal, TouchJournal, SavedWriteJournal } from "../store/Journal.js";
import { hasEnded } from "../core/OperationStatus.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import type { WorldAdapter, WorldInfo } from "../world/WorldAdapter.js";
import { readPositions } from "../world/WorldReader.js";

/** What a restart check found (docs/DESIGN.md "Saved writes"). */
export interface SavedWritesCheck {
  /** Slices of earlier host sessions that were not known saved, now settled. */
  readonly slices: number;
  /** Their confirmed writes, read back from the world. */
  readonly positions: number;
  /** Operations with writes the world no longer holds: now `recovery_required`. */
  readonly lost: readonly { readonly operationId: string; readonly count: number }[];
}

export const LOST_AFTER_HOST_CRASH = "lost_after_host_crash";

/**
 * After the world's host started a new session (a restart, maybe a crash): every confirmed slice
 * of an earlier session that no saved mark covered is read back. A write the world still holds
 * (state, and block-entity digest where we recorded one) was saved; one it does not hold, where
 * no later write of ours or observed edit explains the difference, is lost. Its operation becomes
 * `recovery_required` (reason `lost_after_host_crash`) and its review lists exactly those blocks;
 * nothing is written here. Slices of the current session are left for its marks to settle.
 */
export async function checkUnsavedWrites(
  journal: OperationJournal & TouchJournal & SavedWriteJournal,
  adapter: WorldAdapter,
  plans: (planId: string) => PreparedPlan,
  info: WorldInfo,
  now: number,
): Promise<SavedWritesCheck> {
  if (info.saved !== undefined) journal.noteSaved(info.saved.session, info.saved.savedThrough);
  const current = info.saved?.session;
  const stale = journal.unsavedSlices().filter((s) => s.session !== current);
  if (stale.length === 0) return { slices: 0, positions: 0, lost: [] };
  const byOp = new Map<string, UnsavedSlice[]>();
  for (const s of stale) byOp.set(s.operationId, [...(byOp.get(s.operationId) ?? []), s]);
  const lostByOp = new Map<string, number[]>();
  let positions = 0;
  for (const [operationId, unsaved] of byOp) {
    const op = journal.getOperation(operationId);
    if (op === null) continue;
    const plan = plans(op.planId);
    const records = new Map(journal.slices(operationId).map((r) => [r.sliceNo, r]));
    const picked = unsaved.map((u) => records.get(u.sliceNo)).filter((r): r is SliceRecord => r !== undefined && r.written !== null);
    const lost = await missingWrites(journal, adapter, plans, plan, picked);
    positions += lost.checked;
    if (lost.indices.length > 0) lostByOp.set(operationId, lost.indices);
  }
  journal.settleUnsaved(stale, lostByOp);
  const report: { operationId: string; count: number }[] = [];
  for (const [operationId, indices] of lostByOp) {
    const op = journal.getOperation(operationId)!;
    const count = journal.lostWrites(operationId).length;
    journal.commit(lostRecord(op, count, now), [], []);
    report.push({ operationId, count: indices.length });
  }
  return { slices: stale.length, positions, lost: report };
}

/** The operation, waiting for an administrator: its saved state is uncertain. */
function lostRecord(op: OperationRecord, count: number, now: number): OperationRecord {
  const before = hasEnded(op.status) ? `it had ended ${op.status}` : "it was running";
  return {
    ...op,
    status: "recovery_required",
    updatedAt: now,
    error: {
      code: LOST_AFTER_HOST_CRASH,
      message: `the world's server stopped before saving ${count === 1 ? "1 block" : `${count} blocks`} this operation wrote (${before}); review it (mcb recovery review ${op.operationId}) and build again what is missing`,
    },
  };
}

/** Write-set indices of these slices' confirmed writes that the world no longer holds, unexplained by later writes or edits. */
async function missingWrites(
  journal: OperationJournal & TouchJournal & SavedWriteJournal,
  adapter: WorldAdapter,
  plans: (planId: string) => PreparedPlan,
  plan: PreparedPlan,
  slices: readonly SliceRecord[],
): Promise<{ indices: number[]; checked: number }> {
  let count = 0;
  for (const s of slices) for (let off = 0; off < s.end - s.start; off++) if (getBit(s.written!, off)) count++;
  if (count === 0) return { indices: [], checked: 0 };
  // Flat typed arrays: a restart check may read back a million positions.
  const idx = new Int32Array(count);
  const pos = new Int32Array(count * 3);
  const digestAt = new Map<number, string>();
  let firstSeq = Infinity;
  let k = 0;
  for (const s of slices) {
    firstSeq = Math.min(firstSeq, s.seq);
    for (let off = 0; off < s.end - s.start; off++) {
      if (!getBit(s.written!, off)) continue;
      const i = s.start + off;
      idx[k] = i;
      ((pos[k * 3] = plan.pos[i * 3]!), (pos[k * 3 + 1] = plan.pos[i * 3 + 1]!), (pos[k * 3 + 2] = plan.pos[i * 3 + 2]!));
      k++;
    }
    for (const [off, d] of s.entityDigests) digestAt.set(s.start + off, d);
  }
  const now = await readPositions(adapter, pos);
  const differs: number[] = [];
  for (let j = 0; j < count; j++) {
    const i = idx[j]!;
    if (now.states[j] !== plan.states[plan.after[i]!]) differs.push(j);
    else if (digestAt.size > 0) {
      const digest = digestAt.get(i);
      if (digest !== undefined && now.digests[j] !== digest) differs.push(j);
    }
  }
  if (differs.length === 0) return { indices: [], checked: count };
  const later = laterChanges(journal, plans, slices, firstSeq, pos, differs);
  return { indices: differs.filter((j) => !later.has(posKey(pos[j * 3]!, pos[j * 3 + 1]!, pos[j * 3 + 2]!))).map((j) => idx[j]!), checked: count };
}

/** Positions (of `differs`) that a later confirmed write of any operation, or an observed edit, changed after our slices. */
function laterChanges(
  journal: OperationJournal & TouchJournal & SavedWriteJournal,
  plans: (planId: string) => PreparedPlan,
  own: readonly SliceRecord[],
  afterSeq: number,
  pos: Int32Array,
  differs: readonly number[],
): Set<string> {
  const wanted = new Set(differs.map((k) => posKey(pos[k * 3]!, pos[k * 3 + 1]!, pos[k * 3 + 2]!)));
  let box = { minX: Infinity, minY: Infinity, minZ: Infinity, maxX: -Infinity, maxY: -Infinity, maxZ: -Infinity };
  for (const k of differs) {
    const x = pos[k * 3]!,
      y = pos[k * 3 + 1]!,
      z = pos[k * 3 + 2]!;
    box = {
      minX: Math.min(box.minX, x),
      minY: Math.min(box.minY, y),
      minZ: Math.min(box.minZ, z),
      maxX: Math.max(box.maxX, x),
      maxY: Math.max(box.maxY, y),
      maxZ: Math.max(box.maxZ, z),
    };
  }
  const found = new Set<string>();
  const ownSeqs = new Set(own.map((s) => s.seq));
  for (const s of journal.slicesAfter(afterSeq, box)) {
    if (ownSeqs.has(s.seq)) continue;
    const other = journal.getOperation(s.operationId);
    if (other === null) continue;
    const p = plans(other.planId);
    for (let off = 0; off < s.end - s.start; off++) {
      if (!getBit(s.written!, off)) continue;
      const i = s.start + off;
      const at = posKey(p.pos[i * 3]!, p.pos[i * 3 + 1]!, p.pos[i * 3 + 2]!);
      if (wanted.has(at)) found.add(at);
    }
  }
  const t = journal.touchesAfter(afterSeq, box);
  for (let i = 0; i < t.quads.length / 4; i++) {
    const key = posKey(t.quads[i * 4 + 1]!, t.quads[i * 4 + 2]!, t.quads[i * 4 + 3]!);
    if (wanted.has(key)) found.add(key);
  }
  return found;
}
