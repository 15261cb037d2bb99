import { copyFileSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { blockEntityType, fail, mcbError, ok, type Result, type Vec3 } from "@mcb/blocks";
import { regionOf, type RegionSlab } from "@mcb/engine";
import { SpongeStream, missingEntities, regionEntities, type AssetInfo } from "@mcb/schematic";
import type { SchematicDeps } from "./SchematicActions.js";

/** Where an export also goes besides the library: a file in Sponge v3 or v2. */
export interface ExportCopy {
  readonly path: string;
  readonly version: 2 | 3;
}

/**
 * Saves the dense region min..max (air included) as library asset `name`, anchored at `origin`
 * (default min), streamed: up to the library's read limit of positions (20,000,000 by default),
 * read slab by slab (`Engine.regionSlabs`: the project's scope and area) and written as it is
 * read, so memory stays bounded by the palette and one slab whatever the size. Block entities
 * come with their data (refused rather than lost where the world cannot give it; left out, and
 * said so, in chunks of an older game, whose data only the game can upgrade). The palette and
 * block entities are held to the library's limits too. An existing asset is never replaced; with
 * `copy`, the same schematic is also written to that file (v3 copied, v2 written from the same
 * stream). Shared by schematic_export and `mcb schem export`.
 */
export async function exportRegionAsset(d: SchematicDeps, name: string, min: Vec3, max: Vec3, origin?: Vec3, copy?: ExportCopy): Promise<Result<AssetInfo>> {
  const region = regionOf(min, max);
  if (!region.ok) return region;
  const limits = d.library.limitsFor({});
  if (!limits.ok) return limits;
  const reserved = d.library.reserve(name);
  if (!reserved.ok) return reserved;
  const box = region.value;
  const anchor = origin ?? { x: box.minX, y: box.minY, z: box.minZ };
  const info = await d.world.info();
  const v2 = copy?.version === 2 ? join(dirname(copy.path), `.${basename(copy.path)}.${process.pid}.tmp`) : undefined;
  const header = {
    width: box.maxX - box.minX + 1,
    height: box.maxY - box.minY + 1,
    length: box.maxZ - box.minZ + 1,
    offset: { x: box.minX - anchor.x, y: box.minY - anchor.y, z: box.minZ - anchor.z },
    dataVersion: info.dataVersion,
    name,
  };
  let stream: SpongeStream | null = null;
  try {
    stream = new SpongeStream(header, reserved.value.scratch, v2 !== undefined);
    const s = stream;
    const typeOf = blockEntityType(d.registry);
    let leftOut = 0;
    const walked = await d.engine.regionSlabs(d.ctx, { min, max, maxPositions: limits.value.maxPositions }, (slab) => {
      s.blocks(slab.palette, slab.states);
      if (s.totals.paletteSize > limits.value.maxPaletteEntries)
        return fail(
          mcbError("budget_exceeded", `the region holds more than ${limits.value.maxPaletteEntries} distinct states`, {
            reason: "palette",
            limit: limits.value.maxPaletteEntries,
          }),
        );
      const stale = staleChunks(slab);
      const found = regionEntities(slab, slab.entityData, typeOf, (i) => {
        const out = stale.has(chunkOf(slab, i));
        if (out) leftOut++;
        return out;
      });
      if (found.missing.count > 0) return fail(missingEntities(found.missing));
      for (const e of found.entities)
        s.blockEntity(e.x + slab.box.minX - box.minX, e.y + slab.box.minY - box.minY, e.z + slab.box.minZ - box.minZ, e.id, e.data);
      if (s.totals.blockEntities > limits.value.maxBlockEntities)
        return fail(
          mcbError("budget_exceeded", `the region holds more than ${limits.value.maxBlockEntities} block entities`, {
            reason: "block_entities",
            limit: limits.value.maxBlockEntities,
          }),
        );
      return ok(null);
    });
    if (!walked.ok) return walked;
    await s.finish(reserved.value.path, v2);
    const t = s.totals;
    const notes = leftOut === 0 ? [] : [leftOutNote(leftOut, info.savedBy, info.dataVersion)];
    const saved = reserved.value.commit({ ...header, blockCount: t.blockCount, blockEntities: t.blockEntities, notes });
    if (!saved.ok || copy === undefined) return saved;
    if (v2 !== undefined) renameSync(v2, copy.path);
    else copyFileSync(join(d.library.dir, `${name}.schem`), copy.path);
    return saved;
  } finally {
    stream?.abort();
    reserved.value.abort();
    if (v2 !== undefined) rmSync(v2, { force: true });
  }
}

function leftOutNote(count: number, savedBy: { readonly dataVersion: number; readonly release: string } | undefined, dataVersion: number): string {
  const by = savedBy !== undefined && savedBy.dataVersion !== dataVersion ? `Minecraft ${savedBy.release}` : "another Minecraft version than this world's";
  return `left out the data of ${count} block entit${count === 1 ? "y" : "ies"} (contents of chests, sign text …) saved by ${by}: it would need the game's own upgrade; the blocks import with the game's defaults`;
}

/** Chunks of a slab that an older (or newer) game saved: their block-entity data is that game's. */
function staleChunks(slab: RegionSlab): Set<string> {
  return new Set((slab.unwritable ?? []).filter((u) => u.code === "version_mismatch").map((u) => `${u.chunk.x},${u.chunk.z}`));
}

function chunkOf(slab: RegionSlab, i: number): string {
  const sx = slab.box.maxX - slab.box.minX + 1,
    sz = slab.box.maxZ - slab.box.minZ + 1;
  return `${(slab.box.minX + (i % sx)) >> 4},${(slab.box.minZ + (Math.floor(i / sx) % sz)) >> 4}`;
}
