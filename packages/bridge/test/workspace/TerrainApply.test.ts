import { flatStateAt } from "@mcb/adapter-anvil";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileTerrain, heightAt, surfaceState } from "@mcb/terrain";
import { runTerrainBatch } from "../../src/workspace/jobs/TerrainJobs.js";
import { openWorld } from "../support.js";

const recipe = {
  version: 1,
  seed: 21,
  area: { min: { x: -20, z: 10 }, max: { x: 27, z: 41 } },
  base: 66,
  features: [
    { type: "hill", center: { x: 0, z: 25 }, radius: 16, height: 10 },
    { type: "basin", center: { x: 20, z: 30 }, radius: 7, depth: 4 },
    { type: "noise", amplitude: 2, scale: 10, octaves: 2 },
  ],
  palette: { low: "minecraft:sand", low_y: 63 },
  preserve: [{ min: { x: -20, z: 10 }, max: { x: -18, z: 41 } }],
};

describe("terrain tiles applied through the engine", () => {
  it("every column ends at its height with its materials; builds, water and preserved columns are untouched", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-terrain-"));
    const file = join(dir, "t.json");
    writeFileSync(file, JSON.stringify(recipe));
    const w = await openWorld(join(dir, "state"));
    try {
      // Existing things in the area: a plank pillar (a build), a water block, a preserved column's stone.
      for (let y = 60; y <= 80; y++) w.embedded!.externalEdit(5, y, 20, "minecraft:oak_planks");
      w.embedded!.externalEdit(12, 66, 15, "minecraft:water[level=0]");
      w.embedded!.externalEdit(-19, 70, 20, "minecraft:stone");
      const t = compileTerrain(w.registry, recipe);
      if (!t.ok) throw new Error(t.error.message);
      const r = await runTerrainBatch(w, file, () => undefined);
      expect(r.ok && r.value).toMatchObject({ tiles: t.value.tiles.count, unfinished: 0 });
      const { floor, ceiling, field, materials } = t.value;
      const top = ceiling;
      const rows = new Map<number, Awaited<ReturnType<typeof w.world.read>>>();
      for (let z = 10; z <= 41; z++) rows.set(z, await w.world.read({ minX: -20, minY: floor, minZ: z, maxX: 27, maxY: top, maxZ: z }));
      const at = (x: number, y: number, z: number) => {
        const row = rows.get(z)!;
        return row.palette[row.states[x + 20 + (y - floor) * 48]!]!;
      };
      let checked = 0;
      for (let z = 10; z <= 41; z++)
        for (let x = -20; x <= 27; x++) {
          if (x <= -18) {
            expect(at(x, floor, z)).toBe(flatStateAt(floor)); // preserved: the embedded world's ground as it was
            continue;
          }
          if (x === 12 && z === 15) continue; // the water block's column: checked below
          if (x === 5 && z === 20) {
            for (let y = 60; y <= 80; y++) expect(at(x, y, z)).toBe("minecraft:oak_planks");
            continue;
          }
          const h = heightAt(field, x, z);
          expect(at(x, h, z)).toBe(surfaceState(field, materials, x, z));
          expect(at(x, h + 1, z)).toBe("minecraft:air");
          expect(at(x, h - 1, z)).toBe(materials.subsurface);
          expect(at(x, floor, z)).toBe(materials.stone);
          checked++;
        }
      expect(checked).toBe(45 * 32 - 2);
      expect(at(12, 66, 15)).toBe("minecraft:water[level=0]");
      expect(at(-19, 70, 20)).toBe("minecraft:stone");
      expect([...field.heights].some((h) => h <= 63)).toBe(true); // the basin reaches the sand level
    } finally {
      await w.close();
    }
  });

  it("a person's edit in applied terrain: a rerun keeps it, a redesign of its tile is left in conflict unless the edit is kept", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-terrain-"));
    const a = join(dir, "a.json"),
      b = join(dir, "b.json");
    const redesign = { ...recipe, palette: { ...recipe.palette, surface: "minecraft:podzol[snowy=false]" } };
    writeFileSync(a, JSON.stringify(recipe));
    writeFileSync(b, JSON.stringify(redesign));
    const w = await openWorld(join(dir, "state"));
    try {
      const first = await runTerrainBatch(w, a, () => undefined);
      expect(first.ok && first.value.unfinished).toBe(0);
      const ta = compileTerrain(w.registry, recipe),
        tb = compileTerrain(w.registry, redesign);
      if (!ta.ok || !tb.ok) throw new Error("terrain");
      // A surface block the redesign changes, dug out by hand.
      let dug: { x: number; y: number; z: number } | null = null;
      for (let x = -15; x <= 25 && dug === null; x++)
        for (let z = 12; z <= 40 && dug === null; z++)
          if (surfaceState(ta.value.field, ta.value.materials, x, z) !== surfaceState(tb.value.field, tb.value.materials, x, z))
            dug = { x, y: heightAt(ta.value.field, x, z), z };
      if (dug === null) throw new Error("no column to dig");
      w.embedded!.externalEdit(dug.x, dug.y, dug.z, "minecraft:air");
      const lines: string[] = [];
      const refused = await runTerrainBatch(w, b, (_d, _t, l) => lines.push(l));
      expect(refused.ok && refused.value).toMatchObject({ conflicts: 1, unfinished: 1 });
      expect(lines.some((l) => /^tile \d+: 1 blocks changed by hand where the tile differs; left as it is/.test(l))).toBe(true);
      expect(w.embedded!.stateAt(dug.x, dug.y, dug.z)).toBe("minecraft:air");
      const kept = await runTerrainBatch(w, b, () => undefined, Infinity, "keep");
      expect(kept.ok && kept.value).toMatchObject({ conflicts: 0, unfinished: 0 });
      expect(w.embedded!.stateAt(dug.x, dug.y, dug.z)).toBe("minecraft:air");
      expect(w.embedded!.stateAt(dug.x + 1, heightAt(tb.value.field, dug.x + 1, dug.z), dug.z)).toBe(
        surfaceState(tb.value.field, tb.value.materials, dug.x + 1, dug.z),
      );
    } finally {
      await w.close();
    }
  });
});
