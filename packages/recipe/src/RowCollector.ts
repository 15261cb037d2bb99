import type { BlockCollector, RawRuns } from "./Collector.js";
import { pickRow, type Material } from "./Material.js";
import type { Box3 } from "@mcb/blocks";

/** Most (y, z) rows a row collector takes (4 bytes each for the counting sort). */
export const ROW_LIMIT = 4_194_304;
/** A row with more intervals than this, out of x order, is painted whole rather than sorted. */
const SORT_LIMIT = 32;

/** A copy of `a` twice as long (the rest zero). */
export function doubled<T extends Int32Array | Uint32Array>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a);
  return b;
}

/** Growable typed arrays kept by one compiler between calls (fresh multi-megabyte arrays cost page faults). */
export class CollectorScratch {
  row = new Int32Array(1024);
  x0 = new Int32Array(1024);
  x1 = new Int32Array(1024);
  value = new Uint32Array(1024);
  /** 0 for a state value, k for the palette material k − 1 (value then holds the filter shift). */
  mat = new Int32Array(1024);
  counts = new Int32Array(0);
  order = new Int32Array(0);
  paint = new Uint32Array(0);
  /** One row's palette picks. */
  picks = new Uint32Array(0);
  /** Output runs (reserved up to the bound `rowRuns` computes before writing). */
  out = { y: new Int32Array(1024), z: new Int32Array(1024), x: new Int32Array(1024), length: new Int32Array(1024), value: new Uint32Array(1024) };

  growIntervals(): void {
    ((this.row = doubled(this.row)),
      (this.x0 = doubled(this.x0)),
      (this.x1 = doubled(this.x1)),
      (this.value = doubled(this.value)),
      (this.mat = doubled(this.mat)));
  }

  /** Room for `runs` output runs (the output is rewritten from the start, so nothing is copied). */
  reserveRuns(runs: number): void {
    const n = Math.max(runs, this.out.y.length * 2);
    this.out = { y: new Int32Array(n), z: new Int32Array(n), x: new Int32Array(n), length: new Int32Array(n), value: new Uint32Array(n) };
  }
}

/** The (y, z) rows of a collector's bounds: row r is y = minY + ⌊r / sz⌋, z = minZ + r mod sz. */
interface RowGrid {
  readonly minX: number;
  readonly minY: number;
  readonly minZ: number;
  /** Extent along x (the paint buffer's length) and z. */
  readonly sx: number;
  readonly sz: number;
  readonly rows: number;
}

/**
 * Row-interval painting: every write is an x-interval of one (y, z) row, appended in emission
 * order (consecutive points of a row merge into one interval). `toRuns` groups intervals by row
 * with a stable counting sort; a row's intervals are swept in x order, a lone one emitted as it
 * is and a cluster of chained overlaps painted over its own range in emission order (later writes
 * win); a row with many intervals out of x order is painted whole. Palette intervals pick a row
 * at a time (pickRow). Cost follows intervals and rows, not the box volume.
 */
export function rowCollector(bounds: Box3, s: CollectorScratch): BlockCollector {
  return new RowCollector(bounds, s);
}

/** A class with plain fields (not closures over mutable variables): appends stay a few stores. */
class RowCollector implements BlockCollector, RowGrid {
  readonly minX: number;
  readonly minY: number;
  readonly minZ: number;
  readonly sx: number;
  readonly sz: number;
  readonly rows: number;
  private readonly materials: Material[] = [];
  private readonly materialId = new Map<Material, number>();
  private n = 0;
  private row: Int32Array;
  private x0: Int32Array;
  private x1: Int32Array;
  private value: Uint32Array;
  private mat: Int32Array;

  constructor(
    bounds: Box3,
    private readonly s: CollectorScratch,
  ) {
    ((this.minX = bounds.minX), (this.minY = bounds.minY), (this.minZ = bounds.minZ));
    ((this.sx = bounds.maxX - bounds.minX + 1), (this.sz = bounds.maxZ - bounds.minZ + 1));
    this.rows = (bounds.maxY - bounds.minY + 1) * this.sz;
    ((this.row = s.row), (this.x0 = s.x0), (this.x1 = s.x1), (this.value = s.value), (this.mat = s.mat));
  }

  private idOf(material: Material): number {
    let id = this.materialId.get(material);
    if (id === undefined) this.materialId.set(material, (id = this.materials.push(material)));
    return id;
  }

  private append(row: number, x0: number, x1: number, value: number, mat: number): void {
    const n = this.n;
    if (n === this.row.length) {
      this.s.growIntervals();
      ((this.row = this.s.row), (this.x0 = this.s.x0), (this.x1 = this.s.x1), (this.value = this.s.value), (this.mat = this.s.mat));
    }
    ((this.row[n] = row), (this.x0[n] = x0), (this.x1[n] = x1), (this.value[n] = value), (this.mat[n] = mat));
    this.n = n + 1;
  }

  put(x: number, y: number, z: number, value: number): void {
    const row = (y - this.minY) * this.sz + (z - this.minZ),
      last = this.n - 1;
    // Consecutive points of a row (either direction: mirrored frames emit x descending) extend it.
    if (last >= 0 && this.row[last] === row && this.value[last] === value && this.mat[last] === 0) {
      if (this.x1[last] === x - 1) return void (this.x1[last] = x);
      if (this.x0[last] === x + 1) return void (this.x0[last] = x);
    }
    this.append(row, x, x, value, 0);
  }

  putSpan(x0: number, x1: number, y: number, z: number, value: number): void {
    this.append((y - this.minY) * this.sz + (z - this.minZ), x0, x1, value, 0);
  }

  putSpanPalette(x0: number, x1: number, y: number, z: number, material: Material, shift: number): void {
    this.append((y - this.minY) * this.sz + (z - this.minZ), x0, x1, shift, this.idOf(material));
  }

  fillBox(box: Box3, value: number): void {
    this.fillRows(box, value, 0);
  }

  fillBoxPalette(box: Box3, material: Material, shift: number): void {
    this.fillRows(box, shift, this.idOf(material));
  }

  private fillRows(box: Box3, value: number, mat: number): void {
    // Box fields read once: boxes come in several object shapes (property loads in the loop would be megamorphic).
    const { sz, minY, minZ } = this;
    const x0 = box.minX,
      x1 = box.maxX,
      y0 = box.minY,
      y1 = box.maxY,
      z0 = box.minZ,
      z1 = box.maxZ;
    let n = this.n;
    const end = n + (y1 - y0 + 1) * (z1 - z0 + 1);
    while (this.row.length < end) {
      this.s.growIntervals();
      ((this.row = this.s.row), (this.x0 = this.s.x0), (this.x1 = this.s.x1), (this.value = this.s.value), (this.mat = this.s.mat));
    }
    const R = this.row,
      X0 = this.x0,
      X1 = this.x1,
      V = this.value,
      M = this.mat;
    for (let y = y0; y <= y1; y++) {
      const base = (y - minY) * sz - minZ;
      for (let z = z0; z <= z1; z++, n++) ((R[n] = base + z), (X0[n] = x0), (X1[n] = x1), (V[n] = value), (M[n] = mat));
    }
    this.n = n;
  }

  toRuns(): RawRuns {
    return rowRuns(this.s, this, this.n, this.materials);
  }
}

/**
 * Resolves the `n` intervals collected in `s` into maximal runs in (y, z, x) order, written to
 * `s.out`. Local state only (no closures over mutable variables: those would live in heap
 * contexts); the helpers take and return plain numbers. The compile benchmark measures it
 * (`bench/compile.bench.mjs`: box, hollow box, castle, repeat).
 */
function rowRuns(s: CollectorScratch, grid: RowGrid, n: number, materials: readonly Material[]): RawRuns {
  const { rows, sx, sz, minX, minY, minZ } = grid;
  const bound = sortByRow(s, rows, n);
  const counts = s.counts,
    order = s.order,
    X0 = s.x0,
    X1 = s.x1;
  if (s.paint.length < sx) ((s.paint = new Uint32Array(sx)), (s.picks = new Uint32Array(sx)));
  if (s.out.y.length < bound) s.reserveRuns(bound);
  const OY = s.out.y;
  let runs = 0,
    count = 0,
    start = 0,
    ry = 0,
    rz = -1;
  // Bounds of the runs: x from each row's first and last run, z from the rows with runs (y from the first and last run).
  const box = new Float64Array([Infinity, -Infinity, Infinity, -Infinity]);
  for (let r = 0; r < rows; r++) {
    if (++rz === sz) ((rz = 0), ry++);
    const end = counts[r]!;
    const k = end - start;
    if (k === 0) continue;
    const y = minY + ry,
      z = minZ + rz;
    const rowFirst = runs; // runs of this row start here (merging never crosses rows)
    // Intervals already in x order (rows of repeated copies) need no sort.
    let sorted = true;
    for (let a = start + 1; a < end && sorted; a++) sorted = X0[order[a]!]! >= X0[order[a - 1]!]!;
    if (!sorted && k > SORT_LIMIT) {
      // Many intervals out of order: paint the row in emission order.
      let lo = X0[order[start]!]!,
        hi = X1[order[start]!]!;
      for (let a = start + 1; a < end; a++) {
        const i = order[a]!;
        if (X0[i]! < lo) lo = X0[i]!;
        if (X1[i]! > hi) hi = X1[i]!;
      }
      runs = paintSpan(s, start, end, lo, hi, materials, minX, y, z, runs, rowFirst);
      for (let x = lo; x <= hi; x++) if (s.paint[x - minX] !== 0) count++;
    } else {
      if (!sorted) insertionSortByX(order, X0, start, end);
      // Sweep clusters of chained overlaps: a lone interval is emitted as it is, a cluster is painted
      // over its own x-range in emission order (later writes win).
      for (let a = start; a < end;) {
        let hi = X1[order[a]!]!,
          e = a + 1;
        while (e < end && X0[order[e]!]! <= hi) {
          if (X1[order[e]!]! > hi) hi = X1[order[e]!]!;
          e++;
        }
        if (e === a + 1) {
          const i = order[a]!;
          runs = emitLone(s, i, materials, y, z, runs, rowFirst);
          count += X1[i]! - X0[i]! + 1;
        } else {
          const lo = X0[order[a]!]!; // sorted by x: the cluster's first start is its lowest
          // Back to emission order within the cluster (indices ascend in emission order).
          insertionSortAscending(order, a, e);
          runs = paintSpan(s, a, e, lo, hi, materials, minX, y, z, runs, rowFirst);
          count += hi - lo + 1; // a chained cluster covers its whole range
        }
        a = e;
      }
    }
    if (runs > rowFirst) noteRowBounds(box, s, rowFirst, runs, z);
    start = end;
  }
  // Views of the scratch: the plan assembly copies them before the next compile reuses it.
  const bounds = runs === 0 ? undefined : { minX: box[0]!, minY: OY[0]!, minZ: box[2]!, maxX: box[1]!, maxY: OY[runs - 1]!, maxZ: box[3]! };
  return {
    y: OY.subarray(0, runs),
    z: s.out.z.subarray(0, runs),
    x: s.out.x.subarray(0, runs),
    length: s.out.length.subarray(0, runs),
    value: s.out.value.subarray(0, runs),
    count,
    ...(bounds ? { bounds } : {}),
  };
}

/**
 * Stable counting sort of the `n` intervals by row into `s.order`; `s.counts[r]` ends as the end of
 * row r's intervals. Returns the most runs the rows can give: 2 per interval, 1 per palette position.
 */
function sortByRow(s: CollectorScratch, rows: number, n: number): number {
  const R = s.row,
    X0 = s.x0,
    X1 = s.x1,
    M = s.mat;
  if (s.counts.length < rows + 1) s.counts = new Int32Array(rows + 1);
  const counts = s.counts;
  counts.fill(0, 0, rows + 1);
  let bound = 0;
  for (let i = 0; i < n; i++) {
    counts[R[i]! + 1]!++;
    bound += M[i] === 0 ? 2 : X1[i]! - X0[i]! + 2;
  }
  for (let r = 0; r < rows; r++) counts[r + 1]! += counts[r]!;
  if (s.order.length < n) s.order = new Int32Array(Math.max(n, s.order.length * 2));
  const order = s.order;
  for (let i = 0; i < n; i++) order[counts[R[i]!]!++] = i;
  return bound;
}

/** Insertion sort of `order[from, to)` by interval start (stable: equal starts keep emission order). */
function insertionSortByX(order: Int32Array, X0: Int32Array, from: number, to: number): void {
  for (let a = from + 1; a < to; a++) {
    const i = order[a]!,
      x = X0[i]!;
    let b = a - 1;
    while (b >= from && X0[order[b]!]! > x) ((order[b + 1] = order[b]!), b--);
    order[b + 1] = i;
  }
}

/** Insertion sort of `order[from, to)` by index, i.e. back to emission order. */
function insertionSortAscending(order: Int32Array, from: number, to: number): void {
  for (let c = from + 1; c < to; c++) {
    const i = order[c]!;
    let b = c - 1;
    while (b >= from && order[b]! > i) ((order[b + 1] = order[b]!), b--);
    order[b + 1] = i;
  }
}

/** Paints the intervals `order[from, to)` over x `lo..hi` in emission order and emits the painted runs; returns the run count. */
function paintSpan(
  s: CollectorScratch,
  from: number,
  to: number,
  lo: number,
  hi: number,
  materials: readonly Material[],
  minX: number,
  y: number,
  z: number,
  runs: number,
  rowFirst: number,
): number {
  paintRange(s.paint, lo - minX, hi - minX + 1, 0);
  for (let a = from; a < to; a++) paintInterval(s, s.order[a]!, materials, minX, y, z);
  return emitPainted(s, lo, hi, minX, y, z, runs, rowFirst);
}

/** Emits interval `i`, alone on its stretch of the row, as runs (merged into the row's last run where it continues it); returns the run count. */
function emitLone(s: CollectorScratch, i: number, materials: readonly Material[], y: number, z: number, runs: number, rowFirst: number): number {
  const OY = s.out.y,
    OZ = s.out.z,
    OX = s.out.x,
    OL = s.out.length,
    OV = s.out.value;
  const m = s.mat[i]!,
    x0 = s.x0[i]!,
    x1 = s.x1[i]!;
  if (m === 0) {
    const v = s.value[i]!,
      last = runs - 1;
    if (last >= rowFirst && OV[last] === v && OX[last]! + OL[last]! === x0) OL[last]! += x1 - x0 + 1;
    else ((OY[runs] = y), (OZ[runs] = z), (OX[runs] = x0), (OL[runs] = x1 - x0 + 1), (OV[runs] = v), runs++);
    return runs;
  }
  // A palette interval: its picks for the whole row at once, then runs of equal picks.
  const picks = s.picks;
  pickRow(materials[m - 1]!, x0, x1, y, z, s.value[i]!, picks);
  for (let x = x0; x <= x1;) {
    const v = picks[x - x0]!;
    let e = x + 1;
    while (e <= x1 && picks[e - x0] === v) e++;
    const last = runs - 1;
    if (last >= rowFirst && OV[last] === v && OX[last]! + OL[last]! === x) OL[last]! += e - x;
    else ((OY[runs] = y), (OZ[runs] = z), (OX[runs] = x), (OL[runs] = e - x), (OV[runs] = v), runs++);
    x = e;
  }
  return runs;
}

/** Widens `box` (minX, maxX, minZ, maxZ) by the runs `rowFirst..runs-1` of one row at `z`. */
function noteRowBounds(box: Float64Array, s: CollectorScratch, rowFirst: number, runs: number, z: number): void {
  const OX = s.out.x,
    OL = s.out.length;
  box[0] = Math.min(box[0]!, OX[rowFirst]!);
  box[1] = Math.max(box[1]!, OX[runs - 1]! + OL[runs - 1]! - 1);
  box[2] = Math.min(box[2]!, z);
  box[3] = Math.max(box[3]!, z);
}

/** Sets paint[from, to) to `v` (TypedArray#fill has a fixed call cost that dominates short ranges). */
function paintRange(paint: Uint32Array, from: number, to: number, v: number): void {
  if (to - from >= 32) paint.fill(v, from, to);
  else for (let x = from; x < to; x++) paint[x] = v;
}

/** Paints interval i of `s` into `s.paint` (x relative to minX) in row (y, z). */
function paintInterval(s: CollectorScratch, i: number, materials: readonly Material[], minX: number, y: number, z: number): void {
  const paint = s.paint,
    X0 = s.x0,
    X1 = s.x1,
    V = s.value,
    m = s.mat[i]!;
  if (m === 0) return paintRange(paint, X0[i]! - minX, X1[i]! - minX + 1, V[i]!);
  pickRow(materials[m - 1]!, X0[i]!, X1[i]!, y, z, V[i]!, paint.subarray(X0[i]! - minX));
}

/**
 * Emits the cells lo..hi of `s.paint` (row y, z; 0 = not written) as runs appended to `s.out` after
 * `runs`, merging with the row's last run (runs of this row start at `rowFirst`); returns the new
 * run count. Measured by `bench/compile.bench.mjs` (castle, palette castle).
 */
function emitPainted(s: CollectorScratch, lo: number, hi: number, minX: number, y: number, z: number, runs: number, rowFirst: number): number {
  const paint = s.paint,
    OY = s.out.y,
    OZ = s.out.z,
    OX = s.out.x,
    OL = s.out.length,
    OV = s.out.value;
  for (let x = lo; x <= hi;) {
    const v = paint[x - minX]!;
    let e = x + 1;
    while (e <= hi && paint[e - minX] === v) e++;
    if (v !== 0) {
      const last = runs - 1;
      if (last >= rowFirst && OV[last] === v && OX[last]! + OL[last]! === x) OL[last]! += e - x;
      else ((OY[runs] = y), (OZ[runs] = z), (OX[runs] = x), (OL[runs] = e - x), (OV[runs] = v), runs++);
    }
    x = e;
  }
  return runs;
}
