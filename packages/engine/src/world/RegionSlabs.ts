import { createHash } from "node:crypto";
import { boxVolume, fail, mcbError, ok, type Box3, type Result } from "@mcb/blocks";
import type { AreaScope } from "../core/Project.js";
import { regionToRead } from "./Inspect.js";
import { MAX_ADAPTER_READ, type RegionRead, type WorldAdapter } from "./WorldAdapter.js";

/** One slab of a region walk: a dense read, with its block entities' data when asked. */
export type RegionSlab = RegionRead & { readonly entityData?: ReadonlyMap<number, Uint8Array> };

/**
 * The boxes of a region in y, then z, then x order, each whole x rows where they fit and at most
 * `max` positions: whole layers when a layer fits, else bands of rows of one layer, else pieces of
 * one row. Concatenating the slabs' states gives the region's in y, z, x order (x fastest).
 */
export function* slabsOf(box: Box3, max = MAX_ADAPTER_READ): Generator<Box3> {
  const sx = box.maxX - box.minX + 1,
    sz = box.maxZ - box.minZ + 1;
  if (sx * sz <= max) {
    const layers = Math.floor(max / (sx * sz));
    for (let y = box.minY; y <= box.maxY; y += layers) yield { ...box, minY: y, maxY: Math.min(box.maxY, y + layers - 1) };
    return;
  }
  if (sx <= max) {
    const rows = Math.floor(max / sx);
    for (let y = box.minY; y <= box.maxY; y++)
      for (let z = box.minZ; z <= box.maxZ; z += rows) yield { ...box, minY: y, maxY: y, minZ: z, maxZ: Math.min(box.maxZ, z + rows - 1) };
    return;
  }
  for (let y = box.minY; y <= box.maxY; y++)
    for (let z = box.minZ; z <= box.maxZ; z++)
      for (let x = box.minX; x <= box.maxX; x += max) yield { minX: x, maxX: Math.min(box.maxX, x + max - 1), minY: y, maxY: y, minZ: z, maxZ: z };
}

/**
 * Reads a region of up to `maxPositions` slab by slab (`slabsOf`), for exports of any size with
 * memory bounded by one slab: the region must lie in the project area; each slab is one adapter
 * read (one moment of the world; the region as a whole is not), with its block entities' data
 * checked against the read's digests when `entityData` is asked. `each` sees the slabs in order
 * and may stop the walk with an error. Errors: invalid_request (region), budget_exceeded,
 * out_of_bounds, busy (`changed_during_read`), and what `each` returns.
 */
export async function readRegionSlabs(
  adapter: WorldAdapter,
  scope: AreaScope,
  input: { readonly min: unknown; readonly max: unknown; readonly maxPositions: number; readonly entityData: boolean },
  each: (slab: RegionSlab) => Promise<Result<null>> | Result<null>,
): Promise<Result<{ readonly box: Box3; readonly positions: number }>> {
  const region = regionToRead(scope, input.min, input.max, input.maxPositions, "per export: export it in parts");
  if (!region.ok) return region;
  const box = region.value;
  for (const slabBox of slabsOf(box)) {
    const r = await adapter.read(slabBox);
    let slab: RegionSlab = r;
    if (input.entityData && r.digests.size > 0 && adapter.readBlockEntities !== undefined) {
      const entityData = await adapter.readBlockEntities(slabBox);
      // Two reads, not one moment: the data must be what the first read's digests describe.
      for (const [i, digest] of r.digests) {
        const d = entityData.get(i);
        if (d === undefined || createHash("sha256").update(d).digest("hex") !== digest)
          return fail(mcbError("busy", "a block entity changed while the region was read; export again", { reason: "changed_during_read" }));
      }
      slab = { ...r, entityData };
    }
    const went = await each(slab);
    if (!went.ok) return went;
  }
  return ok({ box, positions: boxVolume(box) });
}
