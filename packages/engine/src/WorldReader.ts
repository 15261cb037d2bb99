import type { Box3 } from "@mcb/recipe";
import { boundsOf } from "./Geometry.js";
import { MAX_ADAPTER_READ, type WorldAdapter } from "./WorldAdapter.js";

export interface PositionsRead {
  readonly states: string[];
  /** Block-entity digest per position, null for plain blocks. */
  readonly digests: (string | null)[];
}

/**
 * Reads arbitrary positions (triples `pos[from*3 .. to*3)`): one box read of their bounds when that
 * box is compact (at most 4096 positions or 8 per requested one, within the adapter limit: a slice
 * of a plan is one read, one round trip to a server), else one box read per touched 16³ section,
 * each box the bounds of the requested positions in that section (≤ 4096 positions).
 */
export async function readPositions(adapter: WorldAdapter, pos: Int32Array, from = 0, to = pos.length / 3): Promise<PositionsRead> {
  const n = to - from;
  if (n > 0) {
    const whole = boundsOf(pos, from, to)!;
    const volume = (whole.maxX - whole.minX + 1) * (whole.maxY - whole.minY + 1) * (whole.maxZ - whole.minZ + 1);
    if (volume <= MAX_ADAPTER_READ && volume <= Math.max(4096, 8 * n)) return readInBox(adapter, pos, from, to, whole);
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const o = (from + i) * 3;
    // Section coordinates: |x|,|z| ≤ 30M → ±2^21 sections; y ≤ ±2048 → ±2^7: the key stays below 2^53, exact.
    const key = (((pos[o]! >> 4) + 2 ** 21) * 2 ** 9 + ((pos[o + 1]! >> 4) + 2 ** 8)) * 2 ** 22 + ((pos[o + 2]! >> 4) + 2 ** 21);
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = []));
    g.push(i);
  }
  const states = new Array<string>(n);
  const digests = new Array<string | null>(n).fill(null);
  for (const g of groups.values()) {
    const triples = new Int32Array(g.length * 3);
    g.forEach((i, k) => triples.set(pos.subarray((from + i) * 3, (from + i) * 3 + 3), k * 3));
    const { minX, minY, minZ, maxX, maxY, maxZ } = boundsOf(triples)!;
    const r = await adapter.read({ minX, minY, minZ, maxX, maxY, maxZ });
    const sx = maxX - minX + 1;
    const sz = maxZ - minZ + 1;
    for (const i of g) {
      const o = (from + i) * 3;
      const k = ((pos[o + 1]! - minY) * sz + (pos[o + 2]! - minZ)) * sx + (pos[o]! - minX);
      states[i] = r.palette[r.states[k]!]!;
      digests[i] = r.digests.get(k) ?? null;
    }
  }
  return { states, digests };
}

async function readInBox(adapter: WorldAdapter, pos: Int32Array, from: number, to: number, box: Box3): Promise<PositionsRead> {
  const n = to - from;
  const r = await adapter.read(box);
  const sx = box.maxX - box.minX + 1;
  const sz = box.maxZ - box.minZ + 1;
  const states = new Array<string>(n);
  const digests = new Array<string | null>(n).fill(null);
  for (let i = 0; i < n; i++) {
    const o = (from + i) * 3;
    const k = ((pos[o + 1]! - box.minY) * sz + (pos[o + 2]! - box.minZ)) * sx + (pos[o]! - box.minX);
    states[i] = r.palette[r.states[k]!]!;
    digests[i] = r.digests.get(k) ?? null;
  }
  return { states, digests };
}
