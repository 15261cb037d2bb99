import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import mcData from "minecraft-data";
import { describe, expect, it } from "vitest";
import { NbtReader } from "@mcb/nbt";
import { TAG, nbt, type NbtCompound, type NbtValue } from "@mcb/nbt";
import { canonicalNbt, encodeNbt } from "@mcb/nbt";
import { STRUCTURE_VOID, readSchematic, writeSchematic, type ReadOptions } from "../src/index.js";
import { BLOCK_UPGRADES, upgradeState } from "@mcb/blocks";
import { contents, registry } from "./support.js";

const file = (name: string, root: NbtCompound) => gzipSync(encodeNbt(name, root));
const states = (s: Record<string, number>) => nbt.compound(Object.entries(s).map(([k, v]) => [k, nbt.int(v)] as const));
const chestItems = nbt.compound([
  [
    "Items",
    nbt.list(TAG.Compound, [
      nbt.compound([
        ["Slot", nbt.byte(0)],
        ["id", nbt.string("minecraft:diamond")],
        ["count", nbt.int(7)],
      ]),
    ]),
  ],
]);
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

function read(bytes: Uint8Array, options: ReadOptions = {}) {
  const r = readSchematic(registry(), bytes, options);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

function decoded(data: Uint8Array): NbtCompound {
  const r = new NbtReader(data);
  r.root();
  return r.compoundValue();
}

describe("Sponge v1 (WorldEdit 7.0, Minecraft 1.13)", () => {
  // 2×1×2: a 1.13 sign, a stone slab (the smooth one then), grass, a chest with items.
  const v1 = file(
    "Schematic",
    nbt.compound([
      ["Version", nbt.int(1)],
      ["Width", nbt.short(2)],
      ["Height", nbt.short(1)],
      ["Length", nbt.short(2)],
      ["Offset", nbt.intArray([0, 0, 0])],
      ["PaletteMax", nbt.int(4)],
      [
        "Palette",
        states({
          "minecraft:sign[rotation=4,waterlogged=false]": 0,
          "minecraft:stone_slab[type=bottom,waterlogged=false]": 1,
          "minecraft:grass": 2,
          "minecraft:chest[facing=west,type=single,waterlogged=false]": 3,
        }),
      ],
      ["BlockData", nbt.byteArray(Uint8Array.from([0, 1, 2, 3]))],
      [
        "TileEntities",
        nbt.list(TAG.Compound, [
          nbt.compound([["ContentVersion", nbt.int(1)], ["Pos", nbt.intArray([1, 0, 1])], ["Id", nbt.string("minecraft:chest")], ...chestItems.v]),
        ]),
      ],
    ]),
  );

  it("is read as 1.13.2, its renamed blocks upgraded, its chest kept with its items", () => {
    const r = read(v1);
    expect(r.format).toBe("sponge_v1");
    expect(r.sourceDataVersion).toBe(1631);
    expect(r.upgrades).toEqual({
      "minecraft:sign → minecraft:oak_sign": 1,
      "minecraft:stone_slab → minecraft:smooth_stone_slab": 1,
      "minecraft:grass → minecraft:short_grass": 1,
    });
    const c = contents(r.schematic);
    expect(c.get("0,0,0")).toBe("minecraft:oak_sign[rotation=4,waterlogged=false]");
    expect(c.get("1,0,0")).toBe("minecraft:smooth_stone_slab[type=bottom,waterlogged=false]");
    expect(c.get("0,0,1")).toBe("minecraft:short_grass");
    expect(r.schematic.blockEntities).toHaveLength(1);
    const be = r.schematic.blockEntities[0]!;
    expect(be).toMatchObject({ x: 1, y: 0, z: 1, id: "minecraft:chest" });
    expect(Buffer.from(be.data).equals(canonicalNbt(chestItems))).toBe(true);
  });
});

describe("Sponge v2 and v3 with block entities, entities and biomes", () => {
  const v2 = (extra: [string, NbtValue][] = []) =>
    file(
      "Schematic",
      nbt.compound([
        ["Version", nbt.int(2)],
        ["DataVersion", nbt.int(3465)],
        ["Width", nbt.short(2)],
        ["Height", nbt.short(1)],
        ["Length", nbt.short(1)],
        ["PaletteMax", nbt.int(2)],
        ["Palette", states({ "minecraft:chest[facing=north,type=single,waterlogged=false]": 0, "minecraft:chain[axis=y,waterlogged=false]": 1 })],
        ["BlockData", nbt.byteArray(Uint8Array.from([0, 1]))],
        ["BlockEntities", nbt.list(TAG.Compound, [nbt.compound([["Pos", nbt.intArray([0, 0, 0])], ["Id", nbt.string("minecraft:chest")], ...chestItems.v])])],
        ...extra,
      ]),
    );
  const entities: [string, NbtValue] = [
    "Entities",
    nbt.list(
      TAG.Compound,
      ["minecraft:pig", "minecraft:pig", "minecraft:armor_stand"].map((id) =>
        nbt.compound([
          ["Id", nbt.string(id)],
          ["Pos", nbt.list(TAG.Double, [nbt.double(0.5), nbt.double(0), nbt.double(0.5)])],
        ]),
      ),
    ),
  ];
  const biomes: [string, NbtValue][] = [
    ["BiomePaletteMax", nbt.int(1)],
    ["BiomePalette", states({ "minecraft:plains": 0 })],
    ["BiomeData", nbt.byteArray(Uint8Array.from([0, 0]))],
  ];

  it("a chest's data survives reading, writing v3 and v2, and reading again (same digest)", () => {
    const first = read(v2());
    expect(contents(first.schematic).get("1,0,0")).toBe("minecraft:iron_chain[axis=y,waterlogged=false]"); // 1.21.9 rename
    const digest = sha(first.schematic.blockEntities[0]!.data);
    for (const version of [3, 2] as const) {
      const again = read(writeSchematic(first.schematic, { version }));
      expect(again.format).toBe(version === 3 ? "sponge_v3" : "sponge_v2");
      expect(again.schematic.blockEntities.map((b) => [b.x, b.y, b.z, b.id, sha(b.data)])).toEqual([[0, 0, 0, "minecraft:chest", digest]]);
      expect(decoded(again.schematic.blockEntities[0]!.data)).toEqual(chestItems);
    }
  });

  it("entities and biomes refuse the file with a loss report; drop imports the rest and reports the same", () => {
    const f = v2([entities, ...biomes]);
    const refused = readSchematic(registry(), f);
    const loss = { entities: { count: 3, by_type: { "minecraft:armor_stand": 1, "minecraft:pig": 2 } }, biomes: { palette: ["minecraft:plains"], cells: 2 } };
    expect(refused).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "would_lose", drop: ["entities", "biomes"], loss } } });
    expect(readSchematic(registry(), f, { drop: ["entities"] })).toMatchObject({ ok: false, error: { details: { drop: ["biomes"] } } });
    const r = read(f, { drop: ["entities", "biomes"] });
    expect(r.loss).toEqual(loss);
    expect(r.schematic.blockEntities).toHaveLength(1);
  });

  it("a block entity where the block has none is reported (orphaned), never silently dropped", () => {
    const f = file(
      "Schematic",
      nbt.compound([
        ["Version", nbt.int(2)],
        ["DataVersion", nbt.int(3953)],
        ["Width", nbt.short(1)],
        ["Height", nbt.short(1)],
        ["Length", nbt.short(1)],
        ["Palette", states({ "minecraft:stone": 0 })],
        ["BlockData", nbt.byteArray(Uint8Array.from([0]))],
        [
          "BlockEntities",
          nbt.list(TAG.Compound, [
            nbt.compound([
              ["Pos", nbt.intArray([0, 0, 0])],
              ["Id", nbt.string("minecraft:chest")],
            ]),
          ]),
        ],
      ]),
    );
    expect(readSchematic(registry(), f)).toMatchObject({
      ok: false,
      error: {
        details: {
          reason: "would_lose",
          loss: { orphaned_block_entities: { count: 1, sample: [{ x: 0, y: 0, z: 0, id: "minecraft:chest", block: "minecraft:stone" }] } },
        },
      },
    });
    expect(read(f, { drop: ["orphaned_block_entities"] }).schematic.blockEntities).toEqual([]);
  });

  it("v3 from WorldEdit 7.3: the paste offset is Offset − Metadata.WorldEdit.Origin; Data holds the block entity", () => {
    const f = file(
      "",
      nbt.compound([
        [
          "Schematic",
          nbt.compound([
            ["Version", nbt.int(3)],
            ["DataVersion", nbt.int(3955)],
            ["Width", nbt.short(1)],
            ["Height", nbt.short(1)],
            ["Length", nbt.short(1)],
            ["Offset", nbt.intArray([100, 64, -20])],
            [
              "Metadata",
              nbt.compound([
                [
                  "WorldEdit",
                  nbt.compound([
                    ["Origin", nbt.intArray([101, 64, -18])],
                    ["Version", nbt.string("7.3.6")],
                  ]),
                ],
                ["Date", nbt.long(1_700_000_000_000n)],
              ]),
            ],
            [
              "Blocks",
              nbt.compound([
                ["Palette", states({ "minecraft:barrel[facing=up,open=false]": 0 })],
                ["Data", nbt.byteArray(Uint8Array.from([0]))],
                [
                  "BlockEntities",
                  nbt.list(TAG.Compound, [
                    nbt.compound([
                      ["Pos", nbt.intArray([0, 0, 0])],
                      ["Id", nbt.string("minecraft:barrel")],
                      ["Data", nbt.compound([["id", nbt.string("minecraft:barrel")], ...chestItems.v])],
                    ]),
                  ]),
                ],
              ]),
            ],
          ]),
        ],
      ]),
    );
    const r = read(f);
    expect(r.schematic.offset).toEqual({ x: -1, y: 0, z: -2 });
    expect(decoded(r.schematic.blockEntities[0]!.data)).toEqual(chestItems); // the id key is the type, not data
  });
});

describe("Litematica (one region)", () => {
  /** Litematica's tight packing: palette indices as a bit stream over longs, LSB first. */
  function pack(indices: number[], bits: number): BigInt64Array {
    const longs = new BigInt64Array(Math.ceil((indices.length * bits) / 64));
    indices.forEach((v, i) => {
      const bit = i * bits;
      const at = Math.floor(bit / 64),
        shift = BigInt(bit % 64);
      longs[at] = BigInt.asIntN(64, BigInt.asUintN(64, longs[at]!) | (BigInt(v) << shift));
      if ((bit % 64) + bits > 64) longs[at + 1] = BigInt.asIntN(64, BigInt.asUintN(64, longs[at + 1]!) | (BigInt(v) >> (64n - shift)));
    });
    return longs;
  }
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
    "stone",
  ];
  const palette = nbt.list(
    TAG.Compound,
    wool.map((c) => nbt.compound([["Name", nbt.string(c === "stone" ? "minecraft:stone" : `minecraft:${c}_wool`)]])),
  );

  it("unpacks indices that span longs (5-bit entries), with a negative size", () => {
    const size = { x: -4, y: 3, z: 5 }; // extends towards −x: the minimum corner is Position.x − 3
    const n = 4 * 3 * 5;
    const indices = Array.from({ length: n }, (_, i) => (i * 7) % 17);
    const f = file(
      "",
      nbt.compound([
        ["MinecraftDataVersion", nbt.int(3955)],
        ["Version", nbt.int(6)],
        ["Metadata", nbt.compound([["Name", nbt.string("wool wall")]])],
        [
          "Regions",
          nbt.compound([
            [
              "main",
              nbt.compound([
                [
                  "Position",
                  nbt.compound([
                    ["x", nbt.int(10)],
                    ["y", nbt.int(0)],
                    ["z", nbt.int(2)],
                  ]),
                ],
                [
                  "Size",
                  nbt.compound([
                    ["x", nbt.int(size.x)],
                    ["y", nbt.int(size.y)],
                    ["z", nbt.int(size.z)],
                  ]),
                ],
                ["BlockStatePalette", palette],
                ["BlockStates", nbt.longArray(pack(indices, 5))],
                ["TileEntities", nbt.list(TAG.End, [])],
                ["Entities", nbt.list(TAG.End, [])],
              ]),
            ],
          ]),
        ],
      ]),
    );
    const r = read(f);
    expect(r.format).toBe("litematic");
    expect(r.schematic).toMatchObject({ width: 4, height: 3, length: 5, offset: { x: 7, y: 0, z: 2 }, name: "wool wall" });
    const c = contents(r.schematic);
    let i = 0;
    for (let y = 0; y < 3; y++)
      for (let z = 0; z < 5; z++)
        for (let x = 0; x < 4; x++, i++) {
          const w = wool[indices[i]!]!;
          expect(c.get(`${x},${y},${z}`)).toBe(w === "stone" ? "minecraft:stone" : `minecraft:${w}_wool`);
        }
  });

  it("refuses several regions, naming the way out", () => {
    const region = nbt.compound([
      [
        "Position",
        nbt.compound([
          ["x", nbt.int(0)],
          ["y", nbt.int(0)],
          ["z", nbt.int(0)],
        ]),
      ],
      [
        "Size",
        nbt.compound([
          ["x", nbt.int(1)],
          ["y", nbt.int(1)],
          ["z", nbt.int(1)],
        ]),
      ],
      ["BlockStatePalette", palette],
      ["BlockStates", nbt.longArray(new BigInt64Array(1))],
    ]);
    const f = file(
      "",
      nbt.compound([
        ["MinecraftDataVersion", nbt.int(3955)],
        ["Version", nbt.int(6)],
        [
          "Regions",
          nbt.compound([
            ["a", region],
            ["b", region],
          ]),
        ],
      ]),
    );
    expect(readSchematic(registry(), f)).toMatchObject({ ok: false, error: { code: "invalid_request", details: { regions: 2 } } });
  });
});

describe("vanilla structure files", () => {
  it("reads the sparse block list; unlisted positions are structure void (a paste keeps the world there)", () => {
    const pos = (x: number, y: number, z: number) => nbt.list(TAG.Int, [nbt.int(x), nbt.int(y), nbt.int(z)]);
    const f = file(
      "",
      nbt.compound([
        ["DataVersion", nbt.int(3953)],
        ["size", pos(2, 2, 1)],
        [
          "palette",
          nbt.list(TAG.Compound, [
            nbt.compound([
              ["Name", nbt.string("minecraft:chest")],
              [
                "Properties",
                nbt.compound([
                  ["facing", nbt.string("east")],
                  ["type", nbt.string("single")],
                  ["waterlogged", nbt.string("false")],
                ]),
              ],
            ]),
            nbt.compound([["Name", nbt.string("minecraft:cobblestone")]]),
          ]),
        ],
        [
          "blocks",
          nbt.list(TAG.Compound, [
            nbt.compound([
              ["pos", pos(0, 0, 0)],
              ["state", nbt.int(0)],
              ["nbt", nbt.compound([["id", nbt.string("minecraft:chest")], ...chestItems.v])],
            ]),
            nbt.compound([
              ["pos", pos(1, 1, 0)],
              ["state", nbt.int(1)],
            ]),
          ]),
        ],
        ["entities", nbt.list(TAG.End, [])],
      ]),
    );
    const r = read(f);
    expect(r.format).toBe("structure");
    const c = contents(r.schematic);
    expect(c.get("0,0,0")).toBe("minecraft:chest[facing=east,type=single,waterlogged=false]");
    expect(c.get("1,1,0")).toBe("minecraft:cobblestone");
    expect(c.get("1,0,0")).toBe(STRUCTURE_VOID);
    expect(decoded(r.schematic.blockEntities[0]!.data)).toEqual(chestItems);
  });
});

describe("format detection and version rules", () => {
  it("MCEdit .schematic is recognised and refused with the way out", () => {
    const f = file(
      "Schematic",
      nbt.compound([
        ["Width", nbt.short(1)],
        ["Height", nbt.short(1)],
        ["Length", nbt.short(1)],
        ["Materials", nbt.string("Alpha")],
        ["Blocks", nbt.byteArray(Uint8Array.from([1]))],
        ["Data", nbt.byteArray(Uint8Array.from([0]))],
      ]),
    );
    expect(readSchematic(registry(), f)).toMatchObject({
      ok: false,
      error: { code: "invalid_request", details: { reason: "unsupported_format", format: "mcedit" } },
    });
  });

  it("an unknown NBT layout and raw text are refused", () => {
    expect(readSchematic(registry(), file("x", nbt.compound([["foo", nbt.int(1)]])))).toMatchObject({
      ok: false,
      error: { details: { reason: "unsupported_format" } },
    });
    expect(readSchematic(registry(), Buffer.from("hello"))).toMatchObject({ ok: false, error: { code: "invalid_request" } });
  });

  it("a file from a newer game (26.3, DataVersion 5023) is read as it is; states this build does not know are named with their counts, and dropped only on request (their positions left as they are)", () => {
    const v2 = (palette: Record<string, number>, blocks: number[]) =>
      file(
        "Schematic",
        nbt.compound([
          ["Version", nbt.int(2)],
          ["DataVersion", nbt.int(5023)],
          ["Width", nbt.short(blocks.length)],
          ["Height", nbt.short(1)],
          ["Length", nbt.short(1)],
          ["Palette", states(palette)],
          ["BlockData", nbt.byteArray(Uint8Array.from(blocks))],
        ]),
      );
    const known = readSchematic(registry(), v2({ "minecraft:stone": 0, "minecraft:cinnabar": 1 }, [0, 1, 1]));
    expect(known.ok && [known.value.sourceDataVersion, known.value.schematic.palette, known.value.notes]).toEqual([
      5023,
      ["minecraft:stone", "minecraft:cinnabar"],
      [expect.stringContaining("newer Minecraft (DataVersion 5023)")],
    ]);
    const file26_3 = v2({ "minecraft:stone": 0, "minecraft:copper_fungus": 1, "minecraft:oak_log[axis=w]": 2 }, [0, 1, 1, 2, 1]);
    expect(readSchematic(registry(), file26_3)).toMatchObject({
      ok: false,
      error: {
        code: "invalid_request",
        details: {
          reason: "would_lose",
          drop: ["unknown_blocks"],
          loss: {
            unknown_blocks: {
              count: 4,
              states: [
                { state: "minecraft:copper_fungus", count: 3, why: expect.stringContaining("unknown block") },
                { state: "minecraft:oak_log[axis=w]", count: 1, why: expect.stringContaining('"w" is not a valid value') },
              ],
            },
          },
        },
      },
    });
    const dropped = readSchematic(registry(), file26_3, { drop: ["unknown_blocks"] });
    if (!dropped.ok) throw new Error(dropped.error.message);
    expect(contents(dropped.value.schematic)).toEqual(
      new Map([
        ["0,0,0", "minecraft:stone"],
        ["1,0,0", "minecraft:structure_void"],
        ["2,0,0", "minecraft:structure_void"],
        ["3,0,0", "minecraft:structure_void"],
        ["4,0,0", "minecraft:structure_void"],
      ]),
    );
    expect(dropped.value.loss.unknown_blocks?.count).toBe(4);
    // An older file with an unknown state is still refused outright: it is not from a newer game.
    const old = file(
      "Schematic",
      nbt.compound([
        ["Version", nbt.int(2)],
        ["DataVersion", nbt.int(3953)],
        ["Width", nbt.short(1)],
        ["Height", nbt.short(1)],
        ["Length", nbt.short(1)],
        ["Palette", states({ "minecraft:copper_fungus": 0 })],
        ["BlockData", nbt.byteArray(Uint8Array.from([0]))],
      ]),
    );
    expect(readSchematic(registry(), old)).toMatchObject({ ok: false, error: { code: "unsupported_block" } });
  });

  it("raw (uncompressed) NBT is read too", () => {
    const raw = encodeNbt(
      "Schematic",
      nbt.compound([
        ["Version", nbt.int(2)],
        ["DataVersion", nbt.int(3953)],
        ["Width", nbt.short(1)],
        ["Height", nbt.short(1)],
        ["Length", nbt.short(1)],
        ["Palette", states({ "minecraft:stone": 0 })],
        ["BlockData", nbt.byteArray(Uint8Array.from([0]))],
      ]),
    );
    expect(contents(read(raw).schematic).get("0,0,0")).toBe("minecraft:stone");
  });
});

describe("DataVersion upgrades, one test per rename", () => {
  const versions = mcData.versions.pc;
  /** The newest minecraft-data release before `dv` that has block data. */
  function blocksBefore(dv: number): Set<string> {
    const v = versions
      .filter((x) => x.dataVersion !== undefined && x.dataVersion < dv && /^\d+\.\d+(\.\d+)?$/.test(x.minecraftVersion))
      .sort((a, b) => b.dataVersion! - a.dataVersion!);
    for (const x of v) {
      const d = mcData(x.minecraftVersion);
      if (d?.blocksArray) return new Set(d.blocksArray.map((b) => `minecraft:${b.name}`));
    }
    throw new Error(`no block data before ${dv}`);
  }
  // [old state, new state, a file DataVersion before the step, the step's DataVersion]
  const cases: [string, string, number, number][] = [
    ["minecraft:sign[rotation=3,waterlogged=false]", "minecraft:oak_sign[rotation=3,waterlogged=false]", 1631, 1902],
    ["minecraft:wall_sign[facing=east,waterlogged=false]", "minecraft:oak_wall_sign[facing=east,waterlogged=false]", 1631, 1902],
    ["minecraft:stone_slab[type=top,waterlogged=false]", "minecraft:smooth_stone_slab[type=top,waterlogged=false]", 1631, 1902],
    [
      "minecraft:cobblestone_wall[east=true,north=false,south=true,up=true,waterlogged=false,west=false]",
      "minecraft:cobblestone_wall[east=low,north=none,south=low,up=true,waterlogged=false,west=none]",
      2230,
      2504,
    ],
    ["minecraft:jigsaw[facing=up]", "minecraft:jigsaw[orientation=up_north]", 2230, 2521],
    ["minecraft:grass_path", "minecraft:dirt_path", 2586, 2681],
    ["minecraft:cauldron[level=2]", "minecraft:water_cauldron[level=2]", 2586, 2681],
    ["minecraft:cauldron[level=0]", "minecraft:cauldron", 2586, 2681],
    ["minecraft:grass", "minecraft:short_grass", 3465, 3698],
    ["minecraft:chain[axis=x,waterlogged=false]", "minecraft:iron_chain[axis=x,waterlogged=false]", 4440, 4554],
  ];
  for (const [from, to, before, step] of cases) {
    it(`${from} (DataVersion ${before}) → ${to}`, () => {
      expect(upgradeState(from, before, registry().dataVersion).state).toBe(to);
      expect(registry().resolveState(to).ok).toBe(true);
      expect(BLOCK_UPGRADES.some((u) => u.dataVersion === step)).toBe(true);
      // A file already at the step's version is left as it is.
      expect(upgradeState(from, step, registry().dataVersion)).toEqual({ state: from, applied: [] });
    });
  }

  it("every renamed id existed before its DataVersion (minecraft-data), and its new id exists in the registry", () => {
    for (const u of BLOCK_UPGRADES.filter((x) => x.what.includes(" → minecraft:"))) {
      const [from, to] = u.what.split(" → ") as [string, string];
      expect(blocksBefore(u.dataVersion).has(from), `${from} before ${u.dataVersion}`).toBe(true);
      expect(registry().blockTypes.has(to), to).toBe(true);
    }
  });
});
