import { mkdirSync, readFileSync } from "node:fs";
import { writeJsonAtomic } from "../world/JsonFile.js";
import { dirname } from "node:path";
import { ok, type Result } from "@mcb/blocks";
import { isSettled, type ManualEditPolicy, type OperationStatus, type OperationStatusView, type PlanOrigin } from "@mcb/engine";
import type { Plan } from "@mcb/recipe";
import type { Workspace } from "../world/Workspace.js";

/** What a batch needs of its front end: the engine and caller, a stop signal (Ctrl-C) and a log. */
export type BatchHost = Pick<Workspace, "engine" | "ctx" | "log"> & { readonly interrupt: { readonly requested: boolean; add(operationId: string): void } };

/** A tile: "empty" when it had nothing to change, else the state of its operation. */
type TileState = Exclude<OperationStatus, "queued"> | "empty";

interface TileEntry {
  state: TileState;
  attempt: number;
  key?: string;
  plan_id?: string;
  plan_hash?: string;
  operation_id?: string;
  written?: number;
  conflicts?: number;
  /** Earlier attempts at this tile that wrote blocks before they stopped (cancelled, conflict): part of the paste too. */
  earlier?: string[];
  /** Blocks those earlier attempts wrote (the tile's `written` counts its last attempt only). */
  earlier_written?: number;
}

interface BatchFile {
  id: string;
  tiles: number;
  entries: Record<string, TileEntry>;
  /** What `onComplete` returned, once every tile was finished. */
  completed?: Record<string, unknown>;
}

/** One batch: a sequence of tile plans applied in order as separate checked operations. */
export interface BatchSpec {
  /** Content-addressed id: the same work always has the same id (and progress file). */
  readonly id: string;
  /** Progress file (JSON), written before each apply. */
  readonly file: string;
  readonly total: number;
  /** Idempotency keys are `${keyPrefix}-${tile}-${attempt}`. */
  readonly keyPrefix: string;
  readonly plan: (tile: number) => Result<Plan>;
  /** The operations' kind (operation_list); none: builds. */
  readonly origin?: Extract<PlanOrigin, "terrain" | "import">;
  /**
   * Whether a tile that ended in conflict is prepared again from the live world on a rerun (the
   * three-way merge still keeps or refuses people's edits there). Terrain: yes. Pastes: only when asked.
   */
  readonly retryConflicts: boolean;
  /** Runs once when every tile is finished (applied or empty), with every operation that wrote its blocks, in order. */
  readonly onComplete?: (operationIds: string[]) => Promise<Result<Record<string, unknown>>>;
  /** How each tile meets people's edits (default refuse: such a tile is left in conflict, the rest go on). */
  readonly onManualEdit?: ManualEditPolicy;
}

export interface BatchSummary {
  readonly tiles: number;
  readonly applied: number;
  readonly empty: number;
  /** Tiles that ended in conflict and were left as they are (see `retryConflicts`). */
  readonly conflicts: number;
  readonly unfinished: number;
  readonly written_blocks: number;
  readonly skipped_done: number;
  readonly operation_ids: string[];
  readonly completed?: Record<string, unknown>;
  readonly progress_file: string;
  /** A signal stopped the batch: the current tile's operation was cancelled after its slice, no new tile started. */
  readonly interrupted: boolean;
}

/** Told after each tile: finished tiles of `total`, the blocks written by every finished tile, and what happened. */
export type ProgressSink = (done: number, total: number, line: string, written: number) => void;

/** A batch's progress as its file records it (for a status read while it runs or after a restart). */
export function batchProgress(file: string): {
  tiles: number;
  applied: number;
  empty: number;
  conflicts: number;
  written: number;
  operationIds: string[];
  /** Every operation that may have written blocks of the batch, tile by tile, earlier stopped attempts first. */
  allOperationIds: string[];
  current: string | null;
  completed?: Record<string, unknown>;
} | null {
  let b: BatchFile;
  try {
    b = JSON.parse(readFileSync(file, "utf8")) as BatchFile;
  } catch {
    return null;
  }
  const entries = Object.entries(b.entries)
    .sort(([a], [c]) => Number(a) - Number(c))
    .map(([, e]) => e);
  return {
    tiles: b.tiles,
    applied: entries.filter((e) => e.state === "applied").length,
    empty: entries.filter((e) => e.state === "empty").length,
    conflicts: entries.filter((e) => e.state === "conflict").length,
    written: entries.reduce((s, e) => s + writtenBy(e), 0),
    operationIds: entries.filter((e) => e.operation_id !== undefined).map((e) => e.operation_id!),
    allOperationIds: entries.flatMap((e) => [...(e.earlier ?? []), ...(e.operation_id === undefined ? [] : [e.operation_id])]),
    current: entries.find((e) => e.state === "applying")?.operation_id ?? null,
    ...(b.completed === undefined ? {} : { completed: b.completed }),
  };
}

/**
 * Prepares and applies every tile in order on the embedded world. Progress is saved before each
 * apply (plan, hash, idempotency key), so a rerun resumes: finished tiles are skipped, an
 * interrupted apply is re-sent with the same key (the engine returns the same operation), an
 * expired or cancelled tile is prepared again from the live world. A tile that would change blocks
 * people edited is left in conflict (unless `onManualEdit` keeps them) and the others go on. A
 * signal (Ctrl-C) cancels the current tile's operation after its slice and starts no more tiles;
 * so does a cancel of that operation from elsewhere (operation_cancel, `/ai stop`, a task's cancel).
 * `maxTiles` stops after that many tiles.
 */
export async function runBatch(w: BatchHost, spec: BatchSpec, progress: ProgressSink, maxTiles = Infinity): Promise<Result<BatchSummary>> {
  mkdirSync(dirname(spec.file), { recursive: true });
  const run = new BatchRun(w, spec, progress);
  w.log(`mcb: ${spec.total} tile(s); Ctrl-C stops after the current slice, and running the same command again resumes`);
  let ran = 0;
  for (let i = 0; i < spec.total && ran < maxTiles && !w.interrupt.requested; i++) {
    const r = await run.tile(i);
    if (!r.ok) return r;
    if (r.value === "cancelled") break; // someone cancelled the tile's operation (operation_cancel, /ai stop): the batch stops too
    if (r.value === "ran") ran++;
  }
  return run.summary();
}

/** A batch being run: its progress file's content and what this run did. */
class BatchRun {
  private readonly batch: BatchFile;
  private skippedDone = 0;

  constructor(
    private readonly w: BatchHost,
    private readonly spec: BatchSpec,
    private readonly progress: ProgressSink,
  ) {
    try {
      const saved = JSON.parse(readFileSync(spec.file, "utf8")) as Partial<BatchFile>;
      this.batch = { id: spec.id, tiles: spec.total, entries: saved.entries ?? {}, ...(saved.completed === undefined ? {} : { completed: saved.completed }) };
    } catch {
      this.batch = { id: spec.id, tiles: spec.total, entries: {} };
    }
  }

  private save(): void {
    writeJsonAtomic(this.spec.file, this.batch, { mode: 0o644, indent: 1 });
  }

  private finished(): number {
    return Object.values(this.batch.entries).filter((e) => e.state === "applied" || e.state === "empty").length;
  }

  private report(line: string): void {
    const written = Object.values(this.batch.entries).reduce((n, e) => n + writtenBy(e), 0);
    this.progress(this.finished(), this.spec.total, line, written);
  }

  /** Tile `i`: skipped when finished (or left in conflict), else prepared, applied and waited for. */
  async tile(i: number): Promise<Result<"skipped" | "ran" | "cancelled">> {
    const entry = this.batch.entries[i];
    if (entry !== undefined && (entry.state === "applied" || entry.state === "empty")) {
      this.skippedDone++;
      return ok("skipped");
    }
    if (entry?.state === "conflict" && !this.spec.retryConflicts) {
      this.report(
        `tile ${i}: left in conflict (${entry.conflicts ?? 0} blocks changed by someone else; --retry-conflicts prepares it again from the world as it is)`,
      );
      return ok("skipped");
    }
    let op: OperationStatusView | null = null;
    let current = entry;
    if (entry?.state === "applying" && entry.plan_id && entry.plan_hash && entry.key) {
      const again = await this.w.engine.buildApply(this.w.ctx, { plan_id: entry.plan_id, plan_hash: entry.plan_hash, idempotency_key: entry.key });
      if (again.ok && (again.value.status === "failed" || again.value.status === "cancelled")) {
        // It ended unfinished while nobody waited (an abandoned recovery, a cancel): the tile is
        // prepared again from the world as it is; what it wrote counts for the part.
        const v = again.value;
        const ended: TileEntry = { ...entry, state: v.status as TileState, operation_id: v.operation_id, written: v.counters.written };
        current = ended;
        this.batch.entries[i] = ended;
      } else if (again.ok) op = again.value;
      else if (again.error.code === "recovery_required") return again;
    }
    if (op === null) {
      const started = await this.start(i, current);
      if (!started.ok) return started;
      if (started.value === null) return ok("ran");
      op = started.value;
    }
    if (this.w.interrupt.requested) {
      await this.w.engine.operationCancel(this.w.ctx, { operation_id: op.operation_id });
      this.w.interrupt.add(op.operation_id);
    }
    while (!isSettled(op.status)) {
      await new Promise((r) => setTimeout(r, 10));
      const s = await this.w.engine.operationStatus(this.w.ctx, { operation_id: op.operation_id });
      if (!s.ok) return s;
      op = s.value;
    }
    const cur = this.batch.entries[i]!;
    this.batch.entries[i] = {
      ...cur,
      state: op.status as TileState,
      operation_id: op.operation_id,
      written: op.counters.written,
      conflicts: op.counters.conflicts,
    };
    this.save();
    const c = op.counters;
    this.report(`tile ${i}: ${op.status}, ${c.written} blocks written${c.conflicts > 0 ? `, ${c.conflicts} conflicts` : ""}`);
    return ok(op.status === "cancelled" ? "cancelled" : "ran");
  }

  /**
   * Prepares tile `i` from the live world and applies it under a new key (saved before the write
   * starts); null when the tile ends without an operation (nothing to change, or people's edits).
   */
  private async start(i: number, entry: TileEntry | undefined): Promise<Result<OperationStatusView | null>> {
    const { w, spec } = this;
    const attempt = (entry?.attempt ?? 0) + 1;
    const wrote = entry?.operation_id !== undefined && (entry.written ?? 0) > 0;
    const earlier = [...(entry?.earlier ?? []), ...(wrote ? [entry.operation_id!] : [])];
    const kept = earlier.length === 0 ? {} : { earlier, earlier_written: (entry?.earlier_written ?? 0) + (wrote ? entry.written! : 0) };
    const plan = spec.plan(i);
    if (!plan.ok) return plan;
    const prepared = await w.engine.buildPrepare(w.ctx, {
      plan: plan.value,
      ...(spec.origin === undefined ? {} : { origin: spec.origin }),
      ...(spec.onManualEdit === undefined ? {} : { on_manual_edit: spec.onManualEdit }),
    });
    if (!prepared.ok && prepared.error.code === "conflict" && prepared.error.details?.reason === "manual_edits") {
      // People changed blocks this tile would change: it is left as it is; the other tiles go on.
      const count = Number(prepared.error.details.count);
      this.batch.entries[i] = { state: "conflict", attempt, conflicts: count, ...kept };
      this.save();
      this.report(`tile ${i}: ${count} blocks changed by hand where the tile differs; left as it is (--on-manual-edit keep writes the rest of it)`);
      return ok(null);
    }
    if (!prepared.ok) return prepared;
    if (prepared.value.changed_blocks === 0) {
      this.batch.entries[i] = { state: "empty", attempt, ...kept };
      this.save();
      this.report(`tile ${i}: nothing to change`);
      return ok(null);
    }
    const key = `${spec.keyPrefix}-${i}-${attempt}`;
    const { plan_id, plan_hash } = prepared.value;
    this.batch.entries[i] = { state: "applying", attempt, key, plan_id, plan_hash, ...kept };
    this.save(); // the key is durable before the write starts
    const applied = await w.engine.buildApply(w.ctx, { plan_id, plan_hash, idempotency_key: key });
    if (!applied.ok) return applied;
    const op = applied.value;
    this.batch.entries[i] = { ...this.batch.entries[i]!, operation_id: op.operation_id };
    this.save(); // a status read sees the tile's operation while it runs
    this.report(`tile ${i}: ${op.operation_id} writes ${op.counters.total} blocks`);
    return ok(op);
  }

  /** What the batch did, once its loop ended; when every tile is finished, `onComplete` runs once. */
  async summary(): Promise<Result<BatchSummary>> {
    const { batch, spec } = this;
    const total = spec.total;
    const entries = Object.entries(batch.entries)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, e]) => e);
    const operationIds = entries.filter((e) => e.state === "applied" && e.operation_id !== undefined).map((e) => e.operation_id!);
    // Every operation that wrote blocks of the finished tiles, earlier stopped attempts first.
    const writers = entries
      .filter((e) => e.state === "applied" || e.state === "empty")
      .flatMap((e) => [...(e.earlier ?? []), ...(e.state === "applied" ? [e.operation_id!] : [])]);
    if (this.finished() === total && batch.completed === undefined && spec.onComplete !== undefined) {
      const done = await spec.onComplete(writers);
      if (!done.ok) return done;
      batch.completed = done.value;
      this.save();
    }
    return ok({
      tiles: total,
      applied: operationIds.length,
      empty: entries.filter((e) => e.state === "empty").length,
      conflicts: entries.filter((e) => e.state === "conflict").length,
      unfinished: total - this.finished(),
      written_blocks: entries.reduce((s, e) => s + writtenBy(e), 0),
      skipped_done: this.skippedDone,
      operation_ids: operationIds,
      ...(batch.completed === undefined ? {} : { completed: batch.completed }),
      progress_file: spec.file,
      interrupted: this.w.interrupt.requested,
    });
  }
}

/** The blocks a tile's attempts wrote, its earlier stopped ones included. */
function writtenBy(e: TileEntry): number {
  return (e.written ?? 0) + (e.earlier_written ?? 0);
}

/** `host` whose interrupt is also requested once `cancelled` says so (a background job's own cancel, beside the process's Ctrl-C). */
export function cancellable(host: BatchHost, cancelled: () => boolean): BatchHost {
  const interrupt = {
    get requested(): boolean {
      return host.interrupt.requested || cancelled();
    },
    add: (op: string) => host.interrupt.add(op),
  };
  return { ...host, interrupt };
}

/** A batch's `onComplete` that names every block its tiles wrote as one part `name` (none when no tile wrote a block). */
export function partOnComplete(w: BatchHost, name: string): NonNullable<BatchSpec["onComplete"]> {
  return async (operationIds) => {
    if (operationIds.length === 0) return ok({ part_id: null });
    const part = await w.engine.partDefine(w.ctx, { name, operation_ids: operationIds });
    return part.ok ? ok({ part_id: part.value.part_id, part_name: part.value.name, part_blocks: part.value.count }) : part;
  };
}
