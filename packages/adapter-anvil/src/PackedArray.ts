import { endianness } from "node:os";

if (endianness() !== "LE") throw new Error("@mcb/adapter-anvil reads packed arrays through little-endian words");

/** Longs needed for `count` values of `bits` bits, none spanning two longs (the 1.16+ packing). */
export function packedLongs(count: number, bits: number): number {
  const perLong = Math.floor(64 / bits);
  return Math.ceil(count / perLong);
}

/**
 * Unpacks `count` values of `bits` bits (≤ 32) from a long array, each long holding
 * ⌊64 / bits⌋ values from its least significant bit up, none spanning two longs. Returns null when
 * the array does not have exactly the longs that takes (the game refuses such a chunk too).
 */
export function unpack(longs: BigInt64Array, bits: number, count: number, out: Uint16Array | Uint32Array): boolean {
  if (longs.length !== packedLongs(count, bits)) return false;
  const words = new Uint32Array(longs.buffer, longs.byteOffset, longs.length * 2);
  const perLong = Math.floor(64 / bits);
  const mask = bits === 32 ? 0xffffffff : (1 << bits) - 1;
  let i = 0;
  for (let l = 0; l < longs.length && i < count; l++) {
    const lo = words[2 * l]!,
      hi = words[2 * l + 1]!;
    for (let k = 0, off = 0; k < perLong && i < count; k++, off += bits, i++) {
      let v: number;
      if (off + bits <= 32) v = (lo >>> off) & mask;
      else if (off >= 32) v = (hi >>> (off - 32)) & mask;
      else v = ((lo >>> off) | (hi << (32 - off))) & mask;
      out[i] = v >>> 0;
    }
  }
  return true;
}

/** Packs values (each < 2^bits) the way `unpack` reads them. */
export function pack(values: ArrayLike<number>, bits: number): BigInt64Array {
  const perLong = Math.floor(64 / bits);
  const n = packedLongs(values.length, bits);
  const words = new Uint32Array(n * 2);
  let i = 0;
  for (let l = 0; l < n; l++) {
    let lo = 0,
      hi = 0;
    for (let k = 0, off = 0; k < perLong && i < values.length; k++, off += bits, i++) {
      const v = values[i]! >>> 0;
      if (off + bits <= 32) lo |= v << off;
      else if (off >= 32) hi |= v << (off - 32);
      else {
        lo |= v << off;
        hi |= v >>> (32 - off);
      }
    }
    words[2 * l] = lo >>> 0;
    words[2 * l + 1] = hi >>> 0;
  }
  return new BigInt64Array(words.buffer);
}

/** Bits per block-state index for a palette of `n` entries (0 for one entry: no data). */
export function blockBits(n: number): number {
  return n <= 1 ? 0 : Math.max(4, Math.ceil(Math.log2(n)));
}

/**
 * Unpacks `count` values of `bits` bits packed contiguously across longs (a value may span two),
 * least significant bit first: the packing of 1.13 to 1.15 chunks (before DataVersion 2527).
 * Returns false when the array does not have exactly ⌈count · bits / 64⌉ longs.
 */
export function unpackSpanning(longs: BigInt64Array, bits: number, count: number, out: Uint16Array | Uint32Array): boolean {
  if (longs.length !== Math.ceil((count * bits) / 64)) return false;
  const words = new Uint32Array(longs.buffer, longs.byteOffset, longs.length * 2);
  const mask = (1 << bits) - 1;
  for (let i = 0; i < count; i++) {
    const bit = i * bits;
    const w = bit >>> 5,
      off = bit & 31;
    let v = words[w]! >>> off;
    if (off + bits > 32) v |= words[w + 1]! << (32 - off);
    out[i] = (v & mask) >>> 0;
  }
  return true;
}
