// Helpers for writing schematic files by hand: NBT values (our writer, canonical key order off,
// so keys stay in the order given, as real writers emit them), varint block data, Litematica's
// bit packing. Used by generate.mjs and large.mjs; needs `npm run build` first.
import { gzipSync } from "node:zlib";
import { TAG, nbt } from "../../packages/nbt/dist/NbtValue.js";
import { encodeNbt } from "../../packages/nbt/dist/NbtWriter.js";

export { TAG };
export const int = nbt.int, short = nbt.short, byte = nbt.byte, str = nbt.string, dbl = nbt.double;
export const long = (v) => nbt.long(BigInt(v));
export const intArray = (v) => nbt.intArray(v);
export const byteArray = (v) => nbt.byteArray(v instanceof Uint8Array ? v : Uint8Array.from(v));
export const longArray = (v) => nbt.longArray(v);
/** A compound from a plain object whose values are NBT values (or plain objects: nested compounds). */
export function C(obj) {
  return nbt.compound(Object.entries(obj).map(([k, v]) => [k, v.t === undefined ? C(v) : v]));
}
export const list = (elem, items) => nbt.list(elem, items.map((x) => (x.t === undefined ? C(x) : x)));
export const compounds = (items) => list(TAG.Compound, items);
export const doubles = (xs) => nbt.list(TAG.Double, xs.map((x) => nbt.double(x)));
export const strings = (xs) => nbt.list(TAG.String, xs.map((x) => nbt.string(x)));

/** Gzip'd NBT file with a named root (gzip header without a time stamp: same bytes every run). */
export const gz = (name, root, level = 9) => gzipSync(encodeNbt(name, root), { level });
export const raw = (name, root) => encodeNbt(name, root);

/** Sponge block data: one unsigned LEB128 varint per position (`indices`: any array-like of ints). */
export function varints(indices) {
  const out = new Uint8Array(indices.length * 5);
  let at = 0;
  for (let i = 0; i < indices.length; i++) {
    let v = indices[i];
    while (v >= 0x80) {
      out[at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    out[at++] = v;
  }
  return out.slice(0, at);
}

/** A palette compound {state: index}. */
export function paletteOf(states) {
  return C(Object.fromEntries(states.map((s, i) => [s, int(i)])));
}

/** Litematica's bit array: index i at bit i·bits, entries may span two longs; bits = max(2, ⌈log2 n⌉). */
export function litematicaPack(indices, paletteSize) {
  const bits = Math.max(2, Math.ceil(Math.log2(paletteSize)));
  const words = new BigUint64Array(Math.ceil((indices.length * bits) / 64));
  indices.forEach((v, i) => {
    const bit = i * bits, w = Math.floor(bit / 64), off = bit % 64;
    words[w] |= (BigInt(v) << BigInt(off)) & 0xffffffffffffffffn;
    if (off + bits > 64) words[w + 1] |= BigInt(v) >> BigInt(64 - off);
  });
  return new BigInt64Array(words.buffer);
}

/** {Name, Properties} of a state string, as Litematica and structure palettes store it. */
export function paletteEntry(state) {
  const m = /^([^[]+)(?:\[(.*)\])?$/.exec(state);
  const props = m[2] ? Object.fromEntries(m[2].split(",").map((p) => p.split("=")).map(([k, v]) => [k, str(v)])) : null;
  return C(props ? { Name: str(m[1]), Properties: C(props) } : { Name: str(m[1]) });
}

/** A deterministic pseudo-random generator (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const chestItems = (n, r = rng(n)) =>
  compounds(Array.from({ length: n }, (_, i) => ({ Slot: byte(i), id: str(["minecraft:diamond", "minecraft:bread", "minecraft:oak_log", "minecraft:torch"][Math.floor(r() * 4)]), count: int(1 + Math.floor(r() * 64)) })));
