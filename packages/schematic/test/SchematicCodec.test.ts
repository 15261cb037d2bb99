import { gunzipSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import nbt from "prismarine-nbt";
import { describe, expect, it } from "vitest";
import { DEFAULT_SCHEMATIC_LIMITS, canonicalSchematic, readSchematic, schematicLimits, writeSchematic, type Schematic } from "../src/index.js";
import { contents, gzipNbt, registry, states, v2Body, v2File } from "./support.js";

const schematicArb = fc
  .record({
    width: fc.integer({ min: 1, max: 9 }),
    height: fc.integer({ min: 1, max: 6 }),
    length: fc.integer({ min: 1, max: 9 }),
    offset: fc.record({ x: fc.integer({ min: -1000, max: 1000 }), y: fc.integer({ min: -64, max: 64 }), z: fc.integer({ min: -1000, max: 1000 }) }),
    seed: fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 500 }),
    name: fc.option(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,20}$/), { nil: undefined }),
  })
  .map(({ width, height, length, offset, seed, name }): Schematic => {
    const palette = states();
    const n = width * height * length;
    const blocks = new Uint32Array(n);
    for (let i = 0; i < n; i++) blocks[i] = seed[i % seed.length]!;
    return { width, height, length, offset, dataVersion: registry().dataVersion, palette, blocks, blockEntities: [], ...(name === undefined ? {} : { name }) };
  });

function read(bytes: Uint8Array): Schematic {
  const r = readSchematic(registry(), bytes);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.schematic;
}

describe("Sponge codec", () => {
  it("round-trips values and bytes, v3 and v2 (property)", () => {
    fc.assert(
      fc.property(schematicArb, fc.constantFrom<2 | 3>(2, 3), (s, version) => {
        const bytes = writeSchematic(s, { version });
        const back = read(bytes);
        expect(back).toEqual(canonicalSchematic(s));
        expect(contents(back)).toEqual(contents(s));
        expect(writeSchematic(back, { version }).equals(bytes)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("writes the same bytes for the same content whatever the palette order", () => {
    fc.assert(
      fc.property(schematicArb, fc.nat(), (s, rot) => {
        const k = rot % s.palette.length;
        const palette = [...s.palette.slice(k), ...s.palette.slice(0, k)];
        const blocks = s.blocks.map((b) => (b - k + s.palette.length) % s.palette.length);
        expect(writeSchematic({ ...s, palette, blocks }).equals(writeSchematic(s))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it("writes v3 by default (WorldEdit 7.3's layout) and v2 on request, as prismarine-nbt parses them", async () => {
    const s: Schematic = {
      width: 3,
      height: 2,
      length: 1,
      offset: { x: -1, y: 0, z: 4 },
      dataVersion: 4786,
      palette: states().slice(0, 3),
      blocks: Uint32Array.from([0, 1, 2, 2, 1, 0]),
      blockEntities: [],
    };
    const v3 = await nbt.parse(writeSchematic(s));
    expect(v3.parsed.name).toBe("");
    const body = (nbt.simplify(v3.parsed) as { Schematic: Record<string, unknown> }).Schematic;
    expect(body).toMatchObject({
      Version: 3,
      DataVersion: 4786,
      Width: 3,
      Height: 2,
      Length: 1,
      Offset: [-1, 0, 4],
      Metadata: { WorldEdit: { Origin: [0, 0, 0] } },
    });
    expect(body["Blocks"]).toMatchObject({ Data: [0, 1, 2, 2, 1, 0], BlockEntities: [] });
    const { parsed } = await nbt.parse(writeSchematic(s, { version: 2 }));
    const v = nbt.simplify(parsed) as Record<string, unknown>;
    expect(parsed.name).toBe("Schematic");
    expect(v).toMatchObject({ Version: 2, DataVersion: 4786, Width: 3, Height: 2, Length: 1, Offset: [-1, 0, 4], PaletteMax: 3 });
    expect(v["Metadata"]).toEqual({ WEOffsetX: -1, WEOffsetY: 0, WEOffsetZ: 4 });
    expect(Object.keys(v["Palette"] as object)).toEqual(states().slice(0, 3));
    expect(v["BlockData"]).toEqual([0, 1, 2, 2, 1, 0]);
  });

  it("encodes palette indices of 128 and more as multi-byte varints", () => {
    const r = registry();
    const palette = [...Array(300).keys()].map((i) => r.resolveState(`minecraft:oak_sign[rotation=${i % 16}]`)).map((x) => (x.ok ? x.value.canonical : ""));
    const uniq = [...new Set(palette)];
    const wool = [
      "white",
      "orange",
      "magenta",
      "light_blue",
      "yellow",
      "lime",
      "pink",
      "gray",
      "light_gray",
      "cyan",
      "purple",
      "blue",
      "brown",
      "green",
      "red",
      "black",
    ];
    const many = [
      ...uniq,
      ...wool.flatMap((c) =>
        [
          "wool",
          "concrete",
          "terracotta",
          "stained_glass",
          "carpet",
          "concrete_powder",
          "glazed_terracotta[facing=north]",
          "candle[candles=1,lit=false,waterlogged=false]",
          "banner[rotation=0]",
        ].map((b) => `minecraft:${c}_${b}`),
      ),
    ];
    const canon = many
      .map((m) => r.resolveState(m))
      .filter((x) => x.ok)
      .map((x) => (x.ok ? x.value.canonical : ""));
    expect(canon.length).toBeGreaterThan(140);
    const n = canon.length;
    const s: Schematic = {
      width: n,
      height: 1,
      length: 1,
      offset: { x: 0, y: 0, z: 0 },
      dataVersion: 4786,
      palette: canon,
      blocks: Uint32Array.from(canon.keys()),
      blockEntities: [],
    };
    const back = read(writeSchematic(s));
    expect(contents(back)).toEqual(contents(s));
  });

  it("reads Sponge v3 (Blocks compound under an unnamed root)", () => {
    const file = gzipNbt({
      type: "compound",
      name: "",
      value: {
        Schematic: {
          type: "compound",
          value: {
            Version: { type: "int", value: 3 },
            DataVersion: { type: "int", value: 3700 },
            Width: { type: "short", value: 1 },
            Height: { type: "short", value: 2 },
            Length: { type: "short", value: 2 },
            Offset: { type: "intArray", value: [0, -1, 0] },
            Metadata: { type: "compound", value: { Name: { type: "string", value: "pillar" } } },
            Blocks: {
              type: "compound",
              value: {
                Palette: { type: "compound", value: { "minecraft:air": { type: "int", value: 1 }, "minecraft:oak_log[axis=y]": { type: "int", value: 0 } } },
                Data: { type: "byteArray", value: [0, 1, 0, 0] },
                BlockEntities: { type: "list", value: { type: "compound", value: [] } },
              },
            },
          },
        },
      },
    });
    const s = read(file);
    expect(s).toMatchObject({ width: 1, height: 2, length: 2, offset: { x: 0, y: -1, z: 0 }, dataVersion: registry().dataVersion, name: "pillar" });
    expect(contents(s).get("0,0,1")).toBe("minecraft:air");
    expect(contents(s).get("0,1,1")).toBe("minecraft:oak_log[axis=y]");
  });

  it("reads WorldEdit files: WEOffset is the paste offset, Offset the old world minimum", () => {
    const file = v2File({
      Offset: { type: "intArray", value: [100, 64, -200] },
      Metadata: {
        type: "compound",
        value: { WEOffsetX: { type: "int", value: -1 }, WEOffsetY: { type: "int", value: 0 }, WEOffsetZ: { type: "int", value: 2 } },
      },
    });
    expect(read(file).offset).toEqual({ x: -1, y: 0, z: 2 });
    expect(read(v2File()).offset).toEqual({ x: 1, y: 2, z: 3 });
    expect(read(v2File({}, ["Offset"])).offset).toEqual({ x: 0, y: 0, z: 0 });
  });

  it("canonicalizes palette states and merges spellings of the same state", () => {
    const file = v2File({
      Width: { type: "short", value: 3 },
      PaletteMax: { type: "int", value: 3 },
      Palette: {
        type: "compound",
        value: {
          "minecraft:oak_log": { type: "int", value: 0 },
          "minecraft:oak_log[axis=y]": { type: "int", value: 1 },
          oak_planks: { type: "int", value: 2 },
        },
      },
      BlockData: { type: "byteArray", value: [0, 1, 2] },
    });
    const s = read(file);
    expect(s.palette).toEqual(["minecraft:oak_log[axis=y]", "minecraft:oak_planks"]);
    expect([...s.blocks]).toEqual([0, 0, 1]);
  });
});

describe("Sponge codec refusals (nothing is read past a refusal)", () => {
  const cases: [string, Buffer, string, Record<string, unknown>?][] = [
    ["version 4", v2File({ Version: { type: "int", value: 4 } }), "invalid_request", { path: "Schematic.Version" }],
    ["missing DataVersion", v2File({}, ["DataVersion"]), "invalid_request", { path: "Schematic.DataVersion" }],
    [
      "a state a newer game's file has and this build does not",
      v2File({
        DataVersion: { type: "int", value: 99999 },
        Palette: { type: "compound", value: { "minecraft:stone": { type: "int", value: 0 }, "mymod:thing": { type: "int", value: 1 } } },
      }),
      "invalid_request",
      { reason: "would_lose", drop: ["unknown_blocks"] },
    ],
    [
      "unknown top-level field",
      v2File({ Extra: { type: "int", value: 1 } }),
      "invalid_request",
      { reason: "would_lose", drop: ["unknown_fields"], loss: { unknown_fields: ["Extra"] } },
    ],
    [
      "biomes",
      v2File({ BiomePalette: { type: "compound", value: { "minecraft:plains": { type: "int", value: 0 } } } }),
      "invalid_request",
      { reason: "would_lose", loss: { biomes: { palette: ["minecraft:plains"], cells: 0 } } },
    ],
    [
      "a block entity without Pos",
      v2File({ BlockEntities: { type: "list", value: { type: "compound", value: [{ Id: { type: "string", value: "minecraft:chest" } }] } } }),
      "invalid_request",
      { path: "Schematic.BlockEntities[0]" },
    ],
    [
      "entities",
      v2File({
        Entities: {
          type: "list",
          value: { type: "compound", value: [{ Id: { type: "string", value: "minecraft:pig" } }, { Id: { type: "string", value: "minecraft:pig" } }] },
        },
      }),
      "invalid_request",
      { reason: "would_lose", loss: { entities: { count: 2, by_type: { "minecraft:pig": 2 } } } },
    ],
    [
      "required mods",
      v2File({ Metadata: { type: "compound", value: { RequiredMods: { type: "list", value: { type: "string", value: ["worldedit"] } } } } }),
      "invalid_request",
      { rejected: "required_mods" },
    ],
    [
      "unknown block",
      v2File({ Palette: { type: "compound", value: { "minecraft:stone": { type: "int", value: 0 }, "mymod:thing": { type: "int", value: 1 } } } }),
      "unsupported_block",
    ],
    [
      "bad property",
      v2File({
        Palette: { type: "compound", value: { "minecraft:stone": { type: "int", value: 0 }, "minecraft:oak_log[axis=w]": { type: "int", value: 1 } } },
      }),
      "unsupported_block",
    ],
    ["short block data", v2File({ BlockData: { type: "byteArray", value: [1] } }), "invalid_request", { path: "Schematic.BlockData" }],
    ["long block data", v2File({ BlockData: { type: "byteArray", value: [1, 0, 0] } }), "invalid_request", { path: "Schematic.BlockData" }],
    ["index outside the palette", v2File({ BlockData: { type: "byteArray", value: [1, 5] } }), "invalid_request"],
    ["truncated varint", v2File({ BlockData: { type: "byteArray", value: [1, -128] } }), "invalid_request"],
    [
      "repeated palette index",
      v2File({ Palette: { type: "compound", value: { "minecraft:stone": { type: "int", value: 0 }, "minecraft:dirt": { type: "int", value: 0 } } } }),
      "invalid_request",
    ],
    ["width as int", v2File({ Width: { type: "int", value: 2 } }), "invalid_request", { path: "Schematic.Width" }],
    [
      "too many positions",
      v2File({ Width: { type: "short", value: -1 }, Height: { type: "short", value: 400 }, Length: { type: "short", value: 1000 } }),
      "budget_exceeded",
      { reason: "positions", requested: 65535 * 400 * 1000 },
    ],
    ["not gzip", Buffer.from("plain text"), "invalid_request"],
    [
      "v3 root with another field",
      gzipNbt({
        type: "compound",
        name: "",
        value: { Schematic: { type: "compound", value: v2Body({ Version: { type: "int", value: 3 } }) }, Other: { type: "int", value: 1 } },
      }),
      "invalid_request",
      { path: "(root).Other" },
    ],
    [
      "v3 with v2 fields",
      gzipNbt({ type: "compound", name: "", value: { Schematic: { type: "compound", value: v2Body({ Version: { type: "int", value: 3 } }) } } }),
      "invalid_request",
      { path: "Schematic.Blocks" },
    ],
    ["truncated NBT", gzipSync(gunzipSync(v2File()).subarray(0, 40)), "invalid_request"],
    ["trailing bytes", gzipSync(Buffer.concat([gunzipSync(v2File()), Buffer.from([0, 0])])), "invalid_request"],
  ];
  for (const [name, file, code, details] of cases) {
    it(name, () => {
      const r = readSchematic(registry(), file);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe(code);
      if (details) expect(r.error.details).toMatchObject(details);
    });
  }

  it("refuses files over the compressed limit and NBT over the decompressed limit (a gzip bomb stops early)", () => {
    const limits = { ...DEFAULT_SCHEMATIC_LIMITS, maxCompressedBytes: 1024 * 1024, maxNbtBytes: 4 * 1024 * 1024 };
    const big = Buffer.alloc(1024 * 1024 + 1, 7);
    const r1 = readSchematic(registry(), big, { limits });
    expect(!r1.ok && r1.error.code === "budget_exceeded" && r1.error.details?.["reason"]).toBe("compressed_size");
    // A gzip bomb: 5 MiB of NBT (one big byte array) compresses to a few KiB.
    const bomb = v2File({ BlockData: { type: "byteArray", value: new Array(5 * 1024 * 1024).fill(0) } });
    expect(bomb.length).toBeLessThan(64 * 1024);
    const r2 = readSchematic(registry(), bomb, { limits });
    expect(!r2.ok && r2.error.code === "budget_exceeded" && r2.error.details?.["reason"]).toBe("nbt_size");
  });

  it("accepts empty entity and block-entity lists and unknown Metadata keys", () => {
    const file = v2File({
      BlockEntities: { type: "list", value: { type: "compound", value: [] } },
      Entities: { type: "list", value: { type: "end", value: [] } },
      Metadata: { type: "compound", value: { Author: { type: "string", value: "me" }, Date: { type: "long", value: [0, 1] } } },
    });
    expect(readSchematic(registry(), file).ok).toBe(true);
  });

  it("every limit is configurable, within the ceiling", () => {
    const body = v2Body({ Width: { type: "short", value: 5000 }, BlockData: { type: "byteArray", value: new Array(5000).fill(0) } });
    const file = gzipNbt({ type: "compound", name: "Schematic", value: body });
    const small = schematicLimits({ maxPositions: 4096 });
    if (!small.ok) throw new Error("limits");
    expect(readSchematic(registry(), file, { limits: small.value })).toMatchObject({
      ok: false,
      error: { code: "budget_exceeded", details: { reason: "positions", limit: 4096 } },
    });
    const r = readSchematic(registry(), file);
    expect(r.ok && r.value.schematic.width).toBe(5000);
    expect(schematicLimits({ maxPositions: 0 })).toMatchObject({ ok: false, error: { code: "invalid_request", details: { field: "maxPositions" } } });
    expect(schematicLimits({ maxNbtBytes: 2 ** 40 })).toMatchObject({ ok: false, error: { code: "budget_exceeded", details: { field: "maxNbtBytes" } } });
    expect(schematicLimits({ maxTea: 1 } as never)).toMatchObject({ ok: false, error: { details: { field: "maxTea" } } });
  });
});
