import { gunzipSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TAG, nbt, type NbtCompound, type NbtValue } from "@mcb/nbt";
import { encodeNbt } from "@mcb/nbt";
import { DROP_CATEGORIES, readSchematic } from "../src/index.js";
import { bytesOf, manifest } from "./corpus/Readers.js";
import { registry } from "./support.js";

const C = (o: Record<string, NbtValue>): NbtCompound => nbt.compound(Object.entries(o));
const v2 = (data: Uint8Array, w = 2, paletteSize = 2) =>
  gzipSync(
    encodeNbt(
      "Schematic",
      C({
        Version: nbt.int(2),
        DataVersion: nbt.int(4786),
        Width: nbt.short(w),
        Height: nbt.short(1),
        Length: nbt.short(1),
        Palette: C(
          Object.fromEntries(["minecraft:stone", "minecraft:dirt", "minecraft:sand", "minecraft:gravel"].slice(0, paletteSize).map((s, i) => [s, nbt.int(i)])),
        ),
        BlockData: nbt.byteArray(data),
      }),
    ),
  );
function refusal(bytes: Uint8Array) {
  const started = performance.now();
  const r = readSchematic(registry(), bytes, { drop: DROP_CATEGORIES });
  const ms = performance.now() - started;
  if (r.ok) throw new Error("read a bad file");
  return { ...r.error, ms };
}

describe("bad schematic input: a structured error, quickly, nothing kept", () => {
  it("truncated gzip at any length", () => {
    const good = v2(Uint8Array.of(0, 1));
    for (let n = 2; n < good.length; n += 3)
      expect(refusal(good.subarray(0, n)), `${n} bytes`).toMatchObject({ code: "invalid_request", details: { reason: "schematic_format" } });
  });

  it("a varint longer than five bytes, and a truncated one", () => {
    expect(refusal(v2(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0), 2))).toMatchObject({
      code: "invalid_request",
      message: expect.stringContaining("longer than 5 bytes"),
    });
    expect(refusal(v2(Uint8Array.of(0, 0x81, 0x81), 2))).toMatchObject({ code: "invalid_request", message: expect.stringContaining("truncated varint") });
  });

  it("one byte per position but one of them ≥ 0x80, and an index past the palette in one-byte data", () => {
    expect(refusal(v2(Uint8Array.of(0, 0x81), 2))).toMatchObject({
      code: "invalid_request",
      message: expect.stringMatching(/palette index 129 at position 1 .*varint longer than one byte/),
    });
    expect(refusal(v2(Uint8Array.of(1, 3), 2))).toMatchObject({
      code: "invalid_request",
      message: expect.stringContaining("palette index 3 at position 1 is out of range"),
    });
  });

  it("a declared array length far larger than the data is refused before anything is allocated", () => {
    const nbtBytes = gunzipSync(v2(Uint8Array.of(0, 1)));
    const at = nbtBytes.indexOf(Buffer.from("BlockData")) + "BlockData".length;
    nbtBytes.writeInt32BE(0x7fffffff, at);
    const e = refusal(gzipSync(nbtBytes));
    expect(e).toMatchObject({ code: "invalid_request" });
    expect(e.ms).toBeLessThan(1000);
  });

  it("duplicate palette indices, and two spellings of one state (merged, not an error)", () => {
    const dup = gzipSync(
      encodeNbt(
        "Schematic",
        C({
          Version: nbt.int(2),
          DataVersion: nbt.int(4786),
          Width: nbt.short(2),
          Height: nbt.short(1),
          Length: nbt.short(1),
          Palette: C({ "minecraft:stone": nbt.int(0), "minecraft:dirt": nbt.int(0) }),
          BlockData: nbt.byteArray(Uint8Array.of(0, 0)),
        }),
      ),
    );
    expect(refusal(dup)).toMatchObject({ code: "invalid_request", message: expect.stringContaining("out of range or repeated") });
    const spellings = gzipSync(
      encodeNbt(
        "Schematic",
        C({
          Version: nbt.int(2),
          DataVersion: nbt.int(4786),
          Width: nbt.short(2),
          Height: nbt.short(1),
          Length: nbt.short(1),
          Palette: C({ stone: nbt.int(0), "minecraft:stone": nbt.int(1) }),
          BlockData: nbt.byteArray(Uint8Array.of(0, 1)),
        }),
      ),
    );
    const r = readSchematic(registry(), spellings);
    expect(r.ok && r.value.schematic.palette).toEqual(["minecraft:stone"]);
  });

  it("Litematica: packed indices past the palette, a block-state array too short", () => {
    const region = (states: BigInt64Array, paletteSize: number) =>
      gzipSync(
        encodeNbt(
          "",
          C({
            MinecraftDataVersion: nbt.int(4786),
            Version: nbt.int(6),
            Regions: C({
              r: C({
                Position: C({ x: nbt.int(0), y: nbt.int(0), z: nbt.int(0) }),
                Size: C({ x: nbt.int(4), y: nbt.int(1), z: nbt.int(1) }),
                BlockStatePalette: nbt.list(
                  TAG.Compound,
                  ["minecraft:air", "minecraft:stone", "minecraft:dirt"].slice(0, paletteSize).map((n) => C({ Name: nbt.string(n) })),
                ),
                BlockStates: nbt.longArray(states),
              }),
            }),
          }),
        ),
      );
    // 2 bits per index: 0b11 (3) at position 0 with a palette of 3.
    expect(refusal(region(BigInt64Array.of(3n), 3))).toMatchObject({ code: "invalid_request" });
    expect(refusal(region(new BigInt64Array(0), 3))).toMatchObject({ code: "invalid_request" });
  });

  it("random damage to real and generated files never throws: a value or a structured error, each in bounded time (property)", async () => {
    const files = await Promise.all(
      manifest()
        .entries.filter((e) => e.file !== null && e.expect.read !== undefined)
        .slice(0, 12)
        .map(async (e) => gunzipOrRaw(await bytesOf(e))),
    );
    fc.assert(
      fc.property(
        fc.nat({ max: files.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { minLength: 1, maxLength: 8 }),
        fc.option(fc.nat()),
        (k, flips, cut) => {
          const body = Buffer.from(files[k]!);
          for (const [at, v] of flips) body[at % body.length] = v;
          const damaged = cut === null ? body : body.subarray(0, cut % body.length);
          const started = performance.now();
          let r: ReturnType<typeof readSchematic>;
          try {
            r = readSchematic(registry(), gzipSync(damaged), { drop: DROP_CATEGORIES });
          } catch (e) {
            throw new Error(`threw instead of refusing: ${(e as Error).stack}`);
          }
          expect(performance.now() - started).toBeLessThan(2000);
          if (!r.ok) expect(["invalid_request", "budget_exceeded", "unsupported_block", "version_mismatch"]).toContain(r.error.code);
        },
      ),
      { numRuns: 400 },
    );
  });
});

function gunzipOrRaw(b: Buffer): Buffer {
  return b[0] === 0x1f ? gunzipSync(b) : b;
}
