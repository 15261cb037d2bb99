import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { AnvilWorld } from "@mcb/adapter-anvil";
import { nucleationView } from "../../packages/schematic/test/corpus/Readers.js";
import { realSave, sharedRegistry } from "../src/index.js";
import { mcb } from "../src/interop/Cli.js";

/**
 * Exports of any size (issue 42): `mcb schem export` streams a region of a person's save, slab by
 * slab, into the library and a file. The save is the game's own 1.21.1 chunks restamped as 26.2
 * (`realSave`): its 16 full chunks, y −64..319, 1,572,864 positions (terrain, caves, ocean,
 * with a real schematic's 66 block entities pasted in). nucleation (Rust, an independent reader) reads the
 * v3 and the v2 file, and every position equals what mcb reads from the save.
 */
const registry = sharedRegistry();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const canonical = (s: string): string => {
  const r = registry.resolveState(s);
  return r.ok ? r.value.canonical : s;
};

describe("exports of any size", () => {
  it("1,572,864 positions of a real save, in v3 and v2: nucleation reads every position as mcb reads the save; the asset counts its blocks and block entities", async () => {
    const root = mkdtempSync(join(tmpdir(), "mcb-big-export-"));
    dirs.push(root);
    const { save } = realSave(join(root, "save"), [{ version: "1.21.1", from: 3955 }], 4903, "26.2");
    const world = ["--world", `save:${save}`, "--state", join(root, "state"), "--init"];
    // A real schematic with 66 block entities (prismarine-schematic's smallhouse1.schem, MIT) pasted in first.
    const house = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "corpus", "schematics", "real", "smallhouse1.schem");
    const pasted = await mcb("schem", "import", house, "--at", "20,90,20", ...world, "--json");
    expect(pasted.code, pasted.stderr).toBe(0);
    const v3 = join(root, "all.schem"),
      v2 = join(root, "all-v2.schem");
    const exported = await mcb("schem", "export", "all", "0", "-64", "0", "63", "319", "63", "-o", v3, ...world, "--json");
    expect(exported.code, exported.stderr).toBe(0);
    const asset = JSON.parse(exported.stdout) as { width: number; height: number; length: number; block_count: number; block_entities: number; format: string };
    expect(asset).toMatchObject({ width: 64, height: 384, length: 64, format: "sponge_v3" });
    const again = await mcb("schem", "export", "all_v2", "0", "-64", "0", "63", "319", "63", "-o", v2, "--sponge-version", "2", ...world, "--json");
    expect(again.code, again.stderr).toBe(0);

    const w = await AnvilWorld.open({ dir: save, registry });
    const ours: string[] = [];
    let nonAir = 0,
      entities = 0;
    try {
      for (let y = -64; y <= 319; y++)
        for (let z = 0; z < 64; z++)
          for (let x = 0; x < 64; x++) {
            const s = w.stateAt(x, y, z);
            ours.push(s);
            if (!/^minecraft:(cave_|void_)?air$/.test(s)) nonAir++;
            if (w.digestAt(x, y, z) !== null) entities++;
          }
    } finally {
      await w.close();
    }
    expect(asset.block_count).toBe(nonAir);
    expect(asset.block_entities).toBe(entities);
    expect(entities).toBe(66);
    for (const file of [v3, v2]) {
      const view = nucleationView(readFileSync(file));
      if ("error" in view) throw new Error(`nucleation: ${view.error}`);
      expect(view.size).toEqual([64, 384, 64]);
      let i = 0,
        differ = 0;
      const sample: string[] = [];
      for (let y = 0; y < 384; y++)
        for (let z = 0; z < 64; z++)
          for (let x = 0; x < 64; x++, i++) {
            const theirs = canonical(view.stateAt(x, y, z));
            if (theirs === ours[i]) continue;
            differ++;
            if (sample.length < 3) sample.push(`${x} ${y - 64} ${z}: ${theirs} / ${ours[i]}`);
          }
      expect({ file, differ, sample }).toEqual({ file, differ: 0, sample: [] });
      expect(view.blockEntities?.size).toBe(entities);
    }
  }, 120_000);
});
