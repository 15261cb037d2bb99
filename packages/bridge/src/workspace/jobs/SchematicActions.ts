import { type BlockRegistry, boxJson, fail, mcbError, ok, type QuarterTurns, type Result, type Vec3 } from "@mcb/blocks";
import type { BuildPrepareInput, Engine, PrepareView, RequestContext, WorldAdapter } from "@mcb/engine";
import { SchematicPaste, type AssetInfo, type LossReport, type Schematic, type SchematicFormat, type SchematicLibrary } from "@mcb/schematic";

/** An asset on the wire (snake_case like every answer), for MCP and the CLI's --json alike. */
export interface AssetView {
  readonly asset_id: string;
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly length: number;
  readonly block_count: number;
  readonly data_version: number;
  readonly offset: Vec3;
  readonly sha256: string;
  readonly bytes: number;
  readonly format: SchematicFormat;
  readonly block_entities: number;
  /** What an import would lose (entities, biomes, …): name the categories in `drop` to accept it. */
  readonly loss: LossReport;
  readonly source_data_version: number;
  readonly notes: readonly string[];
}

export function assetView(a: AssetInfo): AssetView {
  return {
    asset_id: a.assetId,
    name: a.name,
    width: a.width,
    height: a.height,
    length: a.length,
    block_count: a.blockCount,
    data_version: a.dataVersion,
    offset: a.offset,
    sha256: a.sha256,
    bytes: a.bytes,
    format: a.format,
    block_entities: a.blockEntities,
    loss: a.loss,
    source_data_version: a.sourceDataVersion,
    notes: a.notes,
  };
}

export interface SchematicDeps {
  readonly engine: Engine;
  readonly ctx: RequestContext;
  readonly registry: BlockRegistry;
  readonly world: Pick<WorldAdapter, "info">;
  readonly library: SchematicLibrary;
}

export type Rotation = 0 | 90 | 180 | 270;

/** Where a prepared paste tile sits in its paste. */
export interface TileView {
  readonly tile_index: number;
  readonly tiles: { readonly count: number; readonly tile_blocks: number };
  readonly tile_bounds: { readonly min: Vec3; readonly max: Vec3 };
  /** Where the whole paste lands: the schematic's block 0 0 0 at target + offset (turned), to its far corner. */
  readonly paste_bounds: { readonly min: Vec3; readonly max: Vec3 };
}

/** A turned, placed schematic cut into tiles (see `SchematicPaste`). */
export function pasteOf(registry: BlockRegistry, schematic: Schematic, target: Vec3, rotation: Rotation = 0, skipAir = false): SchematicPaste {
  return new SchematicPaste(registry, schematic, target, (rotation / 90) as QuarterTurns, undefined, skipAir);
}

/**
 * A normal checked plan for tile `tileIndex` of a paste (a paste of ≤ 100,000 positions has one
 * tile, 0, the default). Without a tile index, a paste of several tiles is refused with their count
 * (budget_exceeded, reason tiles). Shared by schematic_import_prepare and `mcb schem import`.
 */
export async function preparePasteTile(
  d: Pick<SchematicDeps, "engine" | "ctx">,
  paste: SchematicPaste,
  tileIndex?: number,
  resolution: Pick<BuildPrepareInput, "on_manual_edit" | "replace"> = {},
): Promise<Result<PrepareView & TileView>> {
  if (tileIndex === undefined && paste.count > 1)
    return fail(
      mcbError(
        "budget_exceeded",
        `the paste has more than ${paste.tileBlocks} positions: prepare it tile by tile (tile_index 0..${paste.count - 1}, bottom up), then part_define with every tile's operation_ids makes it one part`,
        {
          reason: "tiles",
          tiles: paste.count,
          tile_blocks: paste.tileBlocks,
        },
      ),
    );
  const tile = paste.tile(tileIndex ?? 0);
  if (!tile.ok) return tile;
  const r = await d.engine.buildPrepare(d.ctx, { plan: tile.value.plan, origin: "import", ...resolution });
  if (!r.ok) return r;
  return ok({
    ...r.value,
    tile_index: tile.value.index,
    tiles: { count: paste.count, tile_blocks: paste.tileBlocks },
    tile_bounds: boxJson(tile.value.bounds),
    paste_bounds: boxJson(paste.box()),
  });
}
