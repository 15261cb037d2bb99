/**
 * Runs of a typed array of 32-bit values, for storing plans compactly: `[count, v1..vS]` words, a
 * run of `count` equal groups of `S` (the stride) values. With `delta`, the groups are the
 * differences from the group before (the first from zeros): a box's positions in (y, z, x) order
 * are a few runs per row. Null when the runs would not be smaller than the array itself.
 */
export function packRuns(a: Int32Array | Uint32Array, stride: number, delta: boolean): Int32Array | null {
  const groups = a.length / stride;
  const limit = Math.max(0, a.length - 1); // a result this long or longer is no gain
  let out = new Int32Array(Math.min(limit, 4096)); // grown as needed: runs are usually few
  const prev = new Int32Array(stride);
  const cur = new Int32Array(stride);
  let n = 0,
    runStart = -1;
  for (let g = 0; g < groups; g++) {
    let same = runStart >= 0;
    for (let k = 0; k < stride; k++) {
      const v = a[g * stride + k]! | 0;
      const c = delta ? (v - prev[k]!) | 0 : v;
      cur[k] = c;
      prev[k] = v;
      if (same && out[runStart + 1 + k] !== c) same = false;
    }
    if (same) {
      out[runStart]!++;
      continue;
    }
    if (n + 1 + stride > out.length) {
      if (n + 1 + stride > limit) return null;
      const grown = new Int32Array(Math.min(limit, out.length * 2 + 1 + stride));
      grown.set(out);
      out = grown;
    }
    runStart = n;
    out[n++] = 1;
    for (let k = 0; k < stride; k++) out[n++] = cur[k]!;
  }
  return out.slice(0, n);
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
