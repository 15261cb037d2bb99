import { Interner, fail, mcbError, ok, type BlockRegistry, type Result } from "@mcb/blocks";
import { planFromBlocks, type Plan, type SourceFilter } from "@mcb/recipe";
import { heightAt, type HeightField } from "./HeightField.js";
import type { CompiledTerrain, TerrainMaterials } from "./TerrainCompile.js";
import { tileBounds, type TileBounds } from "./Tiling.js";

/**
 * Block ids a terrain plan may replace ("live natural terrain"): air, soil, stone, sand, snow and
 * small plants. Anything else (builds, water, lava, logs, ores) is left as it is: the plan carries
 * this as a source filter, so the engine writes only where the current block matches.
 */
export const NATURAL_IDS: readonly string[] = [
  "air",
  "cave_air",
  "grass_block",
  "dirt",
  "coarse_dirt",
  "rooted_dirt",
  "podzol",
  "mycelium",
  "dirt_path",
  "farmland",
  "stone",
  "deepslate",
  "granite",
  "diorite",
  "andesite",
  "tuff",
  "calcite",
  "gravel",
  "sand",
  "red_sand",
  "sandstone",
  "red_sandstone",
  "clay",
  "mud",
  "snow",
  "snow_block",
  "short_grass",
  "tall_grass",
  "fern",
  "large_fern",
  "dead_bush",
  "dandelion",
  "poppy",
  "moss_block",
  "moss_carpet",
  "terracotta",
].map((id) => `minecraft:${id}`);

export function naturalFilter(extraStates: readonly string[]): SourceFilter {
  const ids = new Set(NATURAL_IDS);
  for (const s of extraStates) ids.add(s.replace(/\[.*$/, ""));
  return { ids: [...ids].sort(), states: [] };
}

/** Surface block of a column: steep faces, peaks and low floors take their own material. */
export function surfaceState(field: HeightField, m: TerrainMaterials, x: number, z: number): string {
  const h = heightAt(field, x, z);
  let drop = 0;
  for (const [dx, dz] of [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ] as const) {
    const nx = x + dx,
      nz = z + dz;
    if (nx < field.minX || nz < field.minZ || nx >= field.minX + field.width || nz >= field.minZ + field.length) continue;
    drop = Math.max(drop, h - heightAt(field, nx, nz));
  }
  if (drop >= m.steepDrop) return m.steep;
  if (m.peak !== null && h >= m.peak.y) return m.peak.state;
  if (m.low !== null && h <= m.low.y) return m.low.state;
  return m.surface;
}

function preserved(t: CompiledTerrain, x: number, z: number): boolean {
  return (t.recipe.preserve ?? []).some((r) => x >= r.min.x && x <= r.max.x && z >= r.min.z && z <= r.max.z);
}

export interface TilePlan {
  readonly plan: Plan;
  readonly bounds: TileBounds;
  /** Columns left out by preserve rectangles. */
  readonly preservedColumns: number;
}

/**
 * The checked plan of one tile: every column from `floor` to `ceiling` (stone, subsurface, surface,
 * then air), each position filtered to natural blocks. Errors: invalid_request (tile index).
 */
export function terrainTilePlan(registry: BlockRegistry, t: CompiledTerrain, index: number): Result<TilePlan> {
  const bounds = tileBounds(t.field, t.tiles, index);
  if (bounds === null)
    return fail(mcbError("invalid_request", `tile_index must be an integer within 0..${t.tiles.count - 1}`, { reason: "tile_index", tiles: t.tiles.count }));
  const m = t.materials;
  const states = new Interner();
  for (const s of ["minecraft:air", m.stone, m.subsurface, m.surface, m.steep]) states.id(s);
  if (m.peak) states.id(m.peak.state);
  if (m.low) states.id(m.low.state);
  const air = 0,
    stone = states.id(m.stone),
    subsurface = states.id(m.subsurface);
  const levels = t.ceiling - t.floor + 1;
  const cols = (bounds.maxX - bounds.minX + 1) * (bounds.maxZ - bounds.minZ + 1);
  const n = cols * levels;
  const xs = new Int32Array(n),
    ys = new Int32Array(n),
    zs = new Int32Array(n),
    st = new Uint32Array(n);
  let k = 0,
    kept = 0;
  for (let z = bounds.minZ; z <= bounds.maxZ; z++) {
    for (let x = bounds.minX; x <= bounds.maxX; x++) {
      if (preserved(t, x, z)) {
        kept++;
        continue;
      }
      const h = heightAt(t.field, x, z);
      const top = states.id(surfaceState(t.field, m, x, z));
      for (let y = t.floor; y <= t.ceiling; y++, k++) {
        ((xs[k] = x), (ys[k] = y), (zs[k] = z));
        st[k] = y > h ? air : y === h ? top : y >= h - m.depth ? subsurface : stone;
      }
    }
  }
  const filter = new Uint16Array(k).fill(1);
  const plan = planFromBlocks(registry, {
    states: states.values,
    filters: [naturalFilter(states.values)],
    blocks: { x: xs.subarray(0, k), y: ys.subarray(0, k), z: zs.subarray(0, k), state: st.subarray(0, k), filter },
  });
  if (!plan.ok) return plan;
  return ok({ plan: plan.value, bounds, preservedColumns: kept });
}
