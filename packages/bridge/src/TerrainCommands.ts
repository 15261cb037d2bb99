import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ok, type Result } from "@mcb/blocks";
import type { OperationStatusView } from "@mcb/engine";
import { compileTerrain, heightPreviewPng, terrainTilePlan, type CompiledTerrain } from "@mcb/terrain";
import type { EmbeddedWorld } from "./EmbeddedWorld.js";
import { loadRecipeFile, readRecipeFile } from "./RecipeCommand.js";

export interface PreviewSummary {
  readonly terrain_id: string;
  readonly width: number;
  readonly length: number;
  readonly stats: CompiledTerrain["stats"];
  readonly tiles: CompiledTerrain["tiles"];
  readonly floor: number;
  readonly ceiling: number;
  readonly output: string;
}

/** `mcb terrain preview`: evaluates a terrain recipe and writes the heightmap PNG. Reads and writes no world. */
export async function previewTerrainFile(recipePath: string, outPath: string, resolution?: number): Promise<Result<PreviewSummary>> {
  const loaded = await loadRecipeFile(recipePath);
  if (!loaded.ok) return loaded;
  const t = compileTerrain(loaded.value.registry, loaded.value.value);
  if (!t.ok) return t;
  await writeFile(outPath, heightPreviewPng(t.value.field, { ...(resolution === undefined ? {} : { resolution }), tileSize: t.value.tiles.size }));
  const { field } = t.value;
  return ok({ terrain_id: t.value.terrainId, width: field.width, length: field.length, stats: t.value.stats, tiles: t.value.tiles, floor: t.value.floor, ceiling: t.value.ceiling, output: outPath });
}

type TileState = "applying" | "applied" | "empty" | "conflict" | "cancelled" | "failed" | "recovery_required";

interface TileEntry {
  state: TileState;
  attempt: number;
  key?: string;
  plan_id?: string;
  plan_hash?: string;
  operation_id?: string;
  written?: number;
}

interface BatchFile {
  terrain_id: string;
  tiles: number;
  entries: Record<string, TileEntry>;
}

export interface BatchSummary {
  readonly terrain_id: string;
  readonly tiles: number;
  readonly applied: number;
  readonly empty: number;
  readonly unfinished: number;
  readonly written_blocks: number;
  readonly skipped_done: number;
  readonly progress_file: string;
}

export type ProgressSink = (done: number, total: number, line: string) => void;

const TERMINAL = new Set(["applied", "conflict", "cancelled", "failed", "recovery_required"]);

/**
 * `mcb terrain batch`: prepares and applies every tile in order on the embedded world. Progress is
 * saved to `terrain/<terrain_id>.json` before each apply (plan, hash, idempotency key), so a rerun
 * resumes: finished tiles are skipped, an interrupted apply is re-sent with the same key (the
 * engine returns the same operation), an expired or conflicting tile is prepared again from the
 * live world. `maxTiles` stops after that many tiles this run.
 */
export async function runTerrainBatch(w: EmbeddedWorld, recipePath: string, progress: ProgressSink, maxTiles = Infinity): Promise<Result<BatchSummary>> {
  const value = await readRecipeFile(recipePath);
  if (!value.ok) return value;
  const t = compileTerrain(w.registry, value.value);
  if (!t.ok) return t;
  const dir = join(w.dir, "terrain");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${t.value.terrainId}.json`);
  let batch: BatchFile;
  try {
    batch = JSON.parse(readFileSync(file, "utf8")) as BatchFile;
  } catch {
    batch = { terrain_id: t.value.terrainId, tiles: t.value.tiles.count, entries: {} };
  }
  const save = () => {
    writeFileSync(`${file}.tmp`, `${JSON.stringify(batch, null, 1)}\n`);
    renameSync(`${file}.tmp`, file);
  };
  const total = t.value.tiles.count;
  let skippedDone = 0, ran = 0;
  const finished = () => Object.values(batch.entries).filter((e) => e.state === "applied" || e.state === "empty").length;
  for (let i = 0; i < total && ran < maxTiles; i++) {
    const entry = batch.entries[i];
    if (entry !== undefined && (entry.state === "applied" || entry.state === "empty")) {
      skippedDone++;
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
      const tile = terrainTilePlan(w.registry, t.value, i);
      if (!tile.ok) return tile;
      const prepared = await w.engine.buildPrepare(w.ctx, { plan: tile.value.plan });
      if (!prepared.ok) return prepared;
      if (prepared.value.changed_blocks === 0) {
        batch.entries[i] = { state: "empty", attempt };
        save();
        progress(finished(), total, `tile ${i}: nothing to change`);
        continue;
      }
      const key = `terrain-${t.value.terrainId}-${i}-${attempt}`;
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
    batch.entries[i] = { ...cur, state: op.status as TileState, operation_id: op.operation_id, written: op.counters.written };
    save();
    progress(finished(), total, `tile ${i}: ${op.status}, ${op.counters.written} blocks written${op.counters.conflicts > 0 ? `, ${op.counters.conflicts} conflicts` : ""}`);
  }
  const entries = Object.values(batch.entries);
  return ok({
    terrain_id: t.value.terrainId,
    tiles: total,
    applied: entries.filter((e) => e.state === "applied").length,
    empty: entries.filter((e) => e.state === "empty").length,
    unfinished: total - finished(),
    written_blocks: entries.reduce((s, e) => s + (e.written ?? 0), 0),
    skipped_done: skippedDone,
    progress_file: file,
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
