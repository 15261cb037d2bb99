import { boundsOf, posKey, type Box3 } from "@mcb/blocks";
import { denseMaskAndSet, gridOf, isDense, PositionSet } from "./PositionSet.js";
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
 * `maskAndSet` of the positions `visit` gives, without a list of them. `known`: bounds holding
 * every position it gives and how many it gives at most; without it, `visit` is called twice
 * (giving the same positions: once for their bounds, once for their places). When the positions
 * fill their bounds enough, a bit a place (a 216³ cube of ten million blocks: 1.3 MB beside its
 * mask, and no sort); else a sorted numeric key each (8 bytes a position); strings only when the
 * bounds are too large for exact keys.
 */
export function maskOfVisits(
  visit: (emit: (x: number, y: number, z: number) => void) => void,
  known?: { readonly bounds: Box3; readonly count: number },
): {
  readonly mask: Int32Array;
  readonly set: PositionSet;
} {
  const { bounds, count: n } = known ?? boundsAndCount(visit);
  if (n === 0) return { mask: new Int32Array(0), set: PositionSet.of([]) };
  const grid = gridOf(bounds);
  if (isDense(grid, n)) return denseMaskAndSet(grid, visit);
  if (grid.volume > Number.MAX_SAFE_INTEGER) {
    const seen = new Set<string>();
    const points: [number, number, number][] = [];
    visit((x, y, z) => {
      const k = posKey(x, y, z);
      if (!seen.has(k)) (seen.add(k), points.push([x, y, z]));
    });
    return { mask: sortedMask(points), set: PositionSet.fromStrings(seen) };
  }
  const all = new Float64Array(n);
  let k = 0;
  visit((x, y, z) => {
    const key = grid.key(x, y, z);
    if (key < 0) throw new Error(`position ${x},${y},${z} is outside the bounds it was counted in`);
    if (k < n) all[k++] = key;
  });
  const keys = all.subarray(0, k).sort();
  let u = 0;
  for (let i = 0; i < k; i++) if (i === 0 || keys[i] !== keys[i - 1]) keys[u++] = keys[i]!;
  const unique = keys.subarray(0, u);
  const mask = new Int32Array(u * 3);
  const { sx, sz, minX, minY, minZ } = grid;
  for (let i = 0; i < u; i++) {
    const key = unique[i]!;
    const x = key % sx,
      rest = (key - x) / sx;
    const z = rest % sz;
    mask[i * 3] = minX + x;
    mask[i * 3 + 1] = minY + (rest - z) / sz;
    mask[i * 3 + 2] = minZ + z;
  }
  return { mask, set: PositionSet.fromSortedKeys(unique, grid.key) };
}

/** The bounds of the positions `visit` gives, and how many it gives. */
function boundsAndCount(visit: (emit: (x: number, y: number, z: number) => void) => void): { bounds: Box3; count: number } {
  let minX = Infinity,
    minY = Infinity,
    minZ = Infinity,
    maxX = -Infinity,
    maxY = -Infinity,
    maxZ = -Infinity,
    count = 0;
  visit((x, y, z) => {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
    count++;
  });
  return { bounds: { minX, minY, minZ, maxX, maxY, maxZ }, count };
}
