import { constants, deflateRawSync } from "node:zlib";

/**
 * PNG encoding split into fixed chunks of rows that any thread can compress: each chunk is
 * filtered (Sub: one subtraction per byte, no per-row filter search) and deflated on its own
 * (level 4, ended by a full flush; the last one ends the stream), so the bytes depend on the
 * image only, never on which thread compressed which chunk.
 */
export const PNG_CHUNK_ROWS = 32;
const LEVEL = 4;
const ADLER_MOD = 65521;

/** One compressed chunk of rows: raw deflate bytes and the Adler-32 parts of its filtered bytes. */
export interface PngPart {
  readonly data: Uint8Array;
  readonly a: number;
  readonly b: number;
  readonly length: number;
}

function adler(bytes: Uint8Array): { a: number; b: number } {
  let a = 1,
    b = 0;
  for (let i = 0; i < bytes.length;) {
    const end = Math.min(bytes.length, i + 5552); // the most bytes before the sums can overflow 2³²
    for (; i < end; i++) ((a += bytes[i]!), (b += a));
    ((a %= ADLER_MOD), (b %= ADLER_MOD));
  }
  return { a, b };
}

/** Filters and deflates chunk `c` (rows c·PNG_CHUNK_ROWS ..) of an RGB image. */
export function deflateChunk(rgb: Uint8Array, width: number, height: number, c: number): PngPart {
  const stride = width * 3,
    j0 = c * PNG_CHUNK_ROWS,
    j1 = Math.min(height, j0 + PNG_CHUNK_ROWS);
  const raw = new Uint8Array((stride + 1) * (j1 - j0));
  for (let j = j0; j < j1; j++) {
    const src = j * stride,
      dst = (j - j0) * (stride + 1);
    raw[dst] = 1; // Sub
    ((raw[dst + 1] = rgb[src]!), (raw[dst + 2] = rgb[src + 1]!), (raw[dst + 3] = rgb[src + 2]!));
    for (let k = 3; k < stride; k++) raw[dst + 1 + k] = rgb[src + k]! - rgb[src + k - 3]!;
  }
  const last = j1 === height;
  const data = deflateRawSync(raw, { level: LEVEL, finishFlush: last ? constants.Z_FINISH : constants.Z_FULL_FLUSH });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), ...adler(raw), length: raw.length };
}

export function pngChunkCount(height: number): number {
  return Math.ceil(height / PNG_CHUNK_ROWS);
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = -1;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 255]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function chunk(type: string, parts: readonly Uint8Array[]): Buffer {
  const length = parts.reduce((n, p) => n + p.length, 0);
  const out = Buffer.alloc(12 + length);
  out.writeUInt32BE(length, 0);
  out.write(type, 4, "latin1");
  let o = 8;
  for (const p of parts) (out.set(p, o), (o += p.length));
  out.writeUInt32BE(crc32(out, 4, 8 + length), 8 + length);
  return out;
}

/** Assembles the PNG from its chunks in order (one zlib stream: header, the chunks, Adler-32). */
export function assemblePng(width: number, height: number, parts: readonly PngPart[]): Buffer {
  let a = 1,
    b = 0;
  for (const p of parts) {
    // adler32_combine: the sums of the bytes so far followed by this chunk's.
    b = (b + p.b + (p.length % ADLER_MOD) * ((a + ADLER_MOD - 1) % ADLER_MOD)) % ADLER_MOD;
    a = (a + p.a + ADLER_MOD - 1) % ADLER_MOD;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, adaptive filtering, no interlace
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(((b << 16) | a) >>> 0, 0);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const idat = chunk("IDAT", [Uint8Array.of(0x78, 0x5e), ...parts.map((p) => p.data), checksum]);
  return Buffer.concat([signature, chunk("IHDR", [header]), idat, chunk("IEND", [])]);
}
