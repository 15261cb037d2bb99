import { MAX_ADAPTER_READ, type WorldAdapter, type WriteRefusal } from "./WorldAdapter.js";
import { boundsOf, type Box3 } from "@mcb/blocks";

export interface PositionsRead {
  readonly states: string[];
  /** Block-entity digest per position, null for plain blocks. */
  readonly digests: (string | null)[];
}

/**
 * Reads arbitrary positions (triples `pos[from*3 .. to*3)`): one box read of their bounds when that
 * box is compact (at most 4096 positions or 8 per requested one, within the adapter limit: a slice
 * of a plan is one read, one round trip to a server); a dense set larger than one read (a whole
 * plan's precheck) in slabs of whole layers of its bounds, each at most the adapter limit; else
 * one box read per touched 16³ section, each box the bounds of the requested positions in that
 * section (≤ 4096 positions).
 */
/** Chunks a world refused in reads ("cx,cz" → the refusal), for prepare's up-front check. */
export type RefusalSink = Map<string, WriteRefusal>;

export async function readPositions(adapter: WorldAdapter, pos: Int32Array, from = 0, to = pos.length / 3, sink?: RefusalSink): Promise<PositionsRead> {
  const n = to - from;
  const out: PositionsRead = { states: new Array<string>(n), digests: new Array<string | null>(n).fill(null) };
  if (n === 0) return out;
  const whole = boundsOf(pos, from, to)!;
  const volume = (whole.maxX - whole.minX + 1) * (whole.maxY - whole.minY + 1) * (whole.maxZ - whole.minZ + 1);
  if (volume <= MAX_ADAPTER_READ && volume <= Math.max(4096, 8 * n)) {
    await readInto(
      adapter,
      pos,
      from,
      Array.from({ length: n }, (_, i) => i),
      whole,
      out,
      sink,
    );
    return out;
  }
  const layer = (whole.maxX - whole.minX + 1) * (whole.maxZ - whole.minZ + 1);
  if (volume <= 8 * n && layer <= MAX_ADAPTER_READ) {
    // Dense: slabs of whole layers, each one read of at most MAX_ADAPTER_READ positions.
    const height = Math.floor(MAX_ADAPTER_READ / layer);
    const slabs: number[][] = [];
    for (let i = 0; i < n; i++) {
      const k = Math.floor((pos[(from + i) * 3 + 1]! - whole.minY) / height);
      (slabs[k] ??= []).push(i);
    }
    // The slabs are read at once (a server answers them one game-thread job after another).
    await Promise.all(
      [...slabs.entries()].map(([k, offsets]) => {
        if (offsets === undefined) return undefined;
        const minY = whole.minY + k * height;
        return readInto(adapter, pos, from, offsets, { ...whole, minY, maxY: Math.min(whole.maxY, minY + height - 1) }, out, sink);
      }),
    );
    return out;
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
  for (const g of groups.values()) {
    const triples = new Int32Array(g.length * 3);
    g.forEach((i, k) => triples.set(pos.subarray((from + i) * 3, (from + i) * 3 + 3), k * 3));
    await readInto(adapter, pos, from, g, boundsOf(triples)!, out, sink);
  }
  return out;
}

/** One box read; fills `out` at the given offsets (positions `from + i`, all inside `box`). */
async function readInto(
  adapter: WorldAdapter,
  pos: Int32Array,
  from: number,
  offsets: readonly number[],
  box: Box3,
  out: PositionsRead,
  sink: RefusalSink | undefined,
): Promise<void> {
  const r = await adapter.read(box);
  if (sink !== undefined) for (const u of r.unwritable ?? []) sink.set(`${u.chunk.x},${u.chunk.z}`, u);
  const sx = box.maxX - box.minX + 1;
  const sz = box.maxZ - box.minZ + 1;
  for (const i of offsets) {
    const o = (from + i) * 3;
    const k = ((pos[o + 1]! - box.minY) * sz + (pos[o + 2]! - box.minZ)) * sx + (pos[o]! - box.minX);
    out.states[i] = r.palette[r.states[k]!]!;
    out.digests[i] = r.digests.get(k) ?? null;
  }
}
