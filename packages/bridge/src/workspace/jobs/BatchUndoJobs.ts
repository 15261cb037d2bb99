import { fail, mcbError, type Result } from "@mcb/blocks";
import { batchProgress, cancellable, type BatchHost } from "./Batch.js";
import { batchFile, undoBatch, type BatchUndoReport } from "./BatchUndo.js";
import type { JobProgressSink } from "./JobProgress.js";

/** A background batch undo as a tool reports it. */
export interface BatchUndoStatus {
  readonly batch_id: string;
  /** running; done (every operation undone or nothing left of ours); stopped (a conflict or a signal: ask again to go on); failed. */
  readonly state: "running" | "done" | "stopped" | "failed";
  /** Operations of the batch that wrote blocks, and how many of them this job has undone. */
  readonly operations: number;
  readonly undone: number;
  readonly restored_blocks: number;
  /** Blocks changed since (by people, or uncertain after a crash): left as they are. */
  readonly left_as_they_are: number;
  readonly undo_operation_ids: readonly string[];
  readonly error: { readonly code: string; readonly message: string } | null;
}

interface Job {
  running: boolean;
  cancelled: boolean;
  /** Operations looked at so far (undone, or nothing to undo). */
  checked: number;
  undone: number;
  operations: number;
  restored: number;
  report: BatchUndoReport | null;
  error: { code: string; message: string } | null;
}

/**
 * Undos of whole batches (a paste `p_…`, a terrain job `t_…`) run in the background for one MCP
 * call, as `mcb undo <id>` runs them: every operation of the batch, newest first, each a checked
 * undo (a person's later edits are left and counted). One job per id per process; asking again
 * while it runs gives its progress; starting it again after a stop goes on with what is left
 * (already undone operations are skipped).
 */
export class BatchUndoJobs {
  private readonly jobs = new Map<string, Job>();

  /** `dir`: the state directory, whose batches/ and terrain/ hold the batches' progress files. */
  constructor(
    private readonly dir: string,
    private readonly onProgress: JobProgressSink = () => {},
  ) {}

  /** Starts the undo of batch `id` unless it is running; not_found when this state has no such batch. */
  start(host: BatchHost, id: string, options: { readonly waitSaved: boolean }): Result<void> {
    const file = batchFile(this.dir, id);
    if (file === null)
      return fail(
        mcbError("not_found", `no paste, terrain job or big build ${JSON.stringify(id)} in this state (a paste_id is p_…, a terrain_id t_…, a build_id b_…)`, {
          reason: "unknown_batch",
        }),
      );
    if (this.jobs.get(id)?.running === true) return { ok: true, value: undefined };
    const job: Job = {
      running: true,
      cancelled: false,
      checked: 0,
      undone: 0,
      operations: batchProgress(file)?.allOperationIds.length ?? 0,
      restored: 0,
      report: null,
      error: null,
    };
    this.jobs.set(id, job);
    const progress = (done: number, total: number, _line: string, restored: number): void => {
      job.checked = done;
      if (restored > job.restored) job.undone++; // an undo that restored blocks (one that restored none was skipped)
      job.operations = total;
      job.restored = restored;
    };
    // The process's stop (Ctrl-C) or this job's cancel: no further operation is undone.
    void undoBatch(
      cancellable(host, () => job.cancelled),
      id,
      file,
      progress,
      { waitSaved: options.waitSaved },
    )
      .then(
        (r) => {
          job.running = false;
          if (r.ok) {
            job.report = r.value;
            job.operations = r.value.operations;
          } else job.error = { code: r.error.code, message: r.error.message };
        },
        (e: unknown) => {
          job.running = false;
          job.error = { code: "internal", message: e instanceof Error ? e.message : String(e) };
        },
      )
      .then(() => {
        const s = this.status(id)!;
        this.onProgress({ kind: "undo", id, done: job.checked, total: s.operations, blocks: s.restored_blocks, state: s.state });
      });
    return { ok: true, value: undefined };
  }

  /** The blocks batch `id` wrote (what its undo may restore at most), or null when this state has no such batch. */
  written(id: string): number | null {
    const file = batchFile(this.dir, id);
    return file === null ? null : (batchProgress(file)?.written ?? 0);
  }

  /** Stops a running undo after the operation it is undoing now; asking again goes on. False when it is not running. */
  cancel(id: string): boolean {
    const job = this.jobs.get(id);
    if (job?.running !== true) return false;
    job.cancelled = true;
    return true;
  }

  running(id: string): boolean {
    return this.jobs.get(id)?.running === true;
  }

  /** The job's progress, or null when it never ran in this process. */
  status(id: string): BatchUndoStatus | null {
    const job = this.jobs.get(id);
    if (job === undefined) return null;
    const r = job.report;
    const finished = r !== null && r.undone + r.skipped === r.operations;
    return {
      batch_id: id,
      state: job.running ? "running" : job.error !== null ? "failed" : finished ? "done" : "stopped",
      operations: job.operations,
      undone: r?.undone ?? job.undone,
      restored_blocks: r?.restored_blocks ?? job.restored,
      left_as_they_are: r?.left_as_they_are ?? 0,
      undo_operation_ids: r?.undo_operation_ids ?? [],
      error: job.error,
    };
  }
}
