import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RegionFile } from "@mcb/adapter-anvil";
import { createBlockRegistry } from "@mcb/blocks";
import { realSave, stdlibChunks, unwrap } from "../src/index.js";
import { mcb } from "../src/interop/Cli.js";

/**
 * A build and its undo, with nothing between them, leave a person's save as the game wrote it
 * (issue 42): the game's own chunks (prismarine-provider-anvil's 1.21.1 fixture, MIT: an ocean
 * coast, water in every full chunk), restamped as a 26.2 and as a 26.1.2 save. `mcb build` puts a
 * hollow tower through the water's surface (stone bricks from the sea floor up, leaves inside,
 * chests on top) and `mcb undo` takes it away. Then every chunk of the region, read by the
 * independent standard-library reader: every section holds the blocks it held, every heightmap
 * its exact longs, every chunk its block entities; only `isLightOn` differs (0 on the written
 * chunks and their stored neighbours, so the game relights them: docs/SAVES.md).
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const TOWER = {
  version: 1,
  operations: [
    { type: "box", min: { x: 18, y: 45, z: 18 }, max: { x: 29, y: 75, z: 29 }, block: "minecraft:stone_bricks", hollow: true },
    { type: "box", min: { x: 21, y: 55, z: 21 }, max: { x: 26, y: 68, z: 26 }, block: "minecraft:oak_leaves[distance=1,persistent=true,waterlogged=false]" },
    { type: "box", min: { x: 20, y: 76, z: 20 }, max: { x: 22, y: 76, z: 20 }, block: "minecraft:chest[facing=north,type=single,waterlogged=false]" },
  ],
};

describe.each([
  { release: "26.2", dataVersion: 4903, registry: "26.2" },
  { release: "26.1.2", dataVersion: 4790, registry: "26.1" },
])("build + undo on a $release save with water (the game's own chunks)", ({ release, dataVersion, registry: version }) => {
  it("every chunk's sections, heightmaps and block entities equal the original; only the written chunks and their neighbours have isLightOn 0", async () => {
    const registry = unwrap(createBlockRegistry({ version }));
    const canonical = (s: string): string => {
      const r = registry.resolveState(s);
      return r.ok ? r.value.canonical : s;
    };
    const root = mkdtempSync(join(tmpdir(), "mcb-build-undo-"));
    dirs.push(root);
    const { save, regionDir } = realSave(join(root, "save"), [{ version: "1.21.1", from: 3955 }], dataVersion, release);
    const region = RegionFile.open(join(regionDir, "r.0.0.mca"), 0, 0, false, true)!;
    const listed = region.chunks().map((c) => [c.x, c.z, []] as [number, number, number[]]);
    region.close();
    const before = await stdlibChunks(regionDir, listed);
    const recipe = join(root, "tower.json");
    writeFileSync(recipe, JSON.stringify(TOWER));
    const world = ["--world", `save:${save}`, "--state", join(root, "state")];
    const built = await mcb("build", recipe, ...world, "--json");
    expect(built.code, built.stderr).toBe(0);
    const op = JSON.parse(built.stdout).operation as { operation_id: string; status: string; saved: boolean; counters: { written: number } };
    expect(op).toMatchObject({ status: "applied", saved: true });
    expect(op.counters.written).toBeGreaterThan(2000);
    const during = await stdlibChunks(regionDir, [[1, 1, []]]);
    expect(during["1,1"]!.heightmaps).not.toEqual(before["1,1"]!.heightmaps); // the tower stands above the water
    const undone = await mcb("undo", op.operation_id, ...world, "--json");
    expect(undone.code, undone.stderr).toBe(0);
    expect(JSON.parse(undone.stdout).operation).toMatchObject({ status: "applied", saved: true, counters: { written: op.counters.written } });

    const after = await stdlibChunks(regionDir, listed);
    // Sections whose stored bytes changed (re-encoded by the writes) are decoded on both sides and compared block by block.
    const changed: [number, number, number[]][] = [];
    for (const [x, z] of listed) {
      const key = `${x},${z}`;
      const a = before[key]!,
        b = after[key]!;
      expect({ chunk: key, heightmaps: b.heightmaps, block_entities: b.block_entities }).toEqual({
        chunk: key,
        heightmaps: a.heightmaps,
        block_entities: a.block_entities,
      });
      expect(Object.keys(b.digests).sort()).toEqual(Object.keys(a.digests).sort());
      const ys = Object.keys(a.digests)
        .filter((y) => a.digests[y] !== b.digests[y])
        .map(Number);
      if (ys.length > 0) changed.push([x, z, ys]);
      const written = x >= 0 && x <= 2 && z >= 0 && z <= 2; // the tower's chunk (1,1) and its neighbours
      expect([key, b.isLightOn]).toEqual([key, written && a.Status === "minecraft:full" ? 0 : a.isLightOn]);
    }
    // Only the tower's chunk had sections rewritten (those the encoder wrote back byte for byte are already equal).
    expect(changed.map(([x, z]) => `${x},${z}`).filter((k) => k !== "1,1")).toEqual([]);
    // The original sections, from the same restamp of the game's file (deterministic).
    const original = realSave(join(root, "original"), [{ version: "1.21.1", from: 3955 }], dataVersion, release);
    const [orig, now] = await Promise.all([stdlibChunks(original.regionDir, changed), stdlibChunks(regionDir, changed)]);
    let compared = 0;
    for (const [x, z, ys] of changed)
      for (const y of ys) {
        const s0 = orig[`${x},${z}`]!.sections[String(y)]!,
          s1 = now[`${x},${z}`]!.sections[String(y)]!;
        for (let i = 0; i < 4096; i++) {
          const want = canonical(s0.palette[s0.indices[i]!]!),
            got = canonical(s1.palette[s1.indices[i]!]!);
          if (got !== want) expect(`section ${y} block ${i}: ${got}`).toBe(`section ${y} block ${i}: ${want}`);
          compared++;
        }
      }
    expect(compared).toBe(changed.reduce((n, [, , ys]) => n + ys.length * 4096, 0));
  }, 60_000);
});
