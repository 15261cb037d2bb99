import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ok, type Result } from "@mcb/blocks";
import type { ManualEditPolicy } from "@mcb/engine";
import { compileTerrain, heightPreviewPng, terrainTilePlan, type CompiledTerrain } from "@mcb/terrain";
import { runBatch, type BatchSummary, type ProgressSink } from "./Batch.js";
import type { Workspace } from "../world/Workspace.js";

export type { ProgressSink } from "./Batch.js";
import { loadRecipeFile, readRecipeFile } from "./RecipeFiles.js";

export interface PreviewSummary {
  readonly terrain_id: string;
  readonly width: number;
  readonly length: number;
  readonly stats: CompiledTerrain["stats"];
  readonly tiles: CompiledTerrain["tiles"];
  readonly floor: number;
  readonly ceiling: number;
  readonly output: string;
  /** The image's size: the resolution asked for is a maximum (one pixel per column at most). */
  readonly image: { readonly width: number; readonly height: number };
}

/** `mcb terrain preview`: evaluates a terrain recipe and writes the heightmap PNG. Reads and writes no world. */
export async function previewTerrainFile(recipePath: string, outPath: string, resolution?: number): Promise<Result<PreviewSummary>> {
  const loaded = await loadRecipeFile(recipePath);
  if (!loaded.ok) return loaded;
  const t = compileTerrain(loaded.value.registry, loaded.value.value);
  if (!t.ok) return t;
  const png = heightPreviewPng(t.value.field, { ...(resolution === undefined ? {} : { resolution }), tileSize: t.value.tiles.size });
  await writeFile(outPath, png);
  const { field } = t.value;
  const image = { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  return ok({
    terrain_id: t.value.terrainId,
    width: field.width,
    length: field.length,
    stats: t.value.stats,
    tiles: t.value.tiles,
    floor: t.value.floor,
    ceiling: t.value.ceiling,
    output: outPath,
    image,
  });
}

export interface TerrainBatchSummary extends Omit<BatchSummary, "completed" | "operation_ids"> {
  readonly terrain_id: string;
}

/**
 * `mcb terrain batch`: prepares and applies every tile in order on the embedded world (see
 * `runBatch`), progress in `terrain/<terrain_id>.json`. A tile that ended in conflict is prepared
 * again from the live world on a rerun: terrain changes natural blocks only, so builds stay.
 */
export async function runTerrainBatch(
  w: Workspace,
  recipePath: string,
  progress: ProgressSink,
  maxTiles = Infinity,
  onManualEdit?: ManualEditPolicy,
): Promise<Result<TerrainBatchSummary>> {
  const value = await readRecipeFile(recipePath);
  if (!value.ok) return value;
  const t = compileTerrain(w.registry, value.value);
  if (!t.ok) return t;
  const terrain = t.value;
  const r = await runBatch(
    w,
    {
      id: terrain.terrainId,
      file: join(w.dir, "terrain", `${terrain.terrainId}.json`),
      total: terrain.tiles.count,
      keyPrefix: `terrain-${terrain.terrainId}`,
      plan: (i) => {
        const tile = terrainTilePlan(w.registry, terrain, i);
        return tile.ok ? ok(tile.value.plan) : tile;
      },
      retryConflicts: true,
      origin: "terrain",
      ...(onManualEdit === undefined ? {} : { onManualEdit }),
    },
    progress,
    maxTiles,
  );
  if (!r.ok) return r;
  const { operation_ids: _ids, completed: _c, ...rest } = r.value;
  return ok({ terrain_id: terrain.terrainId, ...rest });
}
