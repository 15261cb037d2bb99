import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ok, type Result } from "@mcb/blocks";
import type { OperationStatusView } from "@mcb/engine";
import type { Plan } from "@mcb/recipe";
import type { EmbeddedWorld } from "./EmbeddedWorld.js";

type TileState = "applying" | "applied" | "empty" | "conflict" | "cancelled" | "failed" | "recovery_required";

interface TileEntry {
  state: TileState;
  attempt: number;
  key?: string;
  plan_id?: string;
  plan_hash?: string;
  operation_id?: string;
  written?: number;
  conflicts?: number;
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
  /**
   * Whether a tile that ended in conflict is prepared again from the live world on a rerun (its
   * new plan writes over what changed). Terrain: yes (its filters keep builds). Pastes: only when asked.
   */
  readonly retryConflicts: boolean;
  /** Runs once when every tile is finished (applied or empty), with the applied operations in order. */
  readonly onComplete?: (operationIds: string[]) => Promise<Result<Record<string, unknown>>>;
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
}

export type ProgressSink = (done: number, total: number, line: string) => void;

const TERMINAL = new Set(["applied", "conflict", "cancelled", "failed", "recovery_required"]);

/**
 * Prepares and applies every tile in order on the embedded world. Progress is saved before each
 * apply (plan, hash, idempotency key), so a rerun resumes: finished tiles are skipped, an
 * interrupted apply is re-sent with the same key (the engine returns the same operation), an
 * expired tile is prepared again from the live world. `maxTiles` stops after that many tiles.
 */
export async function runBatch(w: EmbeddedWorld, spec: BatchSpec, progress: ProgressSink, maxTiles = Infinity): Promise<Result<BatchSummary>> {
  mkdirSync(dirname(spec.file), { recursive: true });
  let batch: BatchFile;
  try {
    const saved = JSON.parse(readFileSync(spec.file, "utf8")) as Partial<BatchFile>;
    batch = { id: spec.id, tiles: spec.total, entries: saved.entries ?? {}, ...(saved.completed === undefined ? {} : { completed: saved.completed }) };
  } catch {
    batch = { id: spec.id, tiles: spec.total, entries: {} };
  }
  const save = () => {
    writeFileSync(`${spec.file}.tmp`, `${JSON.stringify(batch, null, 1)}\n`);
    renameSync(`${spec.file}.tmp`, spec.file);
  };
  const total = spec.total;
  let skippedDone = 0, ran = 0;
  const finished = () => Object.values(batch.entries).filter((e) => e.state === "applied" || e.state === "empty").length;
  for (let i = 0; i < total && ran < maxTiles; i++) {
    const entry = batch.entries[i];
    if (entry !== undefined && (entry.state === "applied" || entry.state === "empty")) {
      skippedDone++;
      continue;
    }
    if (entry?.state === "conflict" && !spec.retryConflicts) {
      progress(finished(), total, `tile ${i}: left in conflict (${entry.conflicts ?? 0} blocks changed by someone else; --retry-conflicts prepares it again and writes over them)`);
      continue;
    }
    ran++;
    let op: OperationStatusView | null = null;
    if (entry?.state === "applying" && entry.plan_id && entry.plan_hash && entry.key) {
      const again = await w.engine.buildApply(w.ctx, { plan_id: entry.plan_id, plan_hash: entry.plan_hash, idempotency_key: entry.key });
      if (again.ok) op = again.value;
      else if (again.error.code === "recovery_required") return again;
    }
    if (op === null) {
      const attempt = (entry?.attempt ?? 0) + 1;
      const plan = spec.plan(i);
      if (!plan.ok) return plan;
      const prepared = await w.engine.buildPrepare(w.ctx, { plan: plan.value });
      if (!prepared.ok) return prepared;
      if (prepared.value.changed_blocks === 0) {
        batch.entries[i] = { state: "empty", attempt };
        save();
        progress(finished(), total, `tile ${i}: nothing to change`);
        continue;
      }
      const key = `${spec.keyPrefix}-${i}-${attempt}`;
      batch.entries[i] = { state: "applying", attempt, key, plan_id: prepared.value.plan_id, plan_hash: prepared.value.plan_hash };
      save(); // the key is durable before the write starts
      const applied = await w.engine.buildApply(w.ctx, { plan_id: prepared.value.plan_id, plan_hash: prepared.value.plan_hash, idempotency_key: key });
      if (!applied.ok) return applied;
      op = applied.value;
    }
    while (!TERMINAL.has(op.status)) {
      await new Promise((r) => setTimeout(r, 10));
      const s = await w.engine.operationStatus(w.ctx, { operation_id: op.operation_id });
      if (!s.ok) return s;
      op = s.value;
    }
    const cur = batch.entries[i]!;
    batch.entries[i] = { ...cur, state: op.status as TileState, operation_id: op.operation_id, written: op.counters.written, conflicts: op.counters.conflicts };
    save();
    progress(finished(), total, `tile ${i}: ${op.status}, ${op.counters.written} blocks written${op.counters.conflicts > 0 ? `, ${op.counters.conflicts} conflicts` : ""}`);
  }
  const entries = Object.entries(batch.entries).sort(([a], [b]) => Number(a) - Number(b)).map(([, e]) => e);
  const operationIds = entries.filter((e) => e.state === "applied" && e.operation_id !== undefined).map((e) => e.operation_id!);
  if (finished() === total && batch.completed === undefined && spec.onComplete !== undefined) {
    const done = await spec.onComplete(operationIds);
    if (!done.ok) return done;
    batch.completed = done.value;
    save();
  }
  return ok({
    tiles: total,
    applied: operationIds.length,
    empty: entries.filter((e) => e.state === "empty").length,
    conflicts: entries.filter((e) => e.state === "conflict").length,
    unfinished: total - finished(),
    written_blocks: entries.reduce((s, e) => s + (e.written ?? 0), 0),
    skipped_done: skippedDone,
    operation_ids: operationIds,
    ...(batch.completed === undefined ? {} : { completed: batch.completed }),
    progress_file: spec.file,
  });
}

/** A one-line progress bar for a terminal (carriage return) or a log (one line per tile). */
export function progressBar(stream: NodeJS.WriteStream): ProgressSink {
  return (done, total, line) => {
    const width = 24;
    const filled = Math.round((done / Math.max(1, total)) * width);
    const bar = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} tiles  ${line}`;
    stream.write(stream.isTTY ? `\r\x1b[2K${bar}${done === total ? "\n" : ""}` : `${bar}\n`);
  };
}
