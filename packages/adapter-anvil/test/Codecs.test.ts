import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lz4BlockDecompress, lz4BlockStore, xxhash32 } from "../src/Lz4Block.js";
import { blockBits, pack, packedLongs, unpack } from "../src/PackedArray.js";

/** An independent reading of the 1.16+ packing: BigInt arithmetic, value i in long ⌊i / per⌋ at bit (i mod per)·bits. */
function reference(longs: BigInt64Array, bits: number, count: number): number[] {
  const per = Math.floor(64 / bits);
  return Array.from({ length: count }, (_, i) =>
    Number((BigInt.asUintN(64, longs[Math.floor(i / per)]!) >> BigInt((i % per) * bits)) & ((1n << BigInt(bits)) - 1n)),
  );
}

/** Planted bug: a packer whose values run on across long boundaries (the pre-1.16 layout). */
function spanningPack(values: readonly number[], bits: number): BigInt64Array {
  const out = new BigInt64Array(packedLongs(values.length, bits));
  values.forEach((v, i) => {
    const bit = i * bits;
    const k = Math.floor(bit / 64),
      o = bit % 64;
    if (k < out.length) out[k] = BigInt.asIntN(64, BigInt.asUintN(64, out[k]!) | (BigInt(v) << BigInt(o)));
    if (o + bits > 64 && k + 1 < out.length) out[k + 1] = BigInt.asIntN(64, BigInt.asUintN(64, out[k + 1]!) | (BigInt(v) >> BigInt(64 - o)));
  });
  return out;
}

const packed = fc
  .integer({ min: 1, max: 16 })
  .chain((bits) => fc.tuple(fc.constant(bits), fc.array(fc.integer({ min: 0, max: 2 ** bits - 1 }), { minLength: 1, maxLength: 4096 })));

describe("packed palette indices", () => {
  it("pack/unpack agree with an independent reading for every width 1..16 (values never span two longs)", () => {
    fc.assert(
      fc.property(packed, ([bits, values]) => {
        const longs = pack(values, bits);
        expect(longs.length).toBe(packedLongs(values.length, bits));
        expect(reference(longs, bits, values.length)).toEqual(values);
        const out = new Uint32Array(values.length);
        expect(unpack(longs, bits, values.length, out)).toBe(true);
        expect([...out]).toEqual(values);
      }),
      { numRuns: 300 },
    );
  });

  it("the property catches a planted packer that spans longs", () => {
    expect(() =>
      fc.assert(
        fc.property(packed, ([bits, values]) => expect(reference(spanningPack(values, bits), bits, values.length)).toEqual(values)),
        { numRuns: 300 },
      ),
    ).toThrow();
  });

  it("a wrong long count is refused; widths follow the game (none for one state, at least 4 bits)", () => {
    expect(unpack(new BigInt64Array(255), 4, 4096, new Uint16Array(4096))).toBe(false);
    expect([1, 2, 16, 17, 256, 257, 4096].map(blockBits)).toEqual([0, 4, 4, 5, 8, 9, 12]);
  });
});

describe("chunk compression 4 (LZ4Block)", () => {
  it("XXH32 matches the reference vectors", () => {
    expect(xxhash32(new Uint8Array(0), 0)).toBe(0x02cc5d05);
    expect(xxhash32(new TextEncoder().encode("abc"), 0)).toBe(0x32d153ff);
    expect(xxhash32(new TextEncoder().encode("Nobody inspects the spammish repetition"), 0)).toBe(0xe2293b2f);
  });

  it("stored streams round-trip; a flipped byte fails the checksum", () => {
    const data = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 7) & 255);
    const s = lz4BlockStore(data);
    expect(Buffer.from(lz4BlockDecompress(s, 1 << 20)).equals(Buffer.from(data))).toBe(true);
    s[30] = s[30]! ^ 1;
    expect(() => lz4BlockDecompress(s, 1 << 20)).toThrow(/checksum/);
    expect(() => lz4BlockDecompress(lz4BlockStore(data), 1000)).toThrow(/exceeds/);
  });

  it("decodes blocks compressed by an independent LZ4 (python lz4) in LZ4Block framing", () => {
    const python = process.env.MCB_AMULET_PYTHON ?? join(import.meta.dirname, "..", "..", "..", ".venv", "bin", "python");
    expect(existsSync(python), `${python} (npm test sets it up)`).toBe(true);
    const script = [
      "import lz4.block, sys",
      "data = bytes((i * 13 + (i >> 9)) & 255 for i in range(150000)) + b'minecraft:stone' * 3000",
      "for at in range(0, len(data), 65536):",
      "    print(lz4.block.compress(data[at:at + 65536], store_size=False).hex())",
    ].join("\n");
    const parts = execFileSync(python, ["-c", script])
      .toString()
      .trim()
      .split("\n")
      .map((h) => Buffer.from(h, "hex"));
    const data = Uint8Array.from({ length: 150_000 }, (_, i) => (i * 13 + (i >> 9)) & 255);
    const whole = Buffer.concat([data, Buffer.from("minecraft:stone".repeat(3000))]);
    // Frame each block as lz4-java does: magic, token (LZ4, 64 KiB), lengths, XXH32 & 0x0FFFFFFF.
    const frames: Buffer[] = [];
    parts.forEach((p, k) => {
      const original = whole.subarray(k * 65536, Math.min(whole.length, (k + 1) * 65536));
      const h = Buffer.alloc(21);
      h.write("LZ4Block", 0, "latin1");
      h[8] = 0x20 | 6;
      h.writeInt32LE(p.length, 9);
      h.writeInt32LE(original.length, 13);
      h.writeInt32LE(xxhash32(original, 0x9747b28c) & 0x0fffffff, 17);
      frames.push(h, p);
    });
    const end = Buffer.alloc(21);
    end.write("LZ4Block", 0, "latin1");
    end[8] = 0x10 | 6;
    frames.push(end);
    expect(Buffer.from(lz4BlockDecompress(Buffer.concat(frames), 1 << 20)).equals(whole)).toBe(true);
  });
});
