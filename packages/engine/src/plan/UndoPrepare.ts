import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { ConflictSample, OperationRecord, OperationJournal, TouchJournal } from "../store/Journal.js";
import { hasEnded } from "../core/OperationStatus.js";
import { ownership } from "../merge/Ownership.js";
import type { PlanContent, PreparedPlan } from "../core/PreparedPlan.js";
import { WriteSetBuilder } from "./WriteSet.js";
import type { WorldAdapter, WorldInfo } from "../world/WorldAdapter.js";
import { readPositions } from "../world/WorldReader.js";
import { getBit } from "../core/BitMask.js";

export interface UndoContent {
  readonly content: PlanContent;
  /** Confirmed writes that will not be restored, and why. */
  readonly conflicts: { readonly count: number; readonly sample: readonly ConflictSample[] };
  /** Positions of slices never confirmed (an abandoned recovery's unfinished slice): not restored. */
  readonly uncertain: number;
}

/**
 * Builds the reverse plan of an operation (docs/DESIGN.md "Undo"): only blocks it actually wrote, only where
 * the world still holds our confirmed result (state and block-entity digest) and no later write
 * (ours or observed external, ABA included) touched the block. The result is a normal plan whose
 * base is our result, applied through build_apply with the usual checks.
 */
export async function prepareUndoContent(
  journal: OperationJournal & TouchJournal,
  adapter: WorldAdapter,
  plans: (planId: string) => PreparedPlan,
  op: OperationRecord,
  world: WorldInfo,
  sampleSize: number,
): Promise<Result<UndoContent>> {
  if (op.status === "recovery_required") return fail(mcbError("recovery_required", `operation ${op.operationId} awaits recovery review`));
  if (!hasEnded(op.status)) return fail(mcbError("busy", `operation ${op.operationId} is still ${op.status}`));
  if (op.undoneBy !== null)
    return fail(
      mcbError("invalid_request", `operation ${op.operationId} was already undone by ${op.undoneBy}; undo that operation to redo it`, {
        reason: "already_undone",
        undone_by: op.undoneBy,
      }),
    );
  if (!op.undoable)
    return fail(
      mcbError("invalid_request", `operation ${op.operationId} has uncertain history (abandoned by an earlier version of mcb); undo is unavailable`, {
        reason: "undo_unavailable",
      }),
    );
  const plan = plans(op.planId);
  if (plan.worldId !== world.worldId || plan.epoch !== world.epoch)
    return fail(mcbError("stale_snapshot", "the world was restored or replaced since this operation; its undo no longer applies", { reason: "epoch" }));
  const { owned, revoked } = ownership(journal, plans, op);
  const sample: ConflictSample[] = [];
  let count = 0;
  const conflict = (c: ConflictSample): void => {
    count++;
    if (sample.length < sampleSize) sample.push(c);
  };
  // One read of every confirmed write: the owned ones first, then the revoked ones.
  const all = new Int32Array((owned.length + revoked.length) * 3);
  [...owned, ...revoked].forEach((w, i) => ((all[i * 3] = w.x), (all[i * 3 + 1] = w.y), (all[i * 3 + 2] = w.z)));
  const now = await readPositions(adapter, all);
  revoked.forEach((w, i) =>
    conflict({
      pos: { x: w.x, y: w.y, z: w.z },
      kind: "write",
      expected: plan.states[plan.after[w.index]!]!,
      actual: now.states[owned.length + i]!,
      dataChanged: false,
    }),
  );
  const out = new WriteSetBuilder();
  owned.forEach((w, i) => {
    const ours = plan.states[plan.after[w.index]!]!;
    const c = now.states[i]!;
    const dc = now.digests[i]!;
    if (c !== ours || dc !== w.afterDigest) {
      conflict({ pos: { x: w.x, y: w.y, z: w.z }, kind: "write", expected: ours, actual: c, dataChanged: c === ours });
      return;
    }
    out.add(w.x, w.y, w.z, c, dc, plan.states[plan.before[w.index]!]!);
  });
  const content = out.build({
    projectId: op.projectId,
    kind: "undo",
    undoOf: op.operationId,
    partId: null,
    worldId: world.worldId,
    epoch: world.epoch,
    sourceHash: null,
    unchanged: 0,
    filtered: 0,
  });
  let uncertain = 0;
  for (const s of journal.slices(op.operationId))
    if (s.written === null) for (let off = 0; off < s.end - s.start; off++) if (getBit(s.intent, off)) uncertain++;
  return ok({ content, conflicts: { count, sample }, uncertain });
}
