import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ok, type Result } from "@mcb/blocks";
import type { ManualEditPolicy } from "@mcb/engine";
import { batchProgress, cancellable, partOnComplete, runBatch, type BatchHost, type BatchSpec } from "./Batch.js";
import { writeJsonAtomic } from "../world/JsonFile.js";
import type { JobProgressSink } from "./JobProgress.js";

export interface BatchJobOptions {
  /** Name every block the tiles write as one part when the last tile is done. */
  readonly partName?: string;
  readonly onManualEdit?: ManualEditPolicy;
}

/** A background batch as a tool reports it. */
export interface BatchJobStatus {
  readonly id: string;
  /** running, done (every tile applied or empty), stopped (tiles left: in conflict, or a signal), failed (error). */
  readonly state: "running" | "done" | "stopped" | "failed";
  readonly tiles: { readonly total: number; readonly applied: number; readonly empty: number; readonly conflicts: number; readonly unfinished: number };
  readonly written_blocks: number;
  /** The tiles' operations so far, in tile order (operation_status shows each). */
  readonly operation_ids: readonly string[];
  readonly current_operation_id: string | null;
  readonly part: { readonly name: string; readonly part_id: string | null; readonly error: { readonly code: string; readonly message: string } | null } | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

/** What a batch job runs: the batch without its file (the jobs' directory names it by id). */
export type BatchJobSpec = Omit<BatchSpec, "file" | "onComplete" | "onManualEdit">;

/**
 * Batches of tiles run in the background for one-call tools (terrain_apply, schematic_paste), as
 * the CLI's `terrain batch` and `schem import` run them: the same progress file `<dir>/<id>.json`
 * and idempotency keys, so either resumes the other's work. One job per id per process; asking
 * again while it runs gives its progress; after a restart (or a stop) starting it again resumes.
 * With a part name, the blocks of every tile become one part at the end.
 */
export class BatchJobs {
  private readonly jobs = new Map<
    string,
    { running: boolean; cancelled: boolean; host: BatchHost; error: { code: string; message: string } | null; partName: string | null; total: number }
  >();

  /** `kind` and `onProgress`: who watches these jobs (the chat's progress lines) is told after each tile and at the end. */
  constructor(
    private readonly dir: string,
    private readonly kind: "paste" | "terrain" | "build" = "paste",
    private readonly onProgress: JobProgressSink = () => {},
  ) {}

  start(host: BatchHost, spec: BatchJobSpec, options: BatchJobOptions): void {
    const id = spec.id;
    const prior = this.jobs.get(id);
    if (prior?.running === true) return;
    const job = {
      running: true,
      cancelled: false,
      host,
      error: null as { code: string; message: string } | null,
      partName: options.partName ?? prior?.partName ?? this.savedName(id),
      total: spec.total,
    };
    this.jobs.set(id, job);
    if (options.partName !== undefined) this.saveName(id, options.partName); // a resumed batch names the part too
    const name = job.partName;
    // The process's stop (Ctrl-C) or this job's cancel: no new tile starts.
    void runBatch(
      cancellable(host, () => job.cancelled),
      {
        ...spec,
        file: this.file(id),
        ...(options.onManualEdit === undefined ? {} : { onManualEdit: options.onManualEdit }),
        ...(name === null
          ? {}
          : {
              // The part named as the CLI names it (the same record in the shared progress file); a
              // refusal is kept in the record instead of failing the job.
              onComplete: async (operationIds: string[]): Promise<Result<Record<string, unknown>>> => {
                if (operationIds.length === 0)
                  return ok({ part_name: name, part_error: { code: "not_named", message: "no tile wrote a block: no part named" } });
                const part = await partOnComplete(host, name)(operationIds);
                return part.ok ? part : ok({ part_name: name, part_error: { code: part.error.code, message: part.error.message } });
              },
            }),
      },
      (done, total, _line, written) => this.onProgress({ kind: this.kind, id, done, total, blocks: written, state: "running" }),
    )
      .then(
        (r) => {
          job.running = false;
          if (!r.ok) job.error = { code: r.error.code, message: r.error.message };
        },
        (e: unknown) => {
          job.running = false;
          job.error = { code: "internal", message: e instanceof Error ? e.message : String(e) };
        },
      )
      .then(() => {
        const s = this.status(id)!;
        this.onProgress({ kind: this.kind, id, done: s.tiles.applied + s.tiles.empty, total: s.tiles.total, blocks: s.written_blocks, state: s.state });
      });
  }

  /** Progress from the job and its file; null when this id never ran here. */
  status(id: string): BatchJobStatus | null {
    const job = this.jobs.get(id);
    const p = batchProgress(this.file(id));
    if (p === null && job === undefined) return null;
    const total = p?.tiles ?? job?.total ?? 0; // before its file is first written, the job knows its tiles
    const finished = (p?.applied ?? 0) + (p?.empty ?? 0);
    const c = p?.completed as { part_name?: string; part_id?: string; part_error?: { code: string; message: string } } | undefined;
    const name = c?.part_name ?? job?.partName ?? this.savedName(id);
    return {
      id,
      state: job?.running === true ? "running" : job?.error != null ? "failed" : total > 0 && finished === total ? "done" : "stopped",
      tiles: { total, applied: p?.applied ?? 0, empty: p?.empty ?? 0, conflicts: p?.conflicts ?? 0, unfinished: total - finished },
      written_blocks: p?.written ?? 0,
      operation_ids: p?.operationIds ?? [],
      current_operation_id: job?.running === true ? (p?.current ?? null) : null,
      part: name === null ? null : { name, part_id: c?.part_id ?? null, error: c?.part_error ?? null },
      error: job?.error == null ? null : { code: job.error.code, message: job.error.message },
    };
  }

  /**
   * Stops a running job: its current tile's operation is cancelled after its slice (written
   * slices stay, undoable) and no new tile starts; starting it again resumes. False when it is not running.
   */
  async cancel(id: string): Promise<boolean> {
    const job = this.jobs.get(id);
    if (job?.running !== true) return false;
    job.cancelled = true;
    const current = batchProgress(this.file(id))?.current ?? null;
    if (current !== null) await job.host.engine.operationCancel(job.host.ctx, { operation_id: current });
    return true;
  }

  running(id: string): boolean {
    return this.jobs.get(id)?.running === true;
  }

  private file(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  private savedName(id: string): string | null {
    try {
      return (JSON.parse(readFileSync(join(this.dir, `${id}.part.json`), "utf8")) as { part_name: string }).part_name;
    } catch {
      return null;
    }
  }

  private saveName(id: string, name: string): void {
    writeJsonAtomic(join(this.dir, `${id}.part.json`), { part_name: name }, { mode: 0o644, indent: 0 });
  }
}
