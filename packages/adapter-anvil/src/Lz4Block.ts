/**
 * Chunk compression 4: an LZ4 stream in lz4-java's `LZ4BlockOutputStream` framing, as the game
 * writes it. Each block: "LZ4Block", a token (method 0x10 raw or 0x20 LZ4, low nibble: log2 of the
 * block size − 10), compressed length, original length, checksum (little-endian; XXH32 with seed
 * 0x9747b28c of the original bytes, masked to 28 bits); an empty block ends the stream. We read
 * both methods and write raw blocks (valid for every reader; the region's zlib chunks stay zlib).
 */
const MAGIC = [0x4c, 0x5a, 0x34, 0x42, 0x6c, 0x6f, 0x63, 0x6b]; // "LZ4Block"
const HEADER = 21;
const METHOD_RAW = 0x10;
const METHOD_LZ4 = 0x20;
const SEED = 0x9747b28c;
const WRITE_LEVEL = 6; // 64 KiB blocks, lz4-java's default
const MAX_LEVEL = 15; // block size up to 32 MiB

export class Lz4Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Lz4Error";
  }
}

const P1 = 2654435761,
  P2 = 2246822519,
  P3 = 3266489917,
  P4 = 668265263,
  P5 = 374761393;

function rotl(x: number, r: number): number {
  return ((x << r) | (x >>> (32 - r))) >>> 0;
}

function u32le(b: Uint8Array, i: number): number {
  return (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
}

/** XXH32 of `b` with `seed`. */
export function xxhash32(b: Uint8Array, seed: number): number {
  const len = b.length;
  let i = 0;
  let h: number;
  if (len >= 16) {
    let v1 = (seed + P1 + P2) >>> 0,
      v2 = (seed + P2) >>> 0,
      v3 = seed >>> 0,
      v4 = (seed - P1) >>> 0;
    for (; i <= len - 16; i += 16) {
      v1 = Math.imul(rotl((v1 + Math.imul(u32le(b, i), P2)) >>> 0, 13), P1) >>> 0;
      v2 = Math.imul(rotl((v2 + Math.imul(u32le(b, i + 4), P2)) >>> 0, 13), P1) >>> 0;
      v3 = Math.imul(rotl((v3 + Math.imul(u32le(b, i + 8), P2)) >>> 0, 13), P1) >>> 0;
      v4 = Math.imul(rotl((v4 + Math.imul(u32le(b, i + 12), P2)) >>> 0, 13), P1) >>> 0;
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) >>> 0;
  } else {
    h = (seed + P5) >>> 0;
  }
  h = (h + len) >>> 0;
  for (; i <= len - 4; i += 4) h = Math.imul(rotl((h + Math.imul(u32le(b, i), P3)) >>> 0, 17), P4) >>> 0;
  for (; i < len; i++) h = Math.imul(rotl((h + Math.imul(b[i]!, P5)) >>> 0, 11), P1) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, P2) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, P3) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** Decodes one raw LZ4 block into `out` (exactly `out.length` bytes). */
function decodeBlock(src: Uint8Array, out: Uint8Array): void {
  let s = 0,
    d = 0;
  const end = src.length;
  for (;;) {
    if (s >= end) throw new Lz4Error("LZ4 block ends inside a sequence");
    const token = src[s++]!;
    let lit = token >>> 4;
    if (lit === 15) {
      let b: number;
      do {
        if (s >= end) throw new Lz4Error("LZ4 literal length runs past the block");
        b = src[s++]!;
        lit += b;
      } while (b === 255);
    }
    if (s + lit > end || d + lit > out.length) throw new Lz4Error("LZ4 literals run past the block");
    out.set(src.subarray(s, s + lit), d);
    s += lit;
    d += lit;
    if (s === end) break;
    if (s + 2 > end) throw new Lz4Error("LZ4 match offset cut short");
    const offset = src[s]! | (src[s + 1]! << 8);
    s += 2;
    if (offset === 0 || offset > d) throw new Lz4Error(`LZ4 match offset ${offset} points before the output`);
    let len = token & 15;
    if (len === 15) {
      let b: number;
      do {
        if (s >= end) throw new Lz4Error("LZ4 match length runs past the block");
        b = src[s++]!;
        len += b;
      } while (b === 255);
    }
    len += 4;
    if (d + len > out.length) throw new Lz4Error("LZ4 match runs past the original length");
    for (let k = 0; k < len; k++, d++) out[d] = out[d - offset]!;
  }
  if (d !== out.length) throw new Lz4Error(`LZ4 block gave ${d} bytes, its header says ${out.length}`);
}

/** The original bytes of an LZ4Block stream; throws `Lz4Error` on any inconsistency. */
export function lz4BlockDecompress(input: Uint8Array, maxBytes: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0,
    at = 0;
  while (at < input.length) {
    if (at + HEADER > input.length) throw new Lz4Error(`LZ4Block header cut short at byte ${at}`);
    for (let k = 0; k < 8; k++) if (input[at + k] !== MAGIC[k]) throw new Lz4Error(`no LZ4Block magic at byte ${at}`);
    const token = input[at + 8]!;
    const method = token & 0xf0,
      level = 10 + (token & 0x0f);
    const compressed = u32le(input, at + 9) | 0,
      original = u32le(input, at + 13) | 0,
      check = u32le(input, at + 17);
    if (method !== METHOD_RAW && method !== METHOD_LZ4) throw new Lz4Error(`LZ4Block method 0x${method.toString(16)} unknown`);
    if (
      level - 10 > MAX_LEVEL ||
      original < 0 ||
      compressed < 0 ||
      original > 2 ** level ||
      (original === 0) !== (compressed === 0) ||
      (method === METHOD_RAW && original !== compressed)
    )
      throw new Lz4Error(`LZ4Block lengths ${compressed}/${original} are inconsistent at byte ${at}`);
    at += HEADER;
    if (original === 0) break; // the stream's end marker
    if (at + compressed > input.length) throw new Lz4Error(`LZ4Block of ${compressed} bytes runs past the data`);
    total += original;
    if (total > maxBytes) throw new Lz4Error(`LZ4Block stream exceeds ${maxBytes} bytes`);
    const src = input.subarray(at, at + compressed);
    const out = method === METHOD_RAW ? src.slice() : new Uint8Array(original);
    if (method === METHOD_LZ4) decodeBlock(src, out);
    if ((xxhash32(out, SEED) & 0x0fffffff) >>> 0 !== check) throw new Lz4Error(`LZ4Block checksum mismatch at byte ${at - HEADER}`);
    parts.push(out);
    at += compressed;
  }
  const joined = new Uint8Array(total);
  let o = 0;
  for (const p of parts) (joined.set(p, o), (o += p.length));
  return joined;
}

function header(out: Uint8Array, at: number, token: number, compressed: number, original: number, check: number): void {
  out.set(MAGIC, at);
  const v = new DataView(out.buffer, out.byteOffset + at);
  out[at + 8] = token;
  v.setInt32(9, compressed, true);
  v.setInt32(13, original, true);
  v.setInt32(17, check, true);
}

/** An LZ4Block stream of raw (stored) 64 KiB blocks and the end marker, as lz4-java reads it. */
export function lz4BlockStore(data: Uint8Array): Uint8Array {
  const block = 1 << (10 + WRITE_LEVEL);
  const blocks = Math.ceil(data.length / block);
  const out = new Uint8Array(blocks * HEADER + data.length + HEADER);
  let at = 0;
  for (let i = 0; i < data.length; i += block) {
    const part = data.subarray(i, Math.min(data.length, i + block));
    header(out, at, METHOD_RAW | WRITE_LEVEL, part.length, part.length, (xxhash32(part, SEED) & 0x0fffffff) >>> 0);
    out.set(part, at + HEADER);
    at += HEADER + part.length;
  }
  header(out, at, METHOD_RAW | WRITE_LEVEL, 0, 0, 0);
  return out;
}
