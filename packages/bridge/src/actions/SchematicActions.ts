import { blockEntityPredicate, type BlockRegistry, type QuarterTurns, type Result } from "@mcb/blocks";
import type { Engine, PrepareView, RequestContext, Vec3, WorldAdapter } from "@mcb/engine";
import { schematicFromRegion, schematicToPlan, type AssetInfo, type Schematic, type SchematicLibrary } from "@mcb/schematic";

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
}

export function assetView(a: AssetInfo): AssetView {
  return { asset_id: a.assetId, name: a.name, width: a.width, height: a.height, length: a.length, block_count: a.blockCount, data_version: a.dataVersion, offset: a.offset, sha256: a.sha256, bytes: a.bytes };
}

export interface SchematicDeps {
  readonly engine: Engine;
  readonly ctx: RequestContext;
  readonly registry: BlockRegistry;
  readonly world: Pick<WorldAdapter, "info">;
  readonly library: SchematicLibrary;
}

/**
 * Saves the dense region min..max (air included) as library asset `name`, anchored at `origin`
 * (default min): one read under region_inspect's checks (scope, area, ≤ 4096 positions), block
 * entities with their data (refused rather than lost where the world cannot give it); an existing
 * asset is never replaced.
 * Shared by schematic_export and `mcb schem export`.
 */
export async function exportRegionAsset(d: SchematicDeps, name: string, min: Vec3, max: Vec3, origin?: Vec3): Promise<Result<AssetInfo>> {
  const read = await d.engine.regionBlocks(d.ctx, { min, max, entityData: true });
  if (!read.ok) return read;
  const { box } = read.value;
  const info = await d.world.info();
  const s = schematicFromRegion({
    region: read.value,
    ...(read.value.entityData === undefined ? {} : { entityData: read.value.entityData }),
    origin: origin ?? { x: box.minX, y: box.minY, z: box.minZ },
    dataVersion: info.dataVersion,
    hasBlockEntity: blockEntityPredicate(d.registry),
    name,
  });
  return s.ok ? d.library.save(name, s.value) : s;
}

/**
 * A normal checked plan pasting `schematic` with its anchor at `target`, turned clockwise (seen
 * from above) by `rotation` degrees; air in the schematic is part of the plan. Shared by
 * schematic_import_prepare and `mcb schem import`.
 */
export async function preparePaste(d: Pick<SchematicDeps, "engine" | "ctx" | "registry">, schematic: Schematic, target: Vec3, rotation: 0 | 90 | 180 | 270 = 0): Promise<Result<PrepareView>> {
  const plan = schematicToPlan(d.registry, schematic, { target, turns: (rotation / 90) as QuarterTurns });
  if (!plan.ok) return plan;
  return d.engine.buildPrepare(d.ctx, { plan: plan.value });
}
