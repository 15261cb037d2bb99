import { type BlockRegistry, type Box3, fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { RawRuns } from "./Collector.js";
import { DEFAULT_LIMITS, MAX_HORIZONTAL, MAX_Y, MIN_Y } from "./Limits.js";
import type { Plan, PlanBlockData, SourceFilter } from "./Plan.js";
import { planHash } from "./PlanHash.js";
import type { Vec3 } from "./RecipeSchema.js";

/**
 * Turns collected runs into the canonical immutable plan: palette and filters sorted, only the
 * entries the runs use, reads sorted and unique, tight bounds, hash. `raw.value` is
 * (filter << 16) | (index into `states` + 1); filter k > 0 is `filters[k − 1]`.
 */
export function finishPlan(
  registry: BlockRegistry,
  raw: RawRuns,
  states: readonly string[],
  filters: readonly SourceFilter[],
  dependencies: readonly Vec3[],
  blockData: readonly PlanBlockData[] = [],
): Plan {
  const stateUsed = new Uint8Array(states.length);
  const filterUsed = new Uint8Array(filters.length + 1);
  markValues(raw.value, stateUsed, filterUsed);
  const bounds = raw.count === 0 ? null : (raw.bounds ?? runBounds(raw));
  const usedStates = [...stateUsed.keys()].filter((i) => stateUsed[i] === 1);
  const usedFilters = [...filterUsed.keys()].filter((i) => i > 0 && filterUsed[i] === 1);
  const palette = usedStates.map((i) => states[i]!).sort();
  const stateRemap = new Int32Array(states.length);
  for (const i of usedStates) stateRemap[i] = palette.indexOf(states[i]!);
  const filterKey = (f: SourceFilter): string => JSON.stringify(f);
  const filterList = usedFilters.map((i) => filters[i - 1]!).sort((a, b) => (filterKey(a) < filterKey(b) ? -1 : 1));
  const filterRemap = new Int32Array(filters.length + 1);
  for (const i of usedFilters) filterRemap[i] = filterList.indexOf(filters[i - 1]!) + 1;
  const runs = planRuns(raw, stateRemap, filterRemap);
  const reads = sortedReads(dependencies);
  const body = { minecraftVersion: registry.minecraftVersion, dataVersion: registry.dataVersion, palette, filters: filterList, runs, reads, blockData };
  return Object.freeze({ format: 1 as const, ...body, count: raw.count, bounds, planHash: planHash(body) });
}

// Hot loops in small functions of their own (see PlanHash's interleavedRuns).
/** Marks the states and filters the runs use. */
function markValues(value: Uint32Array, stateUsed: Uint8Array, filterUsed: Uint8Array): void {
  for (let r = 0; r < value.length; r++) {
    const v = value[r]!;
    stateUsed[(v & 0xffff) - 1] = 1;
    filterUsed[v >>> 16] = 1;
  }
}

/** Tight bounds of the runs (an overwritten or filtered primitive may not reach the recipe bounds). */
function runBounds(raw: RawRuns): Box3 {
  const { x: xs, z: zs, length } = raw;
  const n = length.length;
  let minX = Infinity,
    minZ = Infinity,
    maxX = -Infinity,
    maxZ = -Infinity;
  for (let r = 0; r < n; r++) {
    const x = xs[r]!,
      z = zs[r]!,
      end = x + length[r]! - 1;
    if (x < minX) minX = x;
    if (end > maxX) maxX = end;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  // Runs are sorted by y.
  return { minX, minY: raw.y[0]!, minZ, maxX, maxY: raw.y[n - 1]!, maxZ };
}

/**
 * Largest plan whose run arrays share one buffer: one allocation instead of six for small plans;
 * larger arrays each get their own (a big single buffer is mapped fresh from the system and
 * faulted in page by page on every compile, which costs more than six allocations).
 */
const ONE_BUFFER_BYTES = 65_536;

/**
 * The plan's run arrays: copies of the raw positions (which may be a collector's scratch) and the
 * remapped states and filters.
 */
function planRuns(raw: RawRuns, stateRemap: Int32Array, filterRemap: Int32Array): Plan["runs"] {
  const n = raw.length.length;
  let y: Int32Array, z: Int32Array, x: Int32Array, length: Int32Array, state: Uint16Array, filter: Uint16Array;
  if (n * 20 <= ONE_BUFFER_BYTES) {
    const buffer = new ArrayBuffer(n * 20);
    ((y = new Int32Array(buffer, 0, n)),
      (z = new Int32Array(buffer, 4 * n, n)),
      (x = new Int32Array(buffer, 8 * n, n)),
      (length = new Int32Array(buffer, 12 * n, n)));
    ((state = new Uint16Array(buffer, 16 * n, n)), (filter = new Uint16Array(buffer, 18 * n, n)));
    (y.set(raw.y), z.set(raw.z), x.set(raw.x), length.set(raw.length));
  } else {
    ((y = raw.y.slice()), (z = raw.z.slice()), (x = raw.x.slice()), (length = raw.length.slice()));
    ((state = new Uint16Array(n)), (filter = new Uint16Array(n)));
  }
  const value = raw.value;
  for (let r = 0; r < n; r++) {
    const v = value[r]!;
    state[r] = stateRemap[(v & 0xffff) - 1]!;
    filter[r] = filterRemap[v >>> 16]!;
  }
  return { y, z, x, length, state, filter };
}

/** Explicit blocks for `planFromBlocks`: parallel arrays, one entry per position, any order. */
export interface PlanBlocks {
  readonly x: Int32Array;
  readonly y: Int32Array;
  readonly z: Int32Array;
  /** Index into `states`. */
  readonly state: Uint32Array;
  /** 0 for none, otherwise k for `filters[k − 1]`; absent: no filters. */
  readonly filter?: Uint16Array;
}

export interface PlanFromBlocksInput {
  /** Canonical states (validated: each must be a registry state). */
  readonly states: readonly string[];
  readonly filters?: readonly SourceFilter[];
  readonly blocks: PlanBlocks;
  readonly dependencies?: readonly Vec3[];
  /** Block-entity data for some of the positions (each one a listed position, at most once). */
  readonly blockData?: readonly PlanBlockData[];
  /** Largest plan accepted (default 100,000; docs/DESIGN.md "Plans"). */
  readonly maxBlocks?: number;
}

/**
 * Builds a plan from explicit positions (schematic paste, terrain tiles, brushes): the same
 * canonical form and hash as a compiled recipe with the same content. Errors: `invalid_request`
 * (duplicate position, bad index, non-canonical state), `out_of_bounds`, `budget_exceeded`.
 */
export function planFromBlocks(registry: BlockRegistry, input: PlanFromBlocksInput): Result<Plan> {
  const { blocks, states } = input;
  const filters = input.filters ?? [];
  const n = blocks.x.length;
  const maxBlocks = input.maxBlocks ?? DEFAULT_LIMITS.maxBlocks;
  if (blocks.y.length !== n || blocks.z.length !== n || blocks.state.length !== n || (blocks.filter !== undefined && blocks.filter.length !== n))
    throw new Error("invariant: planFromBlocks arrays differ in length");
  if (n > maxBlocks)
    return fail(mcbError("budget_exceeded", `plan changes ${n} blocks; the limit is ${maxBlocks}`, { stage: "compile", limit: maxBlocks, requested: n }));
  if (states.length >= 0xffff) return fail(mcbError("budget_exceeded", "too many distinct states", { limit: 0xfffe }));
  if (filters.length >= 0xffff) return fail(mcbError("budget_exceeded", "too many source filters", { limit: 0xfffe }));
  for (const s of states) {
    const r = registry.resolveState(s);
    if (!r.ok || r.value.canonical !== s) return fail(mcbError("invalid_request", `not a canonical block state: ${JSON.stringify(s.slice(0, 80))}`));
  }
  for (let i = 0; i < n; i++) {
    const x = blocks.x[i]!,
      y = blocks.y[i]!,
      z = blocks.z[i]!;
    if (Math.abs(x) > MAX_HORIZONTAL || Math.abs(z) > MAX_HORIZONTAL || y < MIN_Y || y > MAX_Y)
      return fail(mcbError("out_of_bounds", `position ${x} ${y} ${z} is outside the world limits`, { pos: { x, y, z } }));
    if (blocks.state[i]! >= states.length) return fail(mcbError("invalid_request", `state index ${blocks.state[i]} out of range`));
    const f = blocks.filter?.[i] ?? 0;
    if (f > filters.length) return fail(mcbError("invalid_request", `filter index ${f} out of range`));
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => blocks.y[a]! - blocks.y[b]! || blocks.z[a]! - blocks.z[b]! || blocks.x[a]! - blocks.x[b]!);
  const ry: number[] = [],
    rz: number[] = [],
    rx: number[] = [],
    rl: number[] = [],
    rv: number[] = [];
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    const x = blocks.x[i]!,
      y = blocks.y[i]!,
      z = blocks.z[i]!;
    const value = (blocks.filter?.[i] ?? 0) * 0x10000 + blocks.state[i]! + 1;
    const last = rl.length - 1;
    if (last >= 0 && ry[last] === y && rz[last] === z) {
      const end = rx[last]! + rl[last]!;
      if (x < end) return fail(mcbError("invalid_request", `position ${x} ${y} ${z} is listed twice`, { pos: { x, y, z } }));
      if (x === end && rv[last] === value) {
        rl[last]!++;
        continue;
      }
    }
    (ry.push(y), rz.push(z), rx.push(x), rl.push(1), rv.push(value));
  }
  const raw: RawRuns = {
    y: Int32Array.from(ry),
    z: Int32Array.from(rz),
    x: Int32Array.from(rx),
    length: Int32Array.from(rl),
    value: Uint32Array.from(rv),
    count: n,
  };
  const blockData = [...(input.blockData ?? [])].sort((a, b) => a.y - b.y || a.z - b.z || a.x - b.x);
  if (blockData.length > 0) {
    const at = new Set<string>();
    for (let i = 0; i < n; i++) at.add(`${blocks.x[i]},${blocks.y[i]},${blocks.z[i]}`);
    for (let k = 0; k < blockData.length; k++) {
      const d = blockData[k]!;
      const key = `${d.x},${d.y},${d.z}`;
      if (!at.has(key))
        return fail(mcbError("invalid_request", `block data at ${d.x} ${d.y} ${d.z}, which the plan does not write`, { pos: { x: d.x, y: d.y, z: d.z } }));
      const prev = blockData[k - 1];
      if (prev !== undefined && prev.x === d.x && prev.y === d.y && prev.z === d.z)
        return fail(mcbError("invalid_request", `block data at ${key} is given twice`, { pos: { x: d.x, y: d.y, z: d.z } }));
    }
  }
  return ok(finishPlan(registry, raw, states, filters, input.dependencies ?? [], blockData));
}

function sortedReads(deps: readonly Vec3[]): Int32Array {
  const sorted = [...deps].sort((a, b) => a.y - b.y || a.z - b.z || a.x - b.x);
  const out: number[] = [];
  for (const p of sorted) {
    const k = out.length;
    if (k > 0 && out[k - 3] === p.x && out[k - 2] === p.y && out[k - 1] === p.z) continue;
    out.push(p.x, p.y, p.z);
  }
  return Int32Array.from(out);
}
