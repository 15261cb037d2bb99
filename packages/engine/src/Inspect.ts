import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { Box3 } from "@mcb/recipe";
import { boxContains, boxFromCorners, boxJson, boxVolume, type Vec3 } from "./Geometry.js";
import type { WorldAdapter, WorldInfo } from "./WorldAdapter.js";

export interface RegionInspectInput {
  readonly min: Vec3;
  readonly max: Vec3;
  readonly detail: "summary" | "blocks";
}

export interface InspectedBlock {
  readonly pos: Vec3;
  readonly state: string;
  /** SHA-256 of the block entity's data (never the data itself). */
  readonly snapshot_id?: string;
}

export interface RegionInspectView {
  readonly world: { readonly id: string; readonly epoch: number };
  readonly region: { readonly min: Vec3; readonly max: Vec3 };
  readonly detail: "summary" | "blocks";
  readonly positions: number;
  /** States with counts, largest first. */
  readonly palette: readonly { readonly state: string; readonly count: number }[];
  readonly block_entities: number;
  /** Exact blocks in (y, z, x) order; only for detail "blocks". */
  readonly blocks?: readonly InspectedBlock[];
  readonly observed_at: string;
}

export function isVec3(v: unknown): v is Vec3 {
  if (typeof v !== "object" || v === null) return false;
  const o = v as Record<string, unknown>;
  return [o.x, o.y, o.z].every((c) => Number.isSafeInteger(c));
}

/** Parses an inclusive {min, max} region from untrusted input. */
export function regionOf(min: unknown, max: unknown): Result<Box3> {
  if (!isVec3(min) || !isVec3(max)) return fail(mcbError("invalid_request", "min and max must be integer {x,y,z}", { reason: "region" }));
  return ok(boxFromCorners(min, max));
}

/**
 * region_inspect (PROTOCOL.md "Reading and writing"): at most `maxPositions`, inside the project
 * area, from one adapter read (one moment).
 */
export async function inspectRegion(
  adapter: WorldAdapter,
  world: WorldInfo,
  area: Box3,
  input: RegionInspectInput,
  maxPositions: number,
  now: number,
): Promise<Result<RegionInspectView>> {
  if (input.detail !== "summary" && input.detail !== "blocks")
    return fail(mcbError("invalid_request", 'detail must be "summary" or "blocks"', { reason: "detail" }));
  const region = regionOf(input.min, input.max);
  if (!region.ok) return region;
  const box = region.value;
  const volume = boxVolume(box);
  if (volume > maxPositions)
    return fail(mcbError("budget_exceeded", `region has ${volume} positions; at most ${maxPositions} per inspection`, { limit: maxPositions, positions: volume }));
  if (!boxContains(area, box)) return fail(mcbError("out_of_bounds", "region lies outside the project area", { area: boxJson(area) }));
  const r = await adapter.read(box);
  const counts = new Uint32Array(r.palette.length);
  for (const s of r.states) counts[s]!++;
  const palette = r.palette
    .map((state, i) => ({ state, count: counts[i]! }))
    .filter((p) => p.count > 0)
    .sort((a, b) => b.count - a.count || (a.state < b.state ? -1 : 1));
  const view: RegionInspectView = {
    world: { id: world.worldId, epoch: world.epoch },
    region: boxJson(box),
    detail: input.detail,
    positions: volume,
    palette,
    block_entities: r.digests.size,
    observed_at: new Date(now).toISOString(),
  };
  if (input.detail === "summary") return ok(view);
  const blocks: InspectedBlock[] = [];
  let i = 0;
  for (let y = box.minY; y <= box.maxY; y++)
    for (let z = box.minZ; z <= box.maxZ; z++)
      for (let x = box.minX; x <= box.maxX; x++, i++) {
        const d = r.digests.get(i);
        blocks.push(d === undefined ? { pos: { x, y, z }, state: r.palette[r.states[i]!]! } : { pos: { x, y, z }, state: r.palette[r.states[i]!]!, snapshot_id: d });
      }
  return ok({ ...view, blocks });
}
