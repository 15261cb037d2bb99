import { existsSync } from "node:fs";
import { join } from "node:path";
import { ok, type Result } from "@mcb/blocks";
import { batchProgress, type BatchHost, type ProgressSink } from "./Batch.js";
import { applyAndWait, type WriteOptions } from "./BuildJobs.js";

/** What undoing a batch did. */
export interface BatchUndoReport {
  readonly batch_id: string;
  /** Operations of the batch that wrote blocks, and how many of them were undone now. */
  readonly operations: number;
  readonly undone: number;
  /** Already undone before (a rerun), or with nothing of ours left to restore. */
  readonly skipped: number;
  readonly restored_blocks: number;
  /** Blocks changed since (by people, or uncertain after a crash): left as they are. */
  readonly left_as_they_are: number;
  readonly undo_operation_ids: readonly string[];
}

/** Where each kind of batch keeps its progress files in a state: pastes, terrain, big builds. */
const BATCH_DIRS: Readonly<Record<string, string>> = { p: "batches", t: "terrain", b: "builds" };

/** The progress file of a paste (`p_…`), terrain (`t_…`) or big build (`b_…`) batch in this state, or null. */
export function batchFile(dir: string, id: string): string | null {
  if (!/^[ptb]_[0-9a-f]{16,64}$/.test(id)) return null;
  const file = join(dir, BATCH_DIRS[id[0]!]!, `${id}.json`);
  return existsSync(file) ? file : null;
}

/**
 * `mcb undo <paste_id | terrain_id | build_id>`: every operation of a batch undone, newest first, each as a
 * checked undo plan (never over a person's edit: those blocks are left and counted), with one
 * progress bar (and `batch_undo` over MCP, in the background). Idempotent: a rerun skips what is
 * already undone and finishes the rest.
 */
export async function undoBatch(
  w: BatchHost,
  id: string,
  file: string,
  progress: ProgressSink,
  options: Pick<WriteOptions, "waitSaved"> = {},
): Promise<Result<BatchUndoReport>> {
  const p = batchProgress(file);
  const ops = [...(p?.allOperationIds ?? [])].reverse();
  w.log(`mcb: undoing ${ops.length} operation(s) of ${id}, newest first; Ctrl-C stops after the current slice, and running the same command again goes on`);
  let undone = 0,
    skipped = 0,
    restored = 0,
    left = 0;
  const undoIds: string[] = [];
  for (const [k, operationId] of ops.entries()) {
    const before = await w.engine.operationStatus(w.ctx, { operation_id: operationId });
    if (!before.ok) return before;
    if (before.value.undone_by !== null || !before.value.undoable) {
      skipped++;
      progress(k + 1, ops.length, `${operationId}: nothing to undo`, restored);
      continue;
    }
    const plan = await w.engine.operationUndoPrepare(w.ctx, { operation_id: operationId });
    if (!plan.ok) return plan;
    left += plan.value.conflicts.count + plan.value.uncertain_blocks;
    if (plan.value.changed_blocks === 0) {
      skipped++;
      progress(k + 1, ops.length, `${operationId}: nothing of ours left to restore`, restored);
      continue;
    }
    const op = await applyAndWait(w, plan.value, `undo-${id}-${operationId}`, { ...options, quiet: true });
    if (!op.ok) return op;
    if (op.value === null) break; // interrupted (Ctrl-C): a rerun goes on
    const done = op.value;
    undoIds.push(done.operation_id);
    restored += done.counters.written;
    undone++;
    progress(k + 1, ops.length, `${operationId}: ${done.status}, ${done.counters.written} blocks restored`, restored);
    if (done.status !== "applied") break; // a conflict or a stop: the rest waits for a rerun
  }
  return ok({
    batch_id: id,
    operations: ops.length,
    undone,
    skipped,
    restored_blocks: restored,
    left_as_they_are: left,
    undo_operation_ids: undoIds,
  });
}
