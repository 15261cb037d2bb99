import { boundsOf, posKey, type Box3 } from "@mcb/blocks";
import { RunPacker } from "../core/PackedRuns.js";

/**
 * Positions inside bounds, numbered in the (y, z, x) order masks are sorted in: a position's
 * number (its key) is its offset in the bounds, so sorted keys are a sorted mask.
 */
export interface Grid extends Box3 {
  readonly sx: number;
  readonly sz: number;
  /** How many places the bounds hold. */
  readonly volume: number;
  /** A position's key, or -1 outside the bounds. */
  readonly key: (x: number, y: number, z: number) => number;
}

export function gridOf(b: Box3): Grid {
  const { minX, minY, minZ, maxX, maxY, maxZ } = b;
  const sx = maxX - minX + 1,
    sz = maxZ - minZ + 1;
  const volume = sx * sz * (maxY - minY + 1);
  const key = (x: number, y: number, z: number): number =>
    x < minX || x > maxX || y < minY || y > maxY || z < minZ || z > maxZ ? -1 : ((y - minY) * sz + (z - minZ)) * sx + (x - minX);
  return { minX, minY, minZ, maxX, maxY, maxZ, sx, sz, volume, key };
}

/**
 * Whether `count` positions in `grid` are kept as a bit a place (at most 2 bytes a position,
 * against 8 for a sorted key each, and no sort): when the bounds hold at most 16 places a position.
 */
export function isDense(grid: Grid, count: number): boolean {
  return grid.volume <= 16 * count && grid.volume < 2 ** 31;
}

/** Bits set in a 32-bit word. */
function popcount(w: number): number {
  let v = w - ((w >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The bit map of `grid` of the positions `visit` gives (in any order, repeats allowed). */
function bitsOf(grid: Grid, visit: (emit: (x: number, y: number, z: number) => void) => void): Uint32Array {
  const bits = new Uint32Array(Math.ceil(grid.volume / 32));
  const key = grid.key;
  visit((x, y, z) => {
    const k = key(x, y, z);
    if (k < 0) throw new Error(`position ${x},${y},${z} is outside the grid it was counted in`);
    bits[k >>> 5]! |= 1 << (k & 31);
  });
  return bits;
}

/** Calls `each` with the positions of a bit map of `grid`, in key order: sorted by (y, z, x). */
function eachBit(grid: Grid, bits: Uint32Array, each: (x: number, y: number, z: number) => void): void {
  const { sx, sz, minX, minY, minZ } = grid;
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]! | 0;
    while (word !== 0) {
      const k = w * 32 + (31 - Math.clz32(word & -word));
      word &= word - 1;
      const x = k % sx,
        rest = (k - x) / sx;
      const z = rest % sz;
      each(minX + x, minY + (rest - z) / sz, minZ + z);
    }
  }
}

/**
 * A mask (sorted by (y, z, x), each position once) and its set from the positions `visit` gives
 * (in any order, repeats allowed), through a bit map of `grid` (`isDense`): no sort, no key list.
 */
export function denseMaskAndSet(
  grid: Grid,
  visit: (emit: (x: number, y: number, z: number) => void) => void,
): { readonly mask: Int32Array; readonly set: PositionSet } {
  const bits = bitsOf(grid, visit);
  let count = 0;
  for (let w = 0; w < bits.length; w++) if (bits[w] !== 0) count += popcount(bits[w]!);
  const mask = new Int32Array(count * 3);
  let n = 0;
  eachBit(grid, bits, (x, y, z) => {
    mask[n++] = x;
    mask[n++] = y;
    mask[n++] = z;
  });
  return { mask, set: PositionSet.fromBits(bits, grid.key) };
}

/**
 * `denseMaskAndSet` with the mask as it is stored (`packRuns` of its triples, stride 3, deltas)
 * and never as triples: a box of ten million blocks is a few thousand runs, not 120 MB. With
 * the count and tight bounds of the positions.
 */
export function denseRunsAndSet(
  grid: Grid,
  visit: (emit: (x: number, y: number, z: number) => void) => void,
): { readonly runs: Int32Array; readonly count: number; readonly bounds: Box3 | null; readonly set: PositionSet } {
  const bits = bitsOf(grid, visit);
  const packer = new RunPacker(3, true);
  const p = new Int32Array(3);
  let count = 0,
    minX = Infinity,
    minZ = Infinity,
    maxX = -Infinity,
    maxZ = -Infinity,
    minY = 0,
    maxY = 0;
  eachBit(grid, bits, (x, y, z) => {
    if (count++ === 0) minY = y;
    maxY = y;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
    ((p[0] = x), (p[1] = y), (p[2] = z));
    packer.push(p);
  });
  const bounds = count === 0 ? null : { minX, minY, minZ, maxX, maxY, maxZ };
  return { runs: packer.finish(), count, bounds, set: PositionSet.fromBits(bits, grid.key) };
}

/**
 * Membership of positions without a string per position: a bit map of their bounds when they fill
 * them enough (`isDense`), else a binary search over sorted numeric keys, else (bounds too large
 * for exact keys) strings.
 */
export class PositionSet {
  private constructor(
    private readonly key: ((x: number, y: number, z: number) => number) | null,
    private readonly sorted: Float64Array | null,
    private readonly bits: Uint32Array | null,
    private readonly strings: ReadonlySet<string> | null,
  ) {}

  /** Keys already sorted and unique, with the key function that made them. */
  static fromSortedKeys(sorted: Float64Array, key: (x: number, y: number, z: number) => number): PositionSet {
    return new PositionSet(key, sorted, null, null);
  }

  /** A bit map of a grid (bit k: the position of key k), with the grid's key function. */
  static fromBits(bits: Uint32Array, key: (x: number, y: number, z: number) => number): PositionSet {
    return new PositionSet(key, null, bits, null);
  }

  static fromStrings(strings: ReadonlySet<string>): PositionSet {
    return new PositionSet(null, null, null, strings);
  }

  /** The positions of flat x, y, z triples (any order, repeats allowed). */
  static of(triples: Int32Array | readonly number[]): PositionSet {
    const b = boundsOf(triples);
    if (b === null) return new PositionSet(() => -1, new Float64Array(0), null, null);
    const grid = gridOf(b);
    const n = triples.length / 3;
    const visit = (emit: (x: number, y: number, z: number) => void): void => {
      for (let i = 0; i < triples.length; i += 3) emit(triples[i]!, triples[i + 1]!, triples[i + 2]!);
    };
    if (isDense(grid, n)) return PositionSet.fromBits(bitsOf(grid, visit), grid.key);
    if (grid.volume > Number.MAX_SAFE_INTEGER) {
      const strings = new Set<string>();
      visit((x, y, z) => strings.add(posKey(x, y, z)));
      return PositionSet.fromStrings(strings);
    }
    const keys = new Float64Array(n);
    let k = 0;
    visit((x, y, z) => (keys[k++] = grid.key(x, y, z)));
    return PositionSet.fromSortedKeys(keys.sort(), grid.key);
  }

  has(x: number, y: number, z: number): boolean {
    if (this.strings !== null) return this.strings.has(posKey(x, y, z));
    const k = this.key!(x, y, z);
    if (k < 0) return false;
    if (this.bits !== null) return ((this.bits[k >>> 5]! >>> (k & 31)) & 1) === 1;
    const s = this.sorted!;
    let lo = 0,
      hi = s.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = s[mid]!;
      if (v === k) return true;
      if (v < k) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}
