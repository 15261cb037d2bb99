import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { AnvilWorld, RegionFile } from "@mcb/adapter-anvil";
import { upgradeState } from "@mcb/blocks";
import { TAG, encodeNbt, nbt, type NbtValue } from "@mcb/nbt";
import { amulet, cavesAndCliffsSave, sharedRegistry } from "../src/index.js";
import { mcb } from "../src/interop/Cli.js";

/**
 * Heights of every save (issue 42): the world's vertical range comes from its dimension type, so
 * a 1.17 world made with the Caves & Cliffs preview pack reads its blocks below y 0 (not
 * `void_air`), a 1.18+ world whose data pack makes the overworld taller reads and writes its whole
 * height, and the default area and every refusal name that range. amulet-core, which reads the
 * same data packs, is the independent reader.
 */
const registry = sharedRegistry();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), "mcb-heights-"));
  dirs.push(d);
  return d;
};

describe("the height of a save is its dimension type's", () => {
  it("a 1.17 world with the Caves & Cliffs pack: y −64..319, its blocks below 0 read as amulet-core reads them; status and the area say so", async () => {
    const { save, chunks } = cavesAndCliffsSave(join(temp(), "cnc"));
    const world = await AnvilWorld.open({ dir: save, registry });
    let items: [number, number, number][];
    let ours: string[];
    try {
      const info = await world.info();
      expect([info.minY, info.maxY]).toEqual([-64, 319]);
      expect(world.save.height.source).toBe("data pack file/CavesAndCliffsPreview.zip");
      expect(world.generatedArea()).toMatchObject({ minY: -64, maxY: 319 });
      // Two chunks, every block from −64 to −1, and a slab above 0 in the first.
      const [a, b] = chunks;
      items = [];
      for (const [cx, cz] of [a!, b!])
        for (let y = -64; y < 0; y++) for (let z = 0; z < 16; z += 3) for (let x = 0; x < 16; x++) items.push([cx * 16 + x, y, cz * 16 + z]);
      for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) items.push([a![0] * 16 + x, y, a![1] * 16 + 5]);
      ours = items.map(([x, y, z]) => world.stateAt(x, y, z));
    } finally {
      await world.close();
    }
    expect(ours.filter((s) => s === "minecraft:void_air")).toEqual([]);
    expect(ours.filter((s) => /deepslate/.test(s)).length).toBeGreaterThan(1000);
    expect(ours).toContain("minecraft:bedrock");
    const theirs = await amulet<{ bounds: [number, number]; states: string[] }>("read", save, items);
    expect(theirs.bounds).toEqual([-64, 319]);
    const upgraded = theirs.states.map((s) => {
      const r = registry.resolveState(upgradeState(s, 2730, registry.dataVersion).state);
      return r.ok ? r.value.canonical : s;
    });
    // amulet's block translation moves a waterlogged block's water into an extra block: compared without it.
    const dry = (s: string): string => s.replace("waterlogged=true", "waterlogged=false");
    const differ = items.filter((_, i) => dry(upgraded[i]!) !== dry(ours[i]!)).slice(0, 5);
    expect(differ.map((p) => `${p.join(" ")}: ${ours[items.indexOf(p)]} / ${upgraded[items.indexOf(p)]}`)).toEqual([]);

    const state = join(temp(), "state");
    const status = await mcb("status", "--world", `save:${save}`, "--state", state, "--init");
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/area x \d+\.\.\d+, z \d+\.\.\d+, y -64\.\.319/);
    expect(status.stdout).toMatch(/height y -64\.\.319 \(data pack file\/CavesAndCliffsPreview\.zip\)/);
    const low = await mcb("inspect", "0", "-70", "0", "0", "-70", "0", "--world", `save:${save}`, "--state", state, "--json");
    expect(low.code).toBe(1);
    expect(JSON.parse(low.stderr.trim().split("\n").at(-1)!).error.message).toMatch(/y -64\.\.319/);
  }, 60_000);

  it("a 1.18+ world whose data pack makes the overworld y −128..383: mcb reads and writes its whole height, amulet-core reads what mcb wrote", async () => {
    const save = join(temp(), "tall");
    const regionDir = join(save, "dimensions", "minecraft", "overworld", "region");
    mkdirSync(regionDir, { recursive: true });
    mkdirSync(join(save, "datapacks", "tall"), { recursive: true });
    writeFileSync(join(save, "datapacks", "tall", "pack.mcmeta"), JSON.stringify({ pack: { pack_format: 80, description: "tall" } }));
    mkdirSync(join(save, "datapacks", "tall", "data", "minecraft", "dimension_type"), { recursive: true });
    writeFileSync(
      join(save, "datapacks", "tall", "data", "minecraft", "dimension_type", "overworld.json"),
      JSON.stringify({ min_y: -128, height: 512, logical_height: 512, has_skylight: true }),
    );
    const data = nbt.compound([
      ["DataVersion", nbt.int(4903)],
      [
        "Version",
        nbt.compound([
          ["Id", nbt.int(4903)],
          ["Name", nbt.string("26.2")],
        ]),
      ],
      ["LevelName", nbt.string("tall")],
      [
        "DataPacks",
        nbt.compound([
          ["Enabled", nbt.list(TAG.String, [nbt.string("vanilla"), nbt.string("file/tall")])],
          ["Disabled", nbt.list(TAG.String, [])],
        ]),
      ],
    ]);
    writeFileSync(join(save, "level.dat"), gzipSync(encodeNbt("", nbt.compound([["Data", data]]))));
    const sections: NbtValue[] = [];
    for (let y = -8; y < 24; y++)
      sections.push(
        nbt.compound([
          ["Y", nbt.byte(y)],
          [
            "block_states",
            nbt.compound([["palette", nbt.list(TAG.Compound, [nbt.compound([["Name", nbt.string(y < -4 ? "minecraft:deepslate" : "minecraft:air")]])])]]),
          ],
          ["biomes", nbt.compound([["palette", nbt.list(TAG.String, [nbt.string("minecraft:plains")])]])],
        ]),
      );
    const chunk = (x: number, z: number) =>
      nbt.compound([
        ["DataVersion", nbt.int(4903)],
        ["xPos", nbt.int(x)],
        ["yPos", nbt.int(-8)],
        ["zPos", nbt.int(z)],
        ["Status", nbt.string("minecraft:full")],
        ["isLightOn", nbt.byte(1)],
        ["sections", nbt.list(TAG.Compound, sections)],
        ["block_entities", nbt.list(TAG.Compound, [])],
      ]);
    const region = RegionFile.open(join(regionDir, "r.0.0.mca"), 0, 0, true)!;
    const writes = [];
    for (let x = 0; x < 3; x++) for (let z = 0; z < 3; z++) writes.push({ x, z, nbt: encodeNbt("", chunk(x, z)), compression: 2 as const });
    region.write(writes);
    region.close();

    const state = join(temp(), "state");
    const recipe = join(state, "..", "deep.json");
    writeFileSync(
      recipe,
      JSON.stringify({
        version: 1,
        operations: [
          { type: "box", min: { x: 20, y: -128, z: 20 }, max: { x: 21, y: -127, z: 21 }, block: "minecraft:gold_block" },
          { type: "box", min: { x: 20, y: 380, z: 20 }, max: { x: 20, y: 383, z: 20 }, block: "minecraft:glass" },
        ],
      }),
    );
    const built = await mcb("build", recipe, "--world", `save:${save}`, "--state", state, "--json");
    expect(built.code, built.stderr).toBe(0);
    expect(JSON.parse(built.stdout).operation).toMatchObject({ status: "applied", saved: true, counters: { written: 12 } });
    const theirs = await amulet<{ bounds: [number, number]; states: string[] }>("read", save, [
      [20, -128, 20],
      [21, -127, 21],
      [20, 383, 20],
      [20, -100, 20],
    ]);
    expect(theirs.bounds).toEqual([-128, 383]);
    expect(theirs.states).toEqual(["minecraft:gold_block", "minecraft:gold_block", "minecraft:glass", "minecraft:deepslate[axis=y]"]);
    writeFileSync(
      recipe,
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 20, y: 384, z: 20 }, max: { x: 20, y: 384, z: 20 }, block: "minecraft:glass" }] }),
    );
    const above = await mcb("build", recipe, "--world", `save:${save}`, "--state", state, "--json");
    expect(above.code).toBe(1);
    const error = JSON.parse(above.stderr.trim().split("\n").at(-1)!).error;
    expect(error).toMatchObject({ code: "out_of_bounds" });
    expect(error.message).toMatch(/y -128\.\.383/);
  }, 60_000);
});
