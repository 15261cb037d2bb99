import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import nbt from "prismarine-nbt";
import { DEFAULT_SCHEMATIC_LIMITS, readSchematic, schematicToPlan } from "../src/index.js";
import { contents, gzipNbt, registry, v2File } from "./support.js";

/**
 * Generated equivalents of the five real public .schem files that were refused (issue 24): what
 * they hold is read, never silently — each tolerance is reported, and what cannot be known is
 * refused saying exactly why.
 */
const reg = registry();
const palette = (entries: Record<string, number>) => ({
  type: "compound",
  value: Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, { type: "int", value: v }])),
});
const read = (file: Uint8Array, options = {}) => readSchematic(reg, file, options);

describe("real-file quirks", () => {
  it("a palette state with a property its block does not have (a redstone server's sticky piston): the property is dropped and reported; strict refuses", () => {
    const file = v2File({ Palette: palette({ "minecraft:sticky_piston[sticky=true,extended=true,facing=south]": 0, "minecraft:stone": 1 }) });
    const r = read(file);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(contents(r.value.schematic).get("1,0,0")).toBe("minecraft:sticky_piston[extended=true,facing=south]");
    expect(r.value.loss.dropped_properties).toEqual({
      count: 1,
      sample: [{ state: "minecraft:sticky_piston[sticky=true,extended=true,facing=south]", dropped: ["sticky=true"] }],
    });
    const strict = read(file, { strict: true });
    expect(strict).toMatchObject({ ok: false, error: { code: "unsupported_block", details: { reason: "unknown_property", palette_index: 0 } } });
  });

  it("state strings with a space after each comma are read without the spaces, and the note says so", () => {
    const r = read(
      v2File({
        Palette: palette({ "minecraft:dark_oak_trapdoor[facing=north, half=bottom, open=true, powered=false, waterlogged=false]": 0, "minecraft:stone": 1 }),
      }),
    );
    expect(r.ok && contents(r.value.schematic).get("1,0,0")).toBe(
      "minecraft:dark_oak_trapdoor[facing=north,half=bottom,open=true,powered=false,waterlogged=false]",
    );
    expect(r.ok && r.value.notes).toEqual(["1 palette entry has spaces inside the state string: read without them"]);
  });

  it("a PaletteMax that does not match the palette is ignored, with a note", () => {
    const r = read(v2File({ PaletteMax: { type: "int", value: 7 } }));
    expect(r.ok && r.value.notes).toEqual(["PaletteMax 7 does not match the palette's 2 entries: ignored (the palette itself is read)"]);
    expect(r.ok && r.value.schematic.palette.length).toBe(2);
  });

  it("a Sponge v1 file whose palette is empty is air where every index agrees, refused where they differ", () => {
    const v1 = (data: number[]) =>
      gzipNbt({
        type: "compound",
        name: "Schematic",
        value: {
          Version: { type: "int", value: 1 },
          Width: { type: "short", value: 2 },
          Height: { type: "short", value: 1 },
          Length: { type: "short", value: 2 },
          PaletteMax: { type: "int", value: 0 },
          Palette: { type: "compound", value: {} },
          BlockData: { type: "byteArray", value: data },
        },
      });
    const air = read(v1([0, 0, 0, 0]));
    expect(air.ok && [...contents(air.value.schematic).values()]).toEqual(Array(4).fill("minecraft:air"));
    expect(air.ok && air.value.notes).toContain("the palette is empty and every position holds index 0: read as air");
    const mixed = read(v1([0, 3, 0, 0]));
    expect(mixed).toMatchObject({
      ok: false,
      error: { code: "invalid_request", details: { reason: "schematic_format", rejected: "empty_palette", path: "Schematic.Palette" } },
    });
    expect(!mixed.ok && mixed.error.message).toMatch(/holds 2 different indices \(0, 3\)/);
  });

  it("FAWE's empty 1×1×1 clipboard (empty palette, empty block data) and a v3 file without Blocks read as air, as WorldEdit reads them, and paste air", () => {
    const dims = { Width: { type: "short", value: 1 }, Height: { type: "short", value: 1 }, Length: { type: "short", value: 1 } };
    const v2 = gzipNbt({
      type: "compound",
      name: "Schematic",
      value: {
        Version: { type: "int", value: 2 },
        DataVersion: { type: "int", value: 3953 },
        ...dims,
        PaletteMax: { type: "int", value: 0 },
        Palette: { type: "compound", value: {} },
        BlockData: { type: "byteArray", value: [] },
      },
    });
    const v3 = gzipNbt({
      type: "compound",
      name: "",
      value: {
        Schematic: {
          type: "compound",
          value: {
            Version: { type: "int", value: 3 },
            DataVersion: { type: "int", value: 3953 },
            ...dims,
            Blocks: { type: "compound", value: { Palette: { type: "compound", value: {} }, Data: { type: "byteArray", value: [] } } },
          },
        },
      },
    });
    const none = gzipNbt({
      type: "compound",
      name: "",
      value: { Schematic: { type: "compound", value: { Version: { type: "int", value: 3 }, DataVersion: { type: "int", value: 3953 }, ...dims } } },
    });
    for (const [file, note] of [
      [v2, "the palette and the block data are empty: read as air"],
      [v3, "the palette and the block data are empty: read as air"],
      [none, "the schematic has no Blocks (optional in Sponge v3): read as air"],
    ] as const) {
      const r = read(file);
      if (!r.ok) throw new Error(r.error.message);
      expect([...contents(r.value.schematic).entries()]).toEqual([["0,0,0", "minecraft:air"]]);
      expect(r.value.notes).toEqual([note]);
      const plan = schematicToPlan(reg, r.value.schematic, { target: { x: 5, y: 64, z: 5 } });
      expect(plan.ok && plan.value.count).toBe(1);
      expect(plan.ok && plan.value.palette).toEqual(["minecraft:air"]);
    }
    // Data without a palette that names several indices still cannot be read (see the v1 case above).
    const bad = gzipNbt({
      type: "compound",
      name: "Schematic",
      value: {
        Version: { type: "int", value: 2 },
        DataVersion: { type: "int", value: 3953 },
        ...dims,
        Width: { type: "short", value: 2 },
        PaletteMax: { type: "int", value: 0 },
        Palette: { type: "compound", value: {} },
        BlockData: { type: "byteArray", value: [0, 1] },
      },
    });
    expect(read(bad)).toMatchObject({ ok: false, error: { details: { rejected: "empty_palette" } } });
  });

  it("a 1,000 × 1,000 × 1,000 cube is refused from its first kilobytes, before its block data is inflated or allocated", () => {
    // The header of the real file, then a gzip stream cut off early: only the size probe can see it is too big.
    const body = nbt.writeUncompressed({
      type: "compound",
      name: "Schematic",
      value: {
        Version: { type: "int", value: 2 },
        DataVersion: { type: "int", value: 3953 },
        Width: { type: "short", value: 1000 },
        Height: { type: "short", value: 1000 },
        Length: { type: "short", value: 1000 },
        PaletteMax: { type: "int", value: 1 },
        Palette: palette({ "minecraft:stone": 0 }),
        BlockData: { type: "byteArray", value: new Array(200_000).fill(0) },
      },
    } as nbt.NBT);
    const whole = gzipSync(body);
    const header = whole.subarray(0, whole.length >> 1); // cut off: a full read would fail on the gzip stream, not on the size
    const r = read(header);
    expect(r).toMatchObject({
      ok: false,
      error: { code: "budget_exceeded", details: { reason: "positions", requested: 1_000_000_000, limit: DEFAULT_SCHEMATIC_LIMITS.maxPositions } },
    });
    // With the position limit raised, the block data alone is over the NBT limit: refused as early.
    const raised = read(header, { limits: { ...DEFAULT_SCHEMATIC_LIMITS, maxPositions: 2_000_000_000 } });
    expect(raised).toMatchObject({ ok: false, error: { code: "budget_exceeded", details: { reason: "nbt_size" } } });
  });
});
