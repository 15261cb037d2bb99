import { boundsOf, posKey } from "@mcb/blocks";
import type { PartRecord } from "../store/Journal.js";

/** A part's exact mask: (x, y, z) triples sorted by (y, z, x). */
export function sortedMask(points: [number, number, number][]): Int32Array {
  points.sort((a, b) => a[1] - b[1] || a[2] - b[2] || a[0] - b[0]);
  const mask = new Int32Array(points.length * 3);
  points.forEach((p, i) => mask.set(p, i * 3));
  return mask;
}

/** The positions of a mask (or any flat triple list) as points. */
export function maskPoints(mask: ArrayLike<number>): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let i = 0; i < mask.length; i += 3) out.push([mask[i]!, mask[i + 1]!, mask[i + 2]!]);
  return out;
}

/** The positions of a mask as `posKey` strings. */
export function maskKeys(mask: ArrayLike<number>): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < mask.length; i += 3) out.add(posKey(mask[i]!, mask[i + 1]!, mask[i + 2]!));
  return out;
}

/** The part holding exactly `points` from now on: one more revision, retired when empty (active again when not). */
export function withMask(p: PartRecord, points: [number, number, number][]): PartRecord {
  return withSortedMask(p, sortedMask(points));
}

/** `withMask` of a mask already sorted by (y, z, x), each position once. */
export function withSortedMask(p: PartRecord, mask: Int32Array): PartRecord {
  const { retired: _retired, ...rest } = p;
  return { ...rest, mask, bounds: boundsOf(mask) ?? p.bounds, revision: (p.revision ?? 1) + 1, ...(mask.length === 0 ? { retired: true } : {}) };
}

/**
 * Positions (flat x, y, z triples) as numbers: each its offset in the (y, z, x) order of the
 * positions' bounds, which sorts them as masks are sorted. Null when the bounds are too large for
 * exact offsets (over 2^53 positions: then callers use strings).
 */
function offsetsOf(triples: Int32Array | readonly number[]): { readonly keys: Float64Array; readonly key: (x: number, y: number, z: number) => number } | null {
  const b = boundsOf(triples);
  if (b === null) return { keys: new Float64Array(0), key: () => -1 };
  const sx = b.maxX - b.minX + 1,
    sz = b.maxZ - b.minZ + 1,
    sy = b.maxY - b.minY + 1;
  if (sx * sz * sy > Number.MAX_SAFE_INTEGER) return null;
  const key = (x: number, y: number, z: number): number =>
    x < b.minX || x > b.maxX || y < b.minY || y > b.maxY || z < b.minZ || z > b.maxZ ? -1 : ((y - b.minY) * sz + (z - b.minZ)) * sx + (x - b.minX);
  const keys = new Float64Array(triples.length / 3);
  for (let i = 0; i < keys.length; i++) keys[i] = key(triples[i * 3]!, triples[i * 3 + 1]!, triples[i * 3 + 2]!);
  return { keys, key };
}

/**
 * A mask from positions that may repeat and come in any order: sorted by (y, z, x), each once.
 * Numeric keys and a typed sort, no object or string per position (a 1,000,000-block paste
 * becomes a part in tens of milliseconds).
 */
export function maskOf(triples: Int32Array | readonly number[]): Int32Array {
  return maskAndSet(triples).mask;
}

/** `maskOf`, and its positions as a `PositionSet` sharing the sorted keys (no second copy or sort). */
export function maskAndSet(triples: Int32Array | readonly number[]): { readonly mask: Int32Array; readonly set: PositionSet } {
  const o = offsetsOf(triples);
  if (o === null) {
    const seen = new Set<string>();
    const points: [number, number, number][] = [];
    for (let i = 0; i < triples.length; i += 3) {
      const k = posKey(triples[i]!, triples[i + 1]!, triples[i + 2]!);
      if (!seen.has(k)) (seen.add(k), points.push([triples[i]!, triples[i + 1]!, triples[i + 2]!]));
    }
    const mask = sortedMask(points);
    return { mask, set: PositionSet.of(mask) };
  }
  if (o.keys.length === 0) return { mask: new Int32Array(0), set: PositionSet.of([]) };
  const sorted = o.keys.sort();
  // Positions back from their keys: the bounds give x, y, z again.
  const b = boundsOf(triples)!;
  const sx = b.maxX - b.minX + 1,
    sz = b.maxZ - b.minZ + 1;
  const out = new Int32Array(sorted.length * 3);
  let n = 0,
    u = 0;
  for (let i = 0; i < sorted.length; i++) {
    const k = sorted[i]!;
    if (i > 0 && k === sorted[i - 1]) continue;
    sorted[u++] = k; // the unique keys, in place: the set's
    const x = k % sx,
      rest = (k - x) / sx;
    const z = rest % sz;
    out[n++] = b.minX + x;
    out[n++] = b.minY + (rest - z) / sz;
    out[n++] = b.minZ + z;
  }
  return { mask: n === out.length ? out : out.slice(0, n), set: PositionSet.fromSortedKeys(sorted.subarray(0, u), o.key) };
}

/** Membership of positions without a string per position (binary search over sorted numeric keys). */
export class PositionSet {
  private constructor(
    private readonly sorted: Float64Array | null,
    private readonly key: ((x: number, y: number, z: number) => number) | null,
    private readonly strings: ReadonlySet<string> | null,
  ) {}

  /** Keys already sorted and unique (`maskAndSet`'s), with the key function that made them. */
  static fromSortedKeys(sorted: Float64Array, key: (x: number, y: number, z: number) => number): PositionSet {
    return new PositionSet(sorted, key, null);
  }

  /** A mask's positions (sorted by (y, z, x), each once, as `maskOf` gives them): their keys come sorted, no sort needed. */
  static ofMask(mask: Int32Array): PositionSet {
    const o = offsetsOf(mask);
    return o === null ? new PositionSet(null, null, maskKeys(mask)) : new PositionSet(o.keys, o.key, null);
  }

  static of(triples: Int32Array | readonly number[]): PositionSet {
    const o = offsetsOf(triples);
    return o === null ? new PositionSet(null, null, maskKeys(triples)) : new PositionSet(o.keys.sort(), o.key, null);
  }

  has(x: number, y: number, z: number): boolean {
    if (this.strings !== null) return this.strings.has(posKey(x, y, z));
    const k = this.key!(x, y, z);
    if (k < 0) return false;
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

/** Flat x, y, z triples collected without an object per position. */
export class TripleList {
  private buf: Int32Array;
  private n = 0;

  /** `expected`: positions it will likely hold (it grows past them if needed). */
  constructor(expected = 1024) {
    this.buf = new Int32Array(3 * Math.max(1, expected));
  }

  push(x: number, y: number, z: number): void {
    if (this.n + 3 > this.buf.length) {
      const grown = new Int32Array(this.buf.length * 2);
      grown.set(this.buf);
      this.buf = grown;
    }
    this.buf[this.n++] = x;
    this.buf[this.n++] = y;
    this.buf[this.n++] = z;
  }

  get length(): number {
    return this.n / 3;
  }

  get triples(): Int32Array {
    return this.buf.subarray(0, this.n);
  }
}

/**
 * `maskAndSet` of the positions `visit` gives (it is called twice, giving the same positions: once
 * for their bounds, once for their keys), without a list of them: 8 bytes a position beside the
 * mask instead of 20 (a ten-million-block part: 80 MB, not 200). `count`: how many positions
 * `visit` gives at most.
 */
export function maskOfVisits(
  visit: (emit: (x: number, y: number, z: number) => void) => void,
  count: number,
): { readonly mask: Int32Array; readonly set: PositionSet } {
  let minX = Infinity,
    minY = Infinity,
    minZ = Infinity,
    maxX = -Infinity,
    maxY = -Infinity,
    maxZ = -Infinity,
    n = 0;
  visit((x, y, z) => {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
    n++;
  });
  const sx = maxX - minX + 1,
    sz = maxZ - minZ + 1;
  if (n === 0 || n > count || sx * sz * (maxY - minY + 1) > Number.MAX_SAFE_INTEGER) {
    const list = new TripleList(n);
    visit((x, y, z) => list.push(x, y, z));
    return maskAndSet(list.triples);
  }
  const keys = new Float64Array(n);
  let k = 0;
  visit((x, y, z) => {
    keys[k++] = ((y - minY) * sz + (z - minZ)) * sx + (x - minX);
  });
  keys.sort();
  let u = 0;
  for (let i = 0; i < n; i++) if (i === 0 || keys[i] !== keys[i - 1]) keys[u++] = keys[i]!;
  const unique = keys.subarray(0, u);
  const mask = new Int32Array(u * 3);
  for (let i = 0; i < u; i++) {
    const key = unique[i]!;
    const x = key % sx,
      rest = (key - x) / sx;
    const z = rest % sz;
    mask[i * 3] = minX + x;
    mask[i * 3 + 1] = minY + (rest - z) / sz;
    mask[i * 3 + 2] = minZ + z;
  }
  const key = (x: number, y: number, z: number): number =>
    x < minX || x > maxX || y < minY || y > maxY || z < minZ || z > maxZ ? -1 : ((y - minY) * sz + (z - minZ)) * sx + (x - minX);
  return { mask, set: PositionSet.fromSortedKeys(unique, key) };
}
