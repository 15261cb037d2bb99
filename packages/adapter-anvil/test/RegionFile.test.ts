import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { COMPRESSION, RegionFile, type Compression } from "../src/RegionFile.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), "mcb-region-"));
  dirs.push(d);
  return d;
}
const bytes = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed * 7 + (i >> 7)) & 255);
/** A chunk read back, as plain bytes (reads return Buffers). */
const plain = (c: { nbt: Uint8Array; compression: number } | null) => (c === null ? null : { nbt: new Uint8Array(c.nbt), compression: c.compression });
const digest = (p: string): string => createHash("sha256").update(readFileSync(p)).digest("hex");

describe("region files", () => {
  it("round-trips chunks in every compression, moves huge ones to c.X.Z.mcc and back", () => {
    const path = join(dir(), "r.0.0.mca");
    const r = RegionFile.open(path, 0, 0, true)!;
    const kinds: Compression[] = [COMPRESSION.gzip, COMPRESSION.zlib, COMPRESSION.none, COMPRESSION.lz4];
    r.write(kinds.map((c, i) => ({ x: i, z: 0, nbt: bytes(5000 + i * 999, i), compression: c })));
    // 1.2 MB stored uncompressed: more than 255 sectors, so the payload goes to c.4.0.mcc.
    r.write([{ x: 4, z: 0, nbt: bytes(1_200_000, 9), compression: COMPRESSION.none }]);
    r.close();
    expect(existsSync(join(path, "..", "c.4.0.mcc"))).toBe(true);
    const again = RegionFile.open(path, 0, 0, false)!;
    kinds.forEach((c, i) => expect(plain(again.read(i, 0))).toEqual({ nbt: bytes(5000 + i * 999, i), compression: c }));
    expect(Buffer.from(again.read(4, 0)!.nbt).equals(Buffer.from(bytes(1_200_000, 9)))).toBe(true);
    expect(again.read(5, 0)).toBeNull();
    again.write([{ x: 4, z: 0, nbt: bytes(100, 1), compression: COMPRESSION.zlib }]);
    expect(existsSync(join(path, "..", "c.4.0.mcc"))).toBe(false);
    expect(plain(again.read(4, 0))!.nbt).toEqual(bytes(100, 1));
    again.close();
  });

  it("a rewrite never overwrites sectors the header still points to; the file ends unpadded or empty and still reads", () => {
    const path = join(dir(), "r.-1.2.mca");
    writeFileSync(path, new Uint8Array(0)); // servers leave empty region files
    const r = RegionFile.open(path, -1, 2, false)!;
    expect(r.chunks()).toEqual([]);
    r.write([{ x: -32, z: 64, nbt: bytes(9000, 1), compression: COMPRESSION.zlib }]);
    const before = readFileSync(path);
    const oldEntry = before.readUInt32BE(0);
    r.write([{ x: -32, z: 64, nbt: bytes(9000, 2), compression: COMPRESSION.none }]);
    const after = readFileSync(path);
    // The old chunk's sectors are untouched: a crash before the header write would have kept it.
    const start = (oldEntry >>> 8) * 4096,
      len = (oldEntry & 255) * 4096;
    expect(after.subarray(start, start + len).equals(before.subarray(start, start + len))).toBe(true);
    expect(after.readUInt32BE(0) >>> 8).not.toBe(oldEntry >>> 8);
    r.close();
    // A file whose last sector is not padded (as real files end) reads the same.
    const used = RegionFile.open(path, -1, 2, false)!;
    const entry = after.readUInt32BE(0);
    const end = (entry >>> 8) * 4096 + 5 + 9000;
    used.close();
    truncateSync(path, end);
    const cut = RegionFile.open(path, -1, 2, false)!;
    expect(plain(cut.read(-32, 64))!.nbt).toEqual(bytes(9000, 2));
    cut.close();
  });

  it("corrupt headers, overlapping sectors, truncated chunks and unknown compressions are structured errors naming the chunk; nothing is written", () => {
    const d = dir();
    const path = join(d, "r.0.0.mca");
    const r = RegionFile.open(path, 0, 0, true)!;
    r.write([0, 1, 2, 3].map((x) => ({ x, z: 0, nbt: bytes(3000, x), compression: COMPRESSION.zlib })));
    r.close();
    const good = readFileSync(path);
    const damaged = (edit: (b: Buffer) => void): string => {
      const b = Buffer.from(good);
      edit(b);
      writeFileSync(path, b);
      return digest(path);
    };
    // Chunk 1 points at chunk 0's sectors.
    let before = damaged((b) => b.writeUInt32BE(b.readUInt32BE(0), 4));
    let f = RegionFile.open(path, 0, 0, false)!;
    expect(() => f.read(1, 0)).toThrow(expect.objectContaining({ code: "corrupt_chunk", details: expect.objectContaining({ chunk: { x: 1, z: 0 } }) }));
    expect(() => f.read(0, 0)).toThrow(/chunk 0,0 .*overlap chunk 1,0/);
    expect(plain(f.read(2, 0))!.nbt).toEqual(bytes(3000, 2)); // the sound chunks still read
    expect(() => f.write([{ x: 3, z: 0, nbt: bytes(10, 1), compression: COMPRESSION.zlib }])).toThrow(expect.objectContaining({ code: "corrupt_region" }));
    f.close();
    expect(digest(path)).toBe(before);
    // A sector inside the header, one past the end of the file.
    before = damaged((b) => {
      b.writeUInt32BE((1 << 8) | 1, 8);
      b.writeUInt32BE((9999 << 8) | 1, 12);
    });
    f = RegionFile.open(path, 0, 0, false)!;
    expect(() => f.read(2, 0)).toThrow(/chunk 2,0 .*overlaps the header/);
    expect(() => f.read(3, 0)).toThrow(/chunk 3,0 .*past the end of the file/);
    f.close();
    // An unknown compression id, a length beyond the chunk's sectors.
    damaged((b) => {
      const at = (b.readUInt32BE(0) >>> 8) * 4096;
      b[at + 4] = 9;
      const at1 = (b.readUInt32BE(4) >>> 8) * 4096;
      b.writeUInt32BE(1 << 20, at1);
    });
    f = RegionFile.open(path, 0, 0, false)!;
    expect(() => f.read(0, 0)).toThrow(/chunk 0,0 .*unknown compression id 9/);
    expect(() => f.read(1, 0)).toThrow(/chunk 1,0 .*more than its 1 sectors/);
    f.close();
    // Truncated in the middle of chunk 3; a file shorter than its header.
    writeFileSync(path, good.subarray(0, (good.readUInt32BE(12) >>> 8) * 4096 + 100));
    f = RegionFile.open(path, 0, 0, false)!;
    expect(() => f.read(3, 0)).toThrow(expect.objectContaining({ code: "corrupt_chunk", message: expect.stringMatching(/truncated/) }));
    f.close();
    writeFileSync(path, good.subarray(0, 100));
    expect(() => RegionFile.open(path, 0, 0, false)).toThrow(expect.objectContaining({ code: "corrupt_region" }));
  });
});
