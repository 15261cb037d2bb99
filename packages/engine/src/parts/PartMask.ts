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
  const mask = sortedMask(points);
  const { retired: _retired, ...rest } = p;
  return { ...rest, mask, bounds: boundsOf(mask) ?? p.bounds, revision: (p.revision ?? 1) + 1, ...(points.length === 0 ? { retired: true } : {}) };
}
