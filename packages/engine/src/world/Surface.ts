import { isAir, fail, Interner, mcbError, ok, type Result } from "@mcb/blocks";
import { outsideArea, type AreaScope } from "../core/Project.js";
import { MAX_ADAPTER_READ, type WorldAdapter, type WorldInfo } from "./WorldAdapter.js";

export interface SurfaceInput {
  readonly min: { readonly x: number; readonly z: number };
  readonly max: { readonly x: number; readonly z: number };
  /** Sample every `step`-th column from min (default 1). */
  readonly step?: number;
  /** Levels scanned, inclusive (default: the project area's height inside the world). */
  readonly y_range?: { readonly min: number; readonly max: number };
}

export interface SurfaceView {
  readonly region: { readonly min: { readonly x: number; readonly z: number }; readonly max: { readonly x: number; readonly z: number } };
  readonly step: number;
  readonly y_range: { readonly min: number; readonly max: number };
  /** Sampled columns along x and z: column (i, k) is x = min.x + i·step, z = min.z + k·step. */
  readonly columns: { readonly x: number; readonly z: number };
  /**
   * The sampled columns z-major (row k, then i) as runs `[height, top, count, …]`: `count` columns
   * in a row whose highest non-air block is at y `height` and is `palette[top]` (null and −1: only
   * air). Flat ground is one run. Absent when every column is air.
   */
  readonly runs?: readonly (number | null)[];
  readonly palette: readonly string[];
  readonly empty_columns: number;
  readonly min_height: number | null;
  readonly max_height: number | null;
  /** One sentence for the caller, e.g. that the whole area is empty. */
  readonly summary: string;
  readonly observed_at: string;
}

const MAX_STEP = 64;

/** Columns as runs of equal (height, top): `[height, top, count, …]`. */
export function surfaceRuns(heights: readonly (number | null)[], tops: readonly number[]): (number | null)[] {
  const out: (number | null)[] = [];
  for (let i = 0; i < heights.length; i++) {
    const n = out.length;
    if (n > 0 && out[n - 3] === heights[i] && out[n - 2] === tops[i]) out[n - 1] = (out[n - 1] as number) + 1;
    else out.push(heights[i]!, tops[i]!, 1);
  }
  return out;
}

/** The columns of `runs` again, one height and one top per sampled column (z-major). */
export function surfaceColumns(runs: readonly (number | null)[]): { heights: (number | null)[]; tops: number[] } {
  const heights: (number | null)[] = [],
    tops: number[] = [];
  for (let r = 0; r < runs.length; r += 3)
    for (let k = 0; k < (runs[r + 2] as number); k++) {
      heights.push(runs[r]!);
      tops.push(runs[r + 1] as number);
    }
  return { heights, tops };
}

/**
 * A heightmap sample (the game's WORLD_SURFACE: highest non-air block; water, leaves and plants
 * count): per sampled column, the top block and its height, scanning down from `y_range.max`.
 * Reads go chunk column by chunk column, top band first, and stop once every column of the chunk
 * is found. At most `maxColumns` sampled columns, all inside the project area.
 */
export async function surfaceSample(
  adapter: WorldAdapter,
  world: WorldInfo,
  scope: AreaScope,
  input: SurfaceInput,
  maxColumns: number,
  now: number,
): Promise<Result<SurfaceView>> {
  const g = sampleGrid(world, scope, input, maxColumns);
  if (!g.ok) return g;
  const { x0, z0, nx, nz, step, yr } = g.value;
  const heights = new Array<number | null>(nx * nz).fill(null);
  const tops = new Array<number>(nx * nz).fill(-1);
  const palette = new Interner();
  for (const c of chunkColumns(g.value).values()) await scanChunk(adapter, g.value, c, heights, tops, palette);
  const found = heights.filter((h): h is number => h !== null);
  const empty = heights.length - found.length;
  const minH = found.length > 0 ? Math.min(...found) : null,
    maxH = found.length > 0 ? Math.max(...found) : null;
  const summary =
    found.length === 0
      ? `empty: every sampled column is air from y=${yr.min} to y=${yr.max}; there is no ground here — build a floor or pick any y`
      : `${found.length} of ${heights.length} columns have blocks; surface y ${minH}..${maxH}${empty > 0 ? `; ${empty} columns are only air` : ""}`;
  return ok({
    region: { min: { x: x0, z: z0 }, max: { x: g.value.x1, z: g.value.z1 } },
    step,
    y_range: { min: yr.min, max: yr.max },
    columns: { x: nx, z: nz },
    ...(found.length === 0 ? {} : { runs: surfaceRuns(heights, tops) }),
    palette: palette.values,
    empty_columns: empty,
    min_height: minH,
    max_height: maxH,
    summary,
    observed_at: new Date(now).toISOString(),
  });
}

/** The sampled columns: column (i, k) is x = x0 + i·step, z = z0 + k·step; levels `yr`, scanned down. */
interface SampleGrid {
  readonly x0: number;
  readonly x1: number;
  readonly z0: number;
  readonly z1: number;
  readonly nx: number;
  readonly nz: number;
  readonly step: number;
  readonly yr: { readonly min: number; readonly max: number };
}

/** The input checked: integer columns inside the project area, a step, at most `maxColumns` samples, levels inside the area and the world. */
function sampleGrid(world: WorldInfo, scope: AreaScope, input: SurfaceInput, maxColumns: number): Result<SampleGrid> {
  const ints = (...v: unknown[]): boolean => v.every((c) => Number.isSafeInteger(c));
  const { min, max } = input;
  if (!ints(min?.x, min?.z, max?.x, max?.z)) return fail(mcbError("invalid_request", "min and max must be integer columns {x, z}", { reason: "region" }));
  const step = input.step ?? 1;
  if (!ints(step) || step < 1 || step > MAX_STEP) return fail(mcbError("invalid_request", `step must be an integer 1..${MAX_STEP}`, { reason: "step" }));
  const x0 = Math.min(min.x, max.x),
    x1 = Math.max(min.x, max.x),
    z0 = Math.min(min.z, max.z),
    z1 = Math.max(min.z, max.z);
  const nx = Math.floor((x1 - x0) / step) + 1;
  const nz = Math.floor((z1 - z0) / step) + 1;
  if (nx * nz > maxColumns)
    return fail(
      mcbError("budget_exceeded", `${nx * nz} sampled columns; at most ${maxColumns} per call: use a larger step or a smaller area`, {
        limit: maxColumns,
        columns: nx * nz,
      }),
    );
  const area = scope.area;
  if (x0 < area.minX || x1 > area.maxX || z0 < area.minZ || z1 > area.maxZ) return fail(outsideArea("columns lie", scope));
  const lowest = Math.max(area.minY, world.minY),
    highest = Math.min(area.maxY, world.maxY);
  const yr = input.y_range ?? { min: lowest, max: highest };
  if (!ints(yr.min, yr.max) || yr.min > yr.max) return fail(mcbError("invalid_request", "y_range must be integers with min ≤ max", { reason: "y_range" }));
  if (yr.min < lowest || yr.max > highest) return fail(mcbError("out_of_bounds", `y_range must lie within ${lowest}..${highest}`, { reason: "y_range" }));
  return ok({ x0, x1, z0, z1, nx, nz, step, yr });
}

/** The sampled columns of one chunk column, as their (i, k) indices. */
interface ChunkColumns {
  readonly i: number[];
  readonly k: number[];
}

/** Sampled columns grouped by chunk column. */
function chunkColumns(g: SampleGrid): Map<string, ChunkColumns> {
  const chunks = new Map<string, ChunkColumns>();
  for (let k = 0; k < g.nz; k++)
    for (let i = 0; i < g.nx; i++) {
      const key = `${(g.x0 + i * g.step) >> 4},${(g.z0 + k * g.step) >> 4}`;
      let c = chunks.get(key);
      if (c === undefined) chunks.set(key, (c = { i: [], k: [] }));
      c.i.push(i);
      c.k.push(k);
    }
  return chunks;
}

/**
 * Finds the top block of each sampled column of one chunk column: reads go top band first and
 * stop once every column is found; sparse samples are read column by column rather than the box
 * around them.
 */
async function scanChunk(adapter: WorldAdapter, g: SampleGrid, c: ChunkColumns, heights: (number | null)[], tops: number[], palette: Interner): Promise<void> {
  const { yr } = g;
  const levels = yr.max - yr.min + 1;
  const xs = c.i.map((i) => g.x0 + i * g.step),
    zs = c.k.map((k) => g.z0 + k * g.step);
  const bx0 = Math.min(...xs),
    bx1 = Math.max(...xs),
    bz0 = Math.min(...zs),
    bz1 = Math.max(...zs);
  const footprint = (bx1 - bx0 + 1) * (bz1 - bz0 + 1);
  const boxes =
    footprint > 4 * c.i.length
      ? c.i.map((_, n) => ({ x: [xs[n]!, xs[n]!], z: [zs[n]!, zs[n]!], cols: [n] }))
      : [{ x: [bx0, bx1], z: [bz0, bz1], cols: c.i.map((_, n) => n) }];
  for (const b of boxes) {
    const w = b.x[1]! - b.x[0]! + 1,
      l = b.z[1]! - b.z[0]! + 1;
    const band = Math.max(1, Math.min(levels, Math.floor(MAX_ADAPTER_READ / (w * l))));
    let open = b.cols.length;
    for (let top = yr.max; top >= yr.min && open > 0; top -= band) {
      const bottom = Math.max(yr.min, top - band + 1);
      const r = await adapter.read({ minX: b.x[0]!, minY: bottom, minZ: b.z[0]!, maxX: b.x[1]!, maxY: top, maxZ: b.z[1]! });
      for (const n of b.cols) {
        const at = c.k[n]! * g.nx + c.i[n]!;
        if (heights[at] !== null) continue;
        const dx = xs[n]! - b.x[0]!,
          dz = zs[n]! - b.z[0]!;
        for (let y = top; y >= bottom; y--) {
          const state = r.palette[r.states[((y - bottom) * l + dz) * w + dx]!]!;
          if (isAir(state)) continue;
          heights[at] = y;
          tops[at] = palette.id(state);
          open--;
          break;
        }
      }
    }
  }
}
