import fc from "fast-check";
import prismarine from "prismarine-nbt";
import { describe, expect, it } from "vitest";
import { NbtError, NbtReader } from "../src/NbtReader.js";
import { TAG, nbt, type NbtCompound, type NbtValue, type TagId } from "../src/NbtValue.js";
import { canonicalNbt, encodeNbt } from "../src/NbtWriter.js";

/** Random NBT values of every tag (strings with non-ASCII, NUL and astral characters). */
const value: fc.Arbitrary<NbtValue> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.integer({ min: -128, max: 127 }).map(nbt.byte),
    fc.integer({ min: -32768, max: 32767 }).map(nbt.short),
    fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map(nbt.int),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(nbt.long),
    fc.float({ noNaN: true }).map((v) => ({ t: TAG.Float, v: Math.fround(v) }) as NbtValue),
    fc.double({ noNaN: true }).map(nbt.double),
    fc.string({ unit: "binary", maxLength: 12 }).map(nbt.string),
    fc.uint8Array({ maxLength: 16 }).map(nbt.byteArray),
    fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxLength: 6 }).map(nbt.intArray),
    fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { maxLength: 4 }).map((a) => nbt.longArray(BigInt64Array.from(a))),
    fc.array(fc.integer({ min: -9, max: 9 }), { maxLength: 5 }).map((a) => nbt.list(a.length === 0 ? TAG.End : TAG.Int, a.map(nbt.int))),
    // An empty list reads back as a list of end tags (what the game writes), so generate it so.
    fc.array(tie("c") as fc.Arbitrary<NbtCompound>, { maxLength: 3 }).map((a) => nbt.list(a.length === 0 ? TAG.End : TAG.Compound, a)),
    tie("c"),
  ),
  c: fc
    .uniqueArray(fc.tuple(fc.string({ unit: "binary", maxLength: 8 }), tie("v") as fc.Arbitrary<NbtValue>), { maxLength: 5, selector: ([k]) => k })
    .map((e) => nbt.compound(e)),
})).c as fc.Arbitrary<NbtCompound>;
const compound = value as unknown as fc.Arbitrary<NbtCompound>;

function read(bytes: Uint8Array): { name: string; value: NbtCompound; end: number } {
  const r = new NbtReader(bytes);
  const root = r.root();
  if (root.type !== TAG.Compound) throw new Error("not a compound");
  const v = r.compoundValue();
  return { name: root.name, value: v, end: r.offset };
}

/** Reverses key order at every level (same content, another order). */
function reversed(c: NbtCompound): NbtCompound {
  const flip = (v: NbtValue): NbtValue => (v.t === TAG.Compound ? reversed(v) : v.t === TAG.List ? { t: TAG.List, elem: v.elem, v: v.v.map(flip) } : v);
  return nbt.compound([...c.v].reverse().map(([k, v]) => [k, flip(v)] as const));
}

describe("NBT reader and writer", () => {
  it("write → read gives the same value and the same bytes again (property)", () => {
    fc.assert(
      fc.property(compound, fc.string({ maxLength: 10 }), (c, name) => {
        const bytes = encodeNbt(name, c);
        const back = read(bytes);
        expect(back.end).toBe(bytes.length);
        expect(back.name).toBe(name);
        expect(back.value).toEqual(c);
        expect(Buffer.compare(encodeNbt(name, back.value), bytes)).toBe(0);
      }),
      { numRuns: 400 },
    );
  });

  it("canonical bytes do not depend on key order (property)", () => {
    fc.assert(
      fc.property(compound, (c) => {
        expect(Buffer.compare(canonicalNbt(reversed(c)), canonicalNbt(c))).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it("reads what prismarine-nbt writes, strings in modified UTF-8 (NUL, astral characters) included", () => {
    const text = "sign \u0000 text ✓ 🙂 é";
    const bytes = prismarine.writeUncompressed({
      type: "compound",
      name: "root",
      value: {
        s: { type: "string", value: text },
        n: { type: "int", value: -7 },
        l: { type: "list", value: { type: "compound", value: [{ a: { type: "byte", value: 1 } }] } },
        arr: { type: "intArray", value: [1, -2, 3] },
      },
    } as prismarine.NBT);
    const back = read(bytes);
    expect(back.value.v.get("s")).toEqual(nbt.string(text));
    expect(back.value.v.get("n")).toEqual(nbt.int(-7));
    expect(back.value.v.get("arr")).toEqual(nbt.intArray([1, -2, 3]));
    // We write Java's modified UTF-8 (NUL as C0 80, astral characters as surrogate pairs), which the
    // game reads; prismarine-nbt decodes plain UTF-8, so it agrees with us on the BMP text only.
    const bmp = "sign text ✓ é ü";
    const ours = encodeNbt("root", nbt.compound([["s", nbt.string(bmp)]]));
    expect((prismarine.parseUncompressed(ours) as unknown as { value: { s: { value: string } } }).value.s.value).toBe(bmp);
    expect([...encodeNbt("", nbt.compound([["s", nbt.string("\u0000🙂")]]))].slice(7, 15)).toEqual([0, 8, 0xc0, 0x80, 0xed, 0xa0, 0xbd, 0xed]);
  });

  it("refuses declared sizes larger than the data, negative lengths, end-tag lists, deep nesting and truncation, in bounded time", () => {
    const header = (body: number[]) => Uint8Array.from([TAG.Compound, 0, 0, ...body]);
    const cases: [string, Uint8Array][] = [
      ["list declaring 2^31−1 compounds in 10 bytes", header([TAG.List, 0, 1, 0x61, TAG.Compound, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0])],
      ["byte array of 2^31−1 bytes", header([TAG.ByteArray, 0, 1, 0x61, 0x7f, 0xff, 0xff, 0xff, 1, 2, 3])],
      ["negative int array length", header([TAG.IntArray, 0, 1, 0x61, 0xff, 0xff, 0xff, 0xff])],
      ["list of end tags with length 5", header([TAG.List, 0, 1, 0x61, TAG.End, 0, 0, 0, 5])],
      ["unknown tag id 13", header([13, 0, 1, 0x61, 0])],
      ["truncated string", header([TAG.String, 0, 1, 0x61, 0, 9, 0x62])],
      ["truncated compound", header([TAG.Int, 0, 1, 0x61, 0, 0, 0, 1])],
      ["malformed modified UTF-8", header([TAG.String, 0, 1, 0x61, 0, 2, 0xff, 0xfe, 0])],
    ];
    // 600 nested lists of lists: deeper than Minecraft's 512.
    const deep: number[] = [TAG.List, 0, 1, 0x61];
    for (let i = 0; i < 600; i++) deep.push(TAG.List, 0, 0, 0, 1);
    deep.push(TAG.End, 0, 0, 0, 0);
    cases.push(["nesting of 600", header(deep)]);
    for (const [what, bytes] of cases) {
      const t = Date.now();
      const r = new NbtReader(bytes);
      // Skipping checks structure and sizes; only decoding looks inside strings.
      if (!what.includes("UTF-8"))
        expect(() => {
          r.root();
          r.skip(TAG.Compound);
        }, what).toThrow(NbtError);
      expect(() => read(bytes), what).toThrow(NbtError);
      expect(Date.now() - t).toBeLessThan(1000);
    }
  });

  it("a repeated key in a decoded compound is an error", () => {
    const bytes = Uint8Array.from([TAG.Compound, 0, 0, TAG.Byte, 0, 1, 0x61, 1, TAG.Byte, 0, 1, 0x61, 2, TAG.End]);
    expect(() => read(bytes)).toThrow(/repeated/);
  });

  it("skips every tag without decoding, landing exactly where a decode would (property)", () => {
    fc.assert(
      fc.property(compound, (c) => {
        const bytes = encodeNbt("x", c);
        const r = new NbtReader(bytes);
        r.root();
        r.skip(TAG.Compound as TagId);
        expect(r.offset).toBe(bytes.length);
      }),
      { numRuns: 200 },
    );
  });
});
