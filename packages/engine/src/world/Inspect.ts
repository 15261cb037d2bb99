import { type BlockRegistry, type Box3, boxContains, boxFromCorners, boxJson, boxVolume, fail, mcbError, ok, type Result, type Vec3 } from "@mcb/blocks";
import { outsideArea, type AreaScope } from "../core/Project.js";
import type { RegionRead, WorldAdapter, WorldInfo } from "./WorldAdapter.js";

export interface RegionInspectInput {
  readonly min: Vec3;
  readonly max: Vec3;
  readonly detail?: "summary" | "blocks";
}

/** One position of a region_inspect "blocks" answer, expanded (`expandInspectedBlocks`). */
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
  /**
   * States with counts, largest first. `unknown`: a state the world's blocks version does not have
   * (a save from a newer game, read as it is): kept as it is, never written by a plan.
   */
  readonly palette: readonly { readonly state: string; readonly count: number; readonly unknown?: true }[];
  readonly block_entities: number;
  /**
   * Detail "blocks" only: every position, compactly — `runs` is [palette index, count] pairs
   * covering the region in y, then z, then x order (x fastest), indices into `palette`.
   */
  readonly blocks?: { readonly order: "yzx"; readonly runs: readonly number[] };
  /** Detail "blocks" only: the block entities' positions and data digests. */
  readonly snapshots?: readonly { readonly pos: Vec3; readonly snapshot_id: string }[];
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
 * A region a caller may read: its corners valid, at most `maxPositions` (`per` names the request in
 * the refusal: "per inspection"), inside the project area. Every reader of dense blocks checks so.
 */
export function regionToRead(scope: AreaScope, min: unknown, max: unknown, maxPositions: number, per: string): Result<Box3> {
  const region = regionOf(min, max);
  if (!region.ok) return region;
  const volume = boxVolume(region.value);
  if (volume > maxPositions)
    return fail(mcbError("budget_exceeded", `region has ${volume} positions; at most ${maxPositions} ${per}`, { limit: maxPositions, positions: volume }));
  if (!boxContains(scope.area, region.value)) return fail(outsideArea("the region lies", scope));
  return region;
}

/**
 * One dense read of a region for a caller: at most `maxPositions`, inside the project area, from
 * one adapter read (one moment). The checks of region_inspect, for every reader of dense blocks.
 */
export async function readRegion(adapter: WorldAdapter, scope: AreaScope, min: unknown, max: unknown, maxPositions: number): Promise<Result<RegionRead>> {
  const region = regionToRead(scope, min, max, maxPositions, "per inspection");
  return region.ok ? ok(await adapter.read(region.value)) : region;
}

/** region_inspect (docs/PROTOCOL.md): a palette summary, or every block compactly. */
export async function inspectRegion(
  adapter: WorldAdapter,
  world: WorldInfo,
  scope: AreaScope,
  input: RegionInspectInput,
  maxPositions: number,
  now: number,
  registry: BlockRegistry,
): Promise<Result<RegionInspectView>> {
  const detail = input.detail ?? "summary";
  if (detail !== "summary" && detail !== "blocks")
    return fail(mcbError("invalid_request", 'detail must be "summary" (the default) or "blocks"', { reason: "detail" }));
  const read = await readRegion(adapter, scope, input.min, input.max, maxPositions);
  if (!read.ok) return read;
  const r = read.value;
  const counts = new Uint32Array(r.palette.length);
  for (const s of r.states) counts[s]!++;
  const order = r.palette
    .map((state, i) => ({ state, count: counts[i]!, i }))
    .filter((p) => p.count > 0)
    .sort((a, b) => b.count - a.count || (a.state < b.state ? -1 : 1));
  const view: RegionInspectView = {
    world: { id: world.worldId, epoch: world.epoch },
    region: boxJson(r.box),
    detail,
    positions: r.states.length,
    palette: order.map(({ state, count }) => (registry.resolveState(state).ok ? { state, count } : { state, count, unknown: true as const })),
    block_entities: r.digests.size,
    observed_at: new Date(now).toISOString(),
  };
  if (detail === "summary") return ok(view);
  const rank = new Uint32Array(r.palette.length);
  order.forEach((p, k) => (rank[p.i] = k));
  const runs: number[] = [];
  for (let i = 0; i < r.states.length;) {
    const s = r.states[i]!;
    let j = i + 1;
    while (j < r.states.length && r.states[j] === s) j++;
    runs.push(rank[s]!, j - i);
    i = j;
  }
  const sx = r.box.maxX - r.box.minX + 1;
  const sz = r.box.maxZ - r.box.minZ + 1;
  const snapshots = [...r.digests]
    .sort(([a], [b]) => a - b)
    .map(([i, snapshot_id]) => ({
      pos: { x: r.box.minX + (i % sx), y: r.box.minY + Math.floor(i / (sx * sz)), z: r.box.minZ + (Math.floor(i / sx) % sz) },
      snapshot_id,
    }));
  return ok({ ...view, blocks: { order: "yzx", runs }, snapshots });
}

/** Every position of a "blocks" answer as {pos, state, snapshot_id?}, in y, z, x order. */
export function expandInspectedBlocks(view: RegionInspectView): InspectedBlock[] {
  if (view.blocks === undefined) return [];
  const { min, max } = view.region;
  const digests = new Map((view.snapshots ?? []).map((s) => [`${s.pos.x},${s.pos.y},${s.pos.z}`, s.snapshot_id]));
  const states: string[] = [];
  const runs = view.blocks.runs;
  for (let k = 0; k < runs.length; k += 2) for (let n = 0; n < runs[k + 1]!; n++) states.push(view.palette[runs[k]!]!.state);
  const out: InspectedBlock[] = [];
  let i = 0;
  for (let y = min.y; y <= max.y; y++)
    for (let z = min.z; z <= max.z; z++)
      for (let x = min.x; x <= max.x; x++) {
        const d = digests.get(`${x},${y},${z}`);
        out.push(d === undefined ? { pos: { x, y, z }, state: states[i++]! } : { pos: { x, y, z }, state: states[i++]!, snapshot_id: d });
      }
  return out;
}
