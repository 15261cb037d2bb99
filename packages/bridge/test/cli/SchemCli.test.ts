import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import nbt from "prismarine-nbt";
import { describe, expect, it } from "vitest";
import { readSchematic, writeSchematic, type Schematic } from "@mcb/schematic";
import { registry } from "../../../blocks/test/registry.js";
import { importSchematic } from "../../src/workspace/jobs/SchematicJobs.js";
import { mcb, openWorld } from "../support.js";

const tmp = () => mkdtempSync(join(tmpdir(), "mcb-schem-"));

/** 50³ = 125,000 positions (two tiles: 40 layers, then 10), every fifth one stone. */
function cube(): Schematic {
  const n = 50;
  const blocks = new Uint32Array(n * n * n).map((_, i) => (i % 5 === 0 ? 1 : 0));
  return {
    width: n,
    height: n,
    length: n,
    offset: { x: 0, y: 0, z: 0 },
    dataVersion: 4786,
    palette: ["minecraft:air", "minecraft:stone"],
    blocks,
    blockEntities: [],
  };
}

describe("mcb schem import of a large file", () => {
  it("runs a resumable batch with progress, and the finished batch is one part", async () => {
    const dir = tmp();
    const file = join(dir, "cube.schem");
    writeFileSync(file, writeSchematic(cube()));
    const state = join(dir, "state");
    const first = await mcb("schem", "import", file, "--at", "0,64,0", "--max-tiles", "1", "--part", "big cube", "--state", state, "--json");
    expect(first.code).toBe(3); // unfinished
    expect(first.stderr).toMatch(/1\/2 tiles {2}20,000 blocks {2}[\d,]+ blocks\/s {2}\d+ s left {2}tile 0: applied, 20000 blocks written/);
    const r1 = JSON.parse(first.stdout);
    expect(r1).toMatchObject({
      mode: "batch",
      batch: { tiles: 2, applied: 1, unfinished: 1 },
      bounds: { min: { x: 0, y: 64, z: 0 }, max: { x: 49, y: 113, z: 49 } },
    });
    expect(r1.batch.completed).toBeUndefined();
    const second = await mcb("schem", "import", file, "--at", "0,64,0", "--part", "big cube", "--state", state, "--json");
    expect(second.code).toBe(0);
    const r2 = JSON.parse(second.stdout);
    expect(r2).toMatchObject({
      paste_id: r1.paste_id,
      batch: { applied: 2, unfinished: 0, skipped_done: 1, written_blocks: 25_000, completed: { part_name: "big cube", part_blocks: 25_000 } },
    });
    expect(r2.batch.operation_ids).toHaveLength(2);
    const again = JSON.parse((await mcb("schem", "import", file, "--at", "0,64,0", "--state", state, "--json")).stdout);
    expect(again.batch).toMatchObject({ skipped_done: 2, completed: { part_id: r2.batch.completed.part_id } });
    // The text form says where the progress is and names the part.
    const text = await mcb("schem", "import", file, "--at", "0,64,0", "--state", state);
    expect(text.stdout).toMatch(new RegExp(`paste ${r1.paste_id}: 2 of 2 tiles applied, .*; part part_\\w+ "big cube" \\(25000 blocks\\)`));
    const inspect = JSON.parse((await mcb("inspect", "--state", state, "--json", "--", "0", "113", "0", "9", "113", "9")).stdout);
    expect(inspect.palette.find((p: { state: string }) => p.state === "minecraft:stone").count).toBe(20);
    // The whole paste undone in one command: every tile's operation, newest first, one progress bar; the part retires.
    const undo = await mcb("undo", r1.paste_id, "--state", state, "--json");
    expect(undo.code, undo.stderr).toBe(0);
    expect(JSON.parse(undo.stdout)).toMatchObject({
      batch_id: r1.paste_id,
      operations: 2,
      undone: 2,
      skipped: 0,
      restored_blocks: 25_000,
      left_as_they_are: 0,
    });
    expect(undo.stderr).toMatch(/2\/2 tiles {2}25,000 blocks/);
    const after = JSON.parse((await mcb("inspect", "--state", state, "--json", "--", "0", "64", "0", "49", "64", "49")).stdout);
    expect(after.palette.find((p: { state: string }) => p.state === "minecraft:stone")).toBeUndefined();
    const parts = JSON.parse((await mcb("part", "list", "--state", state, "--json")).stdout);
    expect(parts.find((p: { name: string }) => p.name === "big cube")).toMatchObject({ retired: true });
    const twice = JSON.parse((await mcb("undo", r1.paste_id, "--state", state, "--json")).stdout);
    expect(twice).toMatchObject({ undone: 0, skipped: 2, restored_blocks: 0 });
  }, 120_000);

  it("a tile left in conflict stays as it is on a rerun; --retry-conflicts prepares it again, which still keeps the person's block", async () => {
    const dir = tmp();
    const file = join(dir, "cube.schem");
    writeFileSync(file, writeSchematic(cube()));
    const w = await openWorld(join(dir, "state"));
    try {
      const lines: string[] = [];
      const first = await importSchematic(w, file, { x: 0, y: 64, z: 0 }, { maxTiles: 1, progress: (_d, _t, l) => lines.push(l) });
      if (!first.ok || first.value.mode !== "batch") throw new Error("batch");
      // The state a conflict leaves: tile 1 was applied up to a player's edit and stopped.
      const progress = first.value.batch.progress_file;
      const saved = JSON.parse(readFileSync(progress, "utf8"));
      saved.entries["1"] = { state: "conflict", attempt: 1, key: "k", plan_id: "x", plan_hash: "y", operation_id: "op_x", written: 0, conflicts: 1 };
      writeFileSync(progress, JSON.stringify(saved));
      w.embedded!.externalEdit(0, 104, 0, "minecraft:gold_block");
      const kept = await importSchematic(w, file, { x: 0, y: 64, z: 0 }, { progress: (_d, _t, l) => lines.push(l) });
      expect(kept.ok && kept.value.mode === "batch" && kept.value.batch).toMatchObject({ applied: 1, conflicts: 1, unfinished: 1 });
      expect(lines.at(-1)).toMatch(/^tile 1: left in conflict \(1 blocks changed by someone else; --retry-conflicts/);
      expect(w.embedded!.stateAt(0, 104, 0)).toBe("minecraft:gold_block");
      // Prepared again from the world as it is: the person's gold block is a manual edit, so the tile is refused again …
      const retried = await importSchematic(w, file, { x: 0, y: 64, z: 0 }, { retryConflicts: true, progress: (_d, _t, l) => lines.push(l) });
      expect(retried.ok && retried.value.mode === "batch" && retried.value.batch).toMatchObject({ applied: 1, conflicts: 1, unfinished: 1 });
      expect(lines.at(-1)).toMatch(/^tile 1: 1 blocks changed by hand where the tile differs; left as it is \(--on-manual-edit keep/);
      // … unless the person's blocks are kept: the rest of the tile is written around the gold block.
      const keptEdits = await importSchematic(w, file, { x: 0, y: 64, z: 0 }, { retryConflicts: true, onManualEdit: "keep", progress: () => undefined });
      expect(keptEdits.ok && keptEdits.value.mode === "batch" && keptEdits.value.batch).toMatchObject({ applied: 2, conflicts: 0, unfinished: 0 });
      expect(w.embedded!.stateAt(0, 104, 0)).toBe("minecraft:gold_block");
      expect(w.embedded!.stateAt(5, 104, 0)).toBe("minecraft:stone"); // every fifth block of the cube is stone
    } finally {
      await w.close();
    }
  }, 60_000);
});

describe("mcb schem with real-world files", () => {
  /** Sponge v1 (WorldEdit 7.0): no DataVersion, a 1.13 sign name, an entity list is not part of v1. */
  const v1 = () =>
    gzipSync(
      nbt.writeUncompressed({
        type: "compound",
        name: "Schematic",
        value: {
          Version: { type: "int", value: 1 },
          Width: { type: "short", value: 1 },
          Height: { type: "short", value: 1 },
          Length: { type: "short", value: 2 },
          PaletteMax: { type: "int", value: 2 },
          Palette: {
            type: "compound",
            value: { "minecraft:sign[rotation=0,waterlogged=false]": { type: "int", value: 0 }, "minecraft:stone": { type: "int", value: 1 } },
          },
          BlockData: { type: "byteArray", value: [0, 1] },
          TileEntities: {
            type: "list",
            value: {
              type: "compound",
              value: [
                {
                  Pos: { type: "intArray", value: [0, 0, 0] },
                  Id: { type: "string", value: "minecraft:sign" },
                  Text1: { type: "string", value: '{"text":"hi"}' },
                },
              ],
            },
          },
        },
      } as unknown as nbt.NBT),
    );

  it("info shows format, upgrades and block entities; import pastes the sign with its data; build writes v3 or v2", async () => {
    const dir = tmp();
    const file = join(dir, "old.schem");
    writeFileSync(file, v1());
    const info = await mcb("schem", "info", file, "--json");
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({
      format: "sponge_v1",
      source_data_version: 1631,
      block_entities: 1,
      upgrades: { "minecraft:sign → minecraft:oak_sign": 1 },
    });
    expect((await mcb("schem", "info", file)).stdout).toMatch(/upgraded from DataVersion 1631: minecraft:sign → minecraft:oak_sign \(1\)/);
    const state = join(dir, "state");
    const pasted = await mcb("schem", "import", file, "--at", "5,64,5", "--state", state, "--json");
    expect(pasted.code).toBe(0);
    expect(JSON.parse(pasted.stdout)).toMatchObject({ mode: "single", operation: { status: "applied" }, source: { format: "sponge_v1" } });
    const exported = await mcb(
      "schem",
      "export",
      "sign",
      "-o",
      join(dir, "sign.schem"),
      "--sponge-version",
      "2",
      "--state",
      state,
      "--json",
      "--",
      "5",
      "64",
      "5",
      "5",
      "64",
      "6",
    );
    expect(JSON.parse(exported.stdout)).toMatchObject({ block_entities: 1, format: "sponge_v3" });
    const back = readSchematic(registry(), readFileSync(join(dir, "sign.schem")));
    expect(back.ok && back.value).toMatchObject({ format: "sponge_v2", schematic: { blockEntities: [{ id: "minecraft:sign" }] } });
    expect((await mcb("schem", "info", file, "--max-positions", "1")).code).toBe(1);
    expect((await mcb("schem", "info", file, "--max-positions", "0")).code).toBe(1);
    expect((await mcb("schem", "import", file, "--at", "5,64,5", "--drop", "pets", "--state", state)).code).toBe(2);
    expect(JSON.parse((await mcb("schem", "info", file, "--max-nbt-bytes", String(2 ** 40))).stderr).error).toMatchObject({
      code: "budget_exceeded",
      details: { flag: "--max-nbt-bytes", field: "maxNbtBytes" },
    });
  }, 60_000);
});

describe("mcb schem import: where a paste lands and what its air does", () => {
  it("an export pasted --at its origin lands where it was (the bounds are printed); its air over blocks is announced with a count; --skip-air keeps them", async () => {
    const dir = tmp();
    const state = join(dir, "state");
    // A 3 × 2 × 1 hut front: stone with an opening (air) in the middle, exported with origin at its min.
    writeFileSync(
      join(dir, "front.json"),
      JSON.stringify({
        version: 1,
        operations: [
          {
            type: "box",
            min: { x: 10, y: 64, z: 5 },
            max: { x: 12, y: 65, z: 5 },
            block: "stone",
            exclude: [{ min: { x: 11, y: 64, z: 5 }, max: { x: 11, y: 65, z: 5 } }],
          },
        ],
      }),
    );
    expect((await mcb("build", join(dir, "front.json"), "--state", state)).code).toBe(0);
    const exported = await mcb("schem", "export", "front", "10", "64", "5", "12", "65", "5", "-o", join(dir, "front.schem"), "--state", state);
    expect(exported.code).toBe(0);
    const info = await mcb("schem", "info", join(dir, "front.schem"));
    expect(info.stdout).toMatch(/offset 0 0 0/);
    expect(info.stdout).toContain("a paste --at X Y Z lands at X + 0 Y + 0 Z + 0 .. X + 2 Y + 1 Z + 0");
    // Someone fills the opening; pasting the export at its origin would clear it again: said before writing.
    expect((await mcb("edit", "11", "64", "5", "oak_planks", "--state", state)).code).toBe(0);
    const pasted = await mcb("schem", "import", join(dir, "front.schem"), "--at", "10,64,5", "--state", state, "--on-manual-edit", "keep", "--json");
    const single = JSON.parse(pasted.stdout);
    expect(single.plan.paste_bounds).toEqual({ min: { x: 10, y: 64, z: 5 }, max: { x: 12, y: 65, z: 5 } });
    // The person's plank is kept (the merge), so no air replaces a block here; paste 3 blocks to the east instead.
    const text = await mcb("schem", "import", join(dir, "front.schem"), "--at", "11,64,5", "--state", state, "--on-manual-edit", "keep");
    expect(text.stdout).toContain("lands at 11 64 5 .. 13 65 5");
    writeFileSync(
      join(dir, "wall.json"),
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 20, y: 64, z: 5 }, max: { x: 22, y: 65, z: 5 }, block: "bricks" }] }),
    );
    expect((await mcb("build", join(dir, "wall.json"), "--state", state)).code).toBe(0);
    const over = JSON.parse((await mcb("schem", "import", join(dir, "front.schem"), "--at", "20,64,5", "--state", state, "--json")).stdout);
    expect(over.plan.warnings).toContain(
      "air: the paste's air replaces 2 existing blocks (at 21 64 5; 21 65 5); paste without its air (--skip-air, include_air: false) to keep them",
    );
    const inspect = async (x: number) =>
      JSON.parse((await mcb("inspect", "--state", state, "--json", "--", String(x), "64", "5", String(x), "65", "5")).stdout).palette;
    expect(await inspect(21)).toEqual([{ state: "minecraft:air", count: 2 }]);
    // --skip-air: the paste's air is left out, the bricks behind the opening stay.
    expect((await mcb("build", join(dir, "wall.json"), "--state", state)).code).toBe(0);
    const kept = JSON.parse((await mcb("schem", "import", join(dir, "front.schem"), "--at", "20,64,5", "--skip-air", "--state", state, "--json")).stdout);
    expect(kept.plan.warnings.some((w: string) => w.startsWith("air:"))).toBe(false);
    expect(await inspect(21)).toEqual([{ state: "minecraft:bricks", count: 2 }]);
  });
});
