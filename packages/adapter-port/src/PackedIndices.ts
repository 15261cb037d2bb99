/**
 * Palette indices packed LSB-first, `bits = max(1, ceil(log2(paletteSize)))` per index (index i in
 * bits [i·bits, (i+1)·bits)); the port's encoding, shared through java/protocol-vectors.json.
 */
export function bitsFor(paletteSize: number): number {
  let bits = 1;
  while (2 ** bits < paletteSize) bits++;
  return bits;
}

export function unpackIndices(packed: Uint8Array, bits: number, count: number): Uint32Array {
  if (!Number.isInteger(bits) || bits < 1 || bits > 31) throw new RangeError(`bad index width ${bits}`);
  if (count * bits > packed.length * 8) throw new RangeError(`packed indices are shorter than ${count} × ${bits} bits`);
  const out = new Uint32Array(count);
  let bit = 0;
  for (let i = 0; i < count; i++) {
    let v = 0;
    for (let b = 0; b < bits; b++, bit++) if ((packed[bit >>> 3]! >>> (bit & 7)) & 1) v |= 1 << b;
    out[i] = v >>> 0;
  }
  return out;
}

export function packIndices(indices: ArrayLike<number>, bits: number): Uint8Array {
  const out = new Uint8Array(Math.ceil((indices.length * bits) / 8));
  let bit = 0;
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i]!;
    for (let b = 0; b < bits; b++, bit++) if ((v >>> b) & 1) out[bit >>> 3]! |= 1 << (bit & 7);
  }
  return out;
}
