import type { Box3 } from "@mcb/blocks";
import type { Plan, PlanBlockData, PlanRuns, SourceFilter } from "./Plan.js";
import { planHash } from "./PlanHash.js";

/** Positions of one tile of a big plan: the size of a plan a prepare takes (`DEFAULT_LIMITS.maxBlocks`). */
export const PLAN_TILE_BLOCKS = 100_000;

/**
 * A big plan cut into tiles in its own order (bottom up: y, then z, then x), each a plan of at most
 * `tileBlocks` positions: tile i holds positions [i × tileBlocks, (i + 1) × tileBlocks) of the plan.
 * Every tile is a canonical plan of its own (its palette and filters the ones it uses, its bounds,
 * its hash) with the big plan's read dependencies; together they are exactly the big plan.
 */
export class PlanTiles {
  readonly count: number;
  /** Run index and offset into it where each tile starts (found once, walking the runs). */
  private readonly starts: { run: number; offset: number }[] = [];

  constructor(
    readonly plan: Plan,
    readonly tileBlocks: number = PLAN_TILE_BLOCKS,
  ) {
    if (!Number.isSafeInteger(tileBlocks) || tileBlocks < 1) throw new RangeError(`tileBlocks ${tileBlocks}`);
    this.count = Math.ceil(plan.count / tileBlocks);
    const { length } = plan.runs;
    let before = 0; // positions of the runs before run r
    for (let r = 0, t = 0; t < this.count; r++) {
      const n = length[r]!;
      while (t < this.count && t * tileBlocks < before + n) {
        this.starts.push({ run: r, offset: t * tileBlocks - before });
        t++;
      }
      before += n;
    }
  }

  /** Tile `i` (0 ≤ i < count) as a plan. */
  tile(i: number): Plan {
    if (!Number.isInteger(i) || i < 0 || i >= this.count) throw new RangeError(`tile ${i} of ${this.count}`);
    const p = this.plan;
    const want = Math.min(this.tileBlocks, p.count - i * this.tileBlocks);
    const src = p.runs;
    // The runs of the tile: whole runs, the first and last cut where the tile starts and ends.
    const start = this.starts[i]!;
    const ys: number[] = [],
      zs: number[] = [],
      xs: number[] = [],
      ls: number[] = [],
      ss: number[] = [],
      fs: number[] = [];
    let left = want;
    for (let r = start.run, offset = start.offset; left > 0; r++, offset = 0) {
      const take = Math.min(src.length[r]! - offset, left);
      ys.push(src.y[r]!);
      zs.push(src.z[r]!);
      xs.push(src.x[r]! + offset);
      ls.push(take);
      ss.push(src.state[r]!);
      fs.push(src.filter[r]!);
      left -= take;
    }
    // Only the states and filters the tile uses, in the big plan's (sorted) order.
    const stateMap = compact(ss, p.palette.length, 0);
    const filterMap = compact(fs, p.filters.length + 1, 1);
    const palette = p.palette.filter((_, k) => stateMap[k]! >= 0);
    const filters: SourceFilter[] = p.filters.filter((_, k) => filterMap[k + 1]! > 0);
    const runs: PlanRuns = {
      y: Int32Array.from(ys),
      z: Int32Array.from(zs),
      x: Int32Array.from(xs),
      length: Int32Array.from(ls),
      state: Uint16Array.from(ss, (s) => stateMap[s]!),
      filter: Uint16Array.from(fs, (f) => filterMap[f]!),
    };
    const blockData = p.blockData.filter((d) => inRuns(runs, d));
    const body = { minecraftVersion: p.minecraftVersion, dataVersion: p.dataVersion, palette, filters, runs, reads: p.reads, blockData };
    return Object.freeze({ format: 1 as const, ...body, count: want, bounds: boundsOfRuns(runs), planHash: planHash(body) });
  }
}

/**
 * New indices for the values `used` takes out of `size` (old index → new, −1 when unused), in
 * order; the first `keep` indices keep their own (filter 0: no filter).
 */
function compact(used: readonly number[], size: number, keep: number): Int32Array {
  const map = new Int32Array(size).fill(-1);
  for (const u of used) map[u] = 0;
  let next = 0;
  for (let k = 0; k < size; k++) {
    if (k < keep) map[k] = next++;
    else if (map[k] === 0) map[k] = next++;
  }
  return map;
}

function inRuns(runs: PlanRuns, d: PlanBlockData): boolean {
  for (let r = 0; r < runs.y.length; r++) if (runs.y[r] === d.y && runs.z[r] === d.z && d.x >= runs.x[r]! && d.x < runs.x[r]! + runs.length[r]!) return true;
  return false;
}

function boundsOfRuns(runs: PlanRuns): Box3 {
  let minX = Infinity,
    minZ = Infinity,
    maxX = -Infinity,
    maxZ = -Infinity;
  for (let r = 0; r < runs.y.length; r++) {
    const x = runs.x[r]!,
      z = runs.z[r]!;
    if (x < minX) minX = x;
    if (x + runs.length[r]! - 1 > maxX) maxX = x + runs.length[r]! - 1;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  return { minX, minY: runs.y[0]!, minZ, maxX, maxY: runs.y[runs.y.length - 1]!, maxZ };
}
