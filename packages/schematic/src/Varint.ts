/**
 * Sponge `BlockData`: palette indices as unsigned LEB128 varints (at most 5 bytes each), each
 * below `bound` (the palette size). Returns the number of values decoded into `out`, or an error
 * string for corrupt data.
 */
export function decodeVarints(bytes: Uint8Array, out: Uint8Array | Uint16Array | Uint32Array, bound = 0x100000000): number | string {
  const len = bytes.length;
  let n = 0;
  let i = 0;
  while (i < len) {
    let b = bytes[i++]!;
    let value = b & 0x7f;
    if (b & 0x80) {
      let shift = 7;
      do {
        if (i >= len) return `truncated varint at byte ${i}`;
        if (shift > 28) return `varint longer than 5 bytes at byte ${i}`;
        b = bytes[i++]!;
        value |= (b & 0x7f) << shift;
        shift += 7;
      } while (b & 0x80);
      value >>>= 0;
    }
    if (n >= out.length) return `more than ${out.length} values`;
    if (value >= bound) return `palette index ${value} at position ${n} is out of range`;
    out[n++] = value;
  }
  return n;
}

/**
 * Block data of exactly one byte per position is one-byte varints or a malformed file (a longer
 * varint would leave fewer values than positions), so it is used as it is: every byte must be an
 * index below min(0x80, palette size), which the renumbering pass checks (`oneByteLimit`).
 */
export function oneByteLimit(paletteSize: number): number {
  return Math.min(0x80, paletteSize);
}

/** Encodes `map[values[i]]` as varints; the output is the exact size. */
export function encodeVarints(values: Uint8Array | Uint16Array | Uint32Array, map: Int32Array): Buffer {
  let size = 0;
  for (let i = 0; i < values.length; i++) {
    const v = map[values[i]!]!;
    size += v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
  }
  const out = Buffer.allocUnsafe(size);
  let o = 0;
  for (let i = 0; i < values.length; i++) {
    let v = map[values[i]!]!;
    while (v >= 0x80) {
      out[o++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    out[o++] = v;
  }
  return out;
}
