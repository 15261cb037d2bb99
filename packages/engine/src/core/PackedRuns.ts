/**
 * Runs of a typed array of 32-bit values, for storing plans compactly: `[count, v1..vS]` words, a
 * run of `count` equal groups of `S` (the stride) values. With `delta`, the groups are the
 * differences from the group before (the first from zeros): a box's positions in (y, z, x) order
 * are a few runs per row. Null when the runs would not be smaller than the array itself.
 */
export function packRuns(a: Int32Array | Uint32Array, stride: number, delta: boolean): Int32Array | null {
  const packer = new RunPacker(stride, delta, Math.max(0, a.length - 1)); // a result this long or longer is no gain
  const group = new Int32Array(stride);
  for (let g = 0; g < a.length / stride; g++) {
    for (let k = 0; k < stride; k++) group[k] = a[g * stride + k]! | 0;
    if (!packer.push(group)) return null;
  }
  return packer.finish();
}

/** `packRuns` fed one group at a time (no array of the groups needed). */
export class RunPacker {
  private out: Int32Array;
  private readonly prev: Int32Array;
  private readonly cur: Int32Array;
  private n = 0;
  private runStart = -1;

  /** `limit`: the longest result worth having (`push` answers false past it). */
  constructor(
    private readonly stride: number,
    private readonly delta: boolean,
    private readonly limit: number = Infinity,
  ) {
    this.out = new Int32Array(Math.min(limit, 4096)); // grown as needed: runs are usually few
    this.prev = new Int32Array(stride);
    this.cur = new Int32Array(stride);
  }

  /** Adds one group of `stride` values; false when the runs grew past the limit. */
  push(group: ArrayLike<number>): boolean {
    const { stride, out, prev, cur } = this;
    let same = this.runStart >= 0;
    for (let k = 0; k < stride; k++) {
      const v = group[k]! | 0;
      const c = this.delta ? (v - prev[k]!) | 0 : v;
      cur[k] = c;
      prev[k] = v;
      if (same && out[this.runStart + 1 + k] !== c) same = false;
    }
    if (same) {
      out[this.runStart]!++;
      return true;
    }
    if (this.n + 1 + stride > out.length) {
      if (this.n + 1 + stride > this.limit) return false;
      const grown = new Int32Array(Math.min(this.limit, out.length * 2 + 1 + stride));
      grown.set(out);
      this.out = grown;
    }
    this.runStart = this.n;
    this.out[this.n++] = 1;
    for (let k = 0; k < stride; k++) this.out[this.n++] = cur[k]!;
    return true;
  }

  finish(): Int32Array {
    return this.out.slice(0, this.n);
  }
}

/** The array `packRuns` packed, `length` values; throws when the runs do not give exactly that many. */
export function unpackRuns<T extends Int32Array | Uint32Array>(runs: Int32Array, stride: number, delta: boolean, out: T): T {
  const prev = new Int32Array(stride);
  let at = 0;
  for (let r = 0; r < runs.length; r += 1 + stride) {
    const count = runs[r]!;
    if (count < 1 || r + stride >= runs.length || at + count * stride > out.length) throw new Error("stored plan: malformed runs");
    for (let c = 0; c < count; c++)
      for (let k = 0; k < stride; k++) {
        const v = delta ? (prev[k]! + runs[r + 1 + k]!) | 0 : runs[r + 1 + k]!;
        prev[k] = v;
        out[at++] = v;
      }
  }
  if (at !== out.length) throw new Error("stored plan: runs do not fill the array");
  return out;
}
