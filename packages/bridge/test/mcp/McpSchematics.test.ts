import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import nbt from "prismarine-nbt";
import { describe, expect, it } from "vitest";
import { DEFAULT_SCHEMATIC_LIMITS, readSchematic, writeSchematic, type Schematic } from "@mcb/schematic";
import { registry } from "../../../blocks/test/registry.js";
import { setup, v } from "./InProcessMcp.js";

const CHEST = "minecraft:chest[facing=north,type=single,waterlogged=false]";

/** A Sponge v2 file written by prismarine-nbt: a grass block (named as in 1.20.1, DataVersion 3465), a pig, a plains biome. */
function oldFarm(): Buffer {
  const i = (value: number) => ({ type: "int", value });
  return gzipSync(
    nbt.writeUncompressed({
      type: "compound",
      name: "Schematic",
      value: {
        Version: i(2),
        DataVersion: i(3465),
        Width: { type: "short", value: 2 },
        Height: { type: "short", value: 1 },
        Length: { type: "short", value: 1 },
        PaletteMax: i(2),
        Palette: { type: "compound", value: { "minecraft:grass": i(0), "minecraft:grass_block[snowy=false]": i(1) } },
        BlockData: { type: "byteArray", value: [0, 1] },
        Entities: {
          type: "list",
          value: {
            type: "compound",
            value: [{ Id: { type: "string", value: "minecraft:pig" }, Pos: { type: "list", value: { type: "double", value: [0.5, 1, 0.5] } } }],
          },
        },
        BiomePaletteMax: i(1),
        BiomePalette: { type: "compound", value: { "minecraft:plains": i(0) } },
        BiomeData: { type: "byteArray", value: [0, 0] },
      },
    } as unknown as nbt.NBT),
  );
}

/** 20 × 200 × 25 = 100,000 … plus one layer: more than one tile. Stone shell rows and a chest with data. */
function tall(): Schematic {
  const width = 20,
    height = 201,
    length = 25;
  const blocks = new Uint32Array(width * height * length);
  for (let i = 0; i < blocks.length; i++) blocks[i] = i % 7 === 0 ? 1 : 0;
  blocks[5] = 2;
  const data = readSchematic(
    registry(),
    writeSchematic({
      width: 1,
      height: 1,
      length: 1,
      offset: v(0, 0, 0),
      dataVersion: 4786,
      palette: [CHEST],
      blocks: Uint32Array.of(0),
      blockEntities: [{ x: 0, y: 0, z: 0, id: "minecraft:chest", data: Uint8Array.of(10, 0, 0, 8, 0, 4, 76, 111, 99, 107, 0, 1, 107, 0) }],
    }),
  );
  if (!data.ok) throw new Error(data.error.message);
  return {
    width,
    height,
    length,
    offset: v(0, 0, 0),
    dataVersion: 4786,
    palette: ["minecraft:air", "minecraft:stone", CHEST],
    blocks,
    blockEntities: [{ ...data.value.schematic.blockEntities[0]!, x: 5, y: 0, z: 0 }],
  };
}

describe("schematic_import_prepare with real-world files", () => {
  it("a paste over 100,000 positions is prepared tile by tile and the tiles become one part", async () => {
    const s = await setup();
    mkdirSync(join(s.dir, "schematics"));
    writeFileSync(join(s.dir, "schematics", "tall.schem"), writeSchematic(tall()));
    const list = s.call("asset_list", {});
    expect((await list).structuredContent).toMatchObject({
      assets: [{ asset_id: "tall", format: "sponge_v3", block_entities: 1, loss: {}, width: 20, height: 201, length: 25 }],
    });
    const whole = s.error(await s.call("schematic_import_prepare", { asset_id: "tall", target: v(2, -60, 2) }));
    expect(whole).toMatchObject({ code: "budget_exceeded", details: { reason: "tiles", tiles: 2, tile_blocks: 100_000 } });
    const ops: string[] = [];
    let written = 0;
    for (const tile_index of [0, 1]) {
      const r = await s.call("schematic_import_prepare", { asset_id: "tall", target: v(2, -60, 2), tile_index });
      const p = r.structuredContent as {
        plan_id: string;
        plan_hash: string;
        changed_blocks: number;
        tile_index: number;
        tiles: { count: number };
        tile_bounds: { min: { y: number }; max: { y: number } };
        source: { format: string };
      };
      expect(p).toMatchObject({ tile_index, tiles: { count: 2 }, source: { format: "sponge_v3" } });
      expect(p.tile_bounds).toMatchObject(tile_index === 0 ? { min: { y: -60 }, max: { y: -60 + 199 } } : { min: { y: 140 }, max: { y: 140 } });
      const applied = await s.call("build_apply", { plan_id: p.plan_id, plan_hash: p.plan_hash, idempotency_key: `tile-${tile_index}` });
      ops.push((applied.structuredContent as { operation_id: string }).operation_id);
      written += p.changed_blocks;
    }
    await s.engine.settle();
    expect(s.world.stateAt(7, -60, 2)).toBe(CHEST);
    expect(s.world.digestAt(7, -60, 2)).not.toBeNull();
    // The top layer (tile 1): its first stone is the first multiple of 7 from 200 × 500.
    const top = Math.ceil(100_000 / 7) * 7 - 100_000;
    expect(s.world.stateAt(2 + (top % 20), -60 + 200, 2 + Math.floor(top / 20))).toBe("minecraft:stone");
    const part = s.error(await s.call("part_define", { name: "tall", operation_id: ops[0], operation_ids: ops }));
    expect(part).toMatchObject({ code: "invalid_request", details: { reason: "operation_ids" } });
    const defined = (await s.call("part_define", { name: "tall", operation_ids: ops })).structuredContent as {
      part_id: string;
      count: number;
      operation_ids: string[];
    };
    expect(defined).toMatchObject({ count: written, operation_ids: ops });
    const listed = (await s.call("operation_list", { part_id: defined.part_id })).structuredContent as { operations: { operation_id: string }[] };
    expect(listed.operations.map((o) => o.operation_id).sort()).toEqual([...ops].sort());
    // A part's mask is exact: a build through the part may not write beside it.
    const outside = s.error(
      await s.call("build_prepare", {
        part_id: defined.part_id,
        recipe: { version: 1, operations: [{ type: "box", min: v(30, 100, 30), max: v(30, 100, 30), block: "minecraft:glass" }] },
      }),
    );
    expect(outside).toMatchObject({ code: "out_of_bounds", details: { part_id: defined.part_id, outside: 1 } });
    expect(s.error(await s.call("schematic_import_prepare", { asset_id: "tall", target: v(2, -60, 2), tile_index: 2 }))).toMatchObject({
      code: "invalid_request",
      details: { reason: "tile_index", tiles: 2 },
    });
    await s.close();
  });

  it("entities and biomes refuse the import with a loss report; drop imports the rest and reports the same; old names are upgraded", async () => {
    const s = await setup();
    mkdirSync(join(s.dir, "schematics"));
    writeFileSync(join(s.dir, "schematics", "farm.schem"), oldFarm());
    const listed = await s.call("asset_list", {});
    expect(s.error(listed)).toBeNull();
    const asset = listed.structuredContent as { assets: unknown[] };
    const loss = { entities: { count: 1, by_type: { "minecraft:pig": 1 } }, biomes: { palette: ["minecraft:plains"], cells: 2 } };
    expect(asset.assets[0]).toMatchObject({ format: "sponge_v2", source_data_version: 3465, data_version: registry().dataVersion, loss });
    const refused = s.error(await s.call("schematic_import_prepare", { asset_id: "farm", target: v(1, 64, 1) }));
    expect(refused).toMatchObject({ code: "invalid_request", details: { reason: "would_lose", drop: ["entities", "biomes"], loss } });
    expect(s.error(await s.call("schematic_import_prepare", { asset_id: "farm", target: v(1, 64, 1), drop: ["entities"] }))).toMatchObject({
      details: { reason: "would_lose", drop: ["biomes"] },
    });
    const ok = (await s.call("schematic_import_prepare", { asset_id: "farm", target: v(1, 64, 1), drop: ["entities", "biomes"] })).structuredContent;
    expect(ok).toMatchObject({
      changed_blocks: 2,
      source: { format: "sponge_v2", source_data_version: 3465, upgrades: { "minecraft:grass → minecraft:short_grass": 1 }, loss },
    });
    expect(s.error(await s.call("schematic_import_prepare", { asset_id: "farm", target: v(1, 64, 1), drop: ["pets"] }))).toMatchObject({
      code: "invalid_request",
      details: { reason: "schema" },
    });
    await s.close();
  });

  it("a file from a newer game (26.3): its unknown states are named in the loss report, left out only with drop unknown_blocks (those positions not written)", async () => {
    const s = await setup();
    mkdirSync(join(s.dir, "schematics"));
    const i = (value: number) => ({ type: "int", value });
    const newer = gzipSync(
      nbt.writeUncompressed({
        type: "compound",
        name: "Schematic",
        value: {
          Version: i(2),
          DataVersion: i(5023),
          Width: { type: "short", value: 3 },
          Height: { type: "short", value: 1 },
          Length: { type: "short", value: 1 },
          Palette: { type: "compound", value: { "minecraft:cinnabar": i(0), "minecraft:copper_fungus[age=2]": i(1) } },
          BlockData: { type: "byteArray", value: [0, 1, 1] },
        },
      } as unknown as nbt.NBT),
    );
    writeFileSync(join(s.dir, "schematics", "new.schem"), newer);
    const loss = {
      unknown_blocks: { count: 2, states: [{ state: "minecraft:copper_fungus[age=2]", count: 2, why: expect.stringContaining("unknown block") }] },
    };
    expect(s.error(await s.call("schematic_import_prepare", { asset_id: "new", target: v(1, 64, 1) }))).toMatchObject({
      code: "invalid_request",
      details: { reason: "would_lose", drop: ["unknown_blocks"], loss },
    });
    const ok = (await s.call("schematic_import_prepare", { asset_id: "new", target: v(1, 64, 1), drop: ["unknown_blocks"] })).structuredContent;
    expect(ok).toMatchObject({ changed_blocks: 1, source: { source_data_version: 5023, loss } });
    await s.close();
  });

  it("read limits: a client may lower them, may not pass the server's policy, and a policy may be raised by the operator", async () => {
    const s = await setup();
    mkdirSync(join(s.dir, "schematics"));
    writeFileSync(join(s.dir, "schematics", "farm.schem"), oldFarm());
    const args = { asset_id: "farm", target: v(1, 64, 1), drop: ["entities", "biomes"] };
    expect(s.error(await s.call("schematic_import_prepare", { ...args, limits: { max_positions: 1 } }))).toMatchObject({
      code: "budget_exceeded",
      details: { reason: "positions" },
    });
    const over = s.error(await s.call("schematic_import_prepare", { ...args, limits: { max_positions: DEFAULT_SCHEMATIC_LIMITS.maxPositions + 1 } }));
    expect(over).toMatchObject({ code: "budget_exceeded", details: { field: "limits.max_positions", limit: DEFAULT_SCHEMATIC_LIMITS.maxPositions } });
    expect(over.message).toMatch(/^the position limit .* may be at most/); // the message names the limit; details.field spells it as the client did
    expect(s.error(await s.call("schematic_import_prepare", { ...args, limits: { max_positions: 0 } }))).toMatchObject({
      code: "invalid_request",
      details: { reason: "schema" },
    });
    await s.close();
    const raised = await setup({ libraryLimits: { ...DEFAULT_SCHEMATIC_LIMITS, maxPositions: 50_000_000 } });
    mkdirSync(join(raised.dir, "schematics"));
    writeFileSync(join(raised.dir, "schematics", "farm.schem"), oldFarm());
    expect(raised.error(await raised.call("schematic_import_prepare", { ...args, limits: { max_positions: 30_000_000 } }))).toBeNull();
    await raised.close();
  });

  it("a damaged file is refused with a structured error and nothing is prepared or written", async () => {
    const s = await setup();
    mkdirSync(join(s.dir, "schematics"));
    const good = writeSchematic(tall());
    writeFileSync(join(s.dir, "schematics", "cut.schem"), good.subarray(0, good.length - 40));
    expect(s.error(await s.call("asset_list", {}))).toMatchObject({ code: "invalid_request", details: { asset_id: "cut" } });
    expect(s.error(await s.call("schematic_import_prepare", { asset_id: "cut", target: v(2, 0, 2), tile_index: 0 }))).toMatchObject({
      code: "invalid_request",
      details: { reason: "schematic_format" },
    });
    expect((await s.call("operation_list", {})).structuredContent).toEqual({ operations: [] });
    expect(s.world.stateAt(7, 0, 2)).toBe("minecraft:air");
    await s.close();
  });
});

describe("schematic_import_prepare: where it lands and its air", () => {
  it("returns paste_bounds (block 0 0 0 at target + offset), announces air over existing blocks, and include_air: false leaves them", async () => {
    const s = await setup();
    try {
      // A 3 × 1 × 1 schematic, stone–air–stone, offset (−1, 0, 0): block 0 0 0 lands one west of the target.
      const file = writeSchematic({
        width: 3,
        height: 1,
        length: 1,
        offset: v(-1, 0, 0),
        dataVersion: 4786,
        palette: ["minecraft:stone", "minecraft:air"],
        blocks: Uint32Array.of(0, 1, 0),
        blockEntities: [],
      });
      mkdirSync(join(s.dir, "schematics"), { recursive: true });
      writeFileSync(join(s.dir, "schematics", "gate.schem"), file);
      // Our own glass stands where the schematic's air lands (a person's would refuse the paste: the merge).
      const glass = await s.call("build_prepare", {
        recipe: { version: 1, operations: [{ type: "blocks", blocks: [{ x: 10, y: 70, z: 5, block: "glass" }] }] },
        apply: { idempotency_key: "glass" },
      });
      expect((glass.structuredContent as { operation: { status: string } }).operation.status).toBe("applied");
      const withAir = await s.call("schematic_import_prepare", { asset_id: "gate", target: v(10, 70, 5) });
      expect(s.error(withAir)).toBeNull();
      const p = withAir.structuredContent as { paste_bounds: unknown; warnings: string[]; changed_blocks: number };
      expect(p.paste_bounds).toEqual({ min: v(9, 70, 5), max: v(11, 70, 5) });
      expect(p.warnings).toContain(
        "air: the paste's air replaces 1 existing block (at 10 70 5); paste without its air (--skip-air, include_air: false) to keep them",
      );
      expect(p.changed_blocks).toBe(3);
      const noAir = (await s.call("schematic_import_prepare", { asset_id: "gate", target: v(10, 70, 5), include_air: false })).structuredContent as {
        warnings: string[];
        changed_blocks: number;
      };
      expect(noAir.changed_blocks).toBe(2);
      expect(noAir.warnings.some((w) => w.startsWith("air:"))).toBe(false);
    } finally {
      await s.close();
    }
  });
});
