import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type QuarterTurns } from "@mcb/blocks";
import { forEachPlanBlock, type Plan } from "@mcb/recipe";
import { PASTE_TILE_BLOCKS, STRUCTURE_VOID, SchematicPaste, schematicToPlan, type Schematic } from "../src/index.js";
import { registry, states } from "./support.js";

const CHEST = "minecraft:chest[facing=north,type=single,waterlogged=false]";

/** A schematic of random blocks (some structure void), with a chest carrying data at some positions. */
const arb = fc
  .record({
    width: fc.integer({ min: 1, max: 9 }),
    height: fc.integer({ min: 1, max: 5 }),
    length: fc.integer({ min: 1, max: 9 }),
    seed: fc.array(fc.nat({ max: 8 }), { minLength: 1, maxLength: 60 }),
  })
  .map(({ width, height, length, seed }): Schematic => {
    const palette = [...states(), STRUCTURE_VOID, CHEST];
    const blocks = new Uint32Array(width * height * length).map((_, i) => seed[i % seed.length]!);
    const blockEntities = [];
    for (let i = 0; i < blocks.length; i++)
      if (palette[blocks[i]!] === CHEST)
        blockEntities.push({
          x: i % width,
          z: Math.floor(i / width) % length,
          y: Math.floor(i / (width * length)),
          id: "minecraft:chest",
          data: Uint8Array.of(10, 0, 0, 1, 0, 1, 65, i & 127, 0),
        });
    return { width, height, length, offset: { x: -1, y: 0, z: 2 }, dataVersion: 4786, palette, blocks, blockEntities };
  });

function blocksOf(plan: Plan): Map<string, string> {
  const out = new Map<string, string>();
  forEachPlanBlock(plan, (x, y, z, s) => out.set(`${x},${y},${z}`, plan.palette[s]!));
  return out;
}

describe("large pastes as tiles", () => {
  it("tiles partition the whole paste: each ≤ the tile size, disjoint, bottom up, blocks and block data as one plan has them (property)", () => {
    const r = registry();
    fc.assert(
      fc.property(arb, fc.integer({ min: 1, max: 120 }), fc.constantFrom<QuarterTurns>(0, 1, 2, 3), (s, tileBlocks, turns) => {
        const target = { x: 10, y: 64, z: -3 };
        const whole = schematicToPlan(r, s, { target, turns });
        if (!whole.ok) throw new Error(whole.error.message);
        const expected = blocksOf(whole.value);
        const paste = new SchematicPaste(r, s, target, turns, tileBlocks);
        const seen = new Map<string, string>();
        const data: string[] = [];
        let lastMinY = -Infinity;
        for (let i = 0; i < paste.count; i++) {
          const t = paste.tile(i);
          if (!t.ok) throw new Error(t.error.message);
          const b = t.value.bounds;
          expect((b.maxX - b.minX + 1) * (b.maxY - b.minY + 1) * (b.maxZ - b.minZ + 1)).toBeLessThanOrEqual(tileBlocks);
          expect(b.minY).toBeGreaterThanOrEqual(lastMinY);
          lastMinY = b.minY;
          for (const [k, v] of blocksOf(t.value.plan)) {
            const [x, y, z] = k.split(",").map(Number) as [number, number, number];
            expect(x >= b.minX && x <= b.maxX && y >= b.minY && y <= b.maxY && z >= b.minZ && z <= b.maxZ).toBe(true);
            expect(seen.has(k)).toBe(false);
            seen.set(k, v);
          }
          for (const d of t.value.plan.blockData) data.push(`${d.x},${d.y},${d.z}:${d.data.join(".")}`);
        }
        expect(seen).toEqual(expected);
        expect(data.sort()).toEqual(whole.value.blockData.map((d) => `${d.x},${d.y},${d.z}:${d.data.join(".")}`).sort());
        expect(paste.tile(paste.count)).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "tile_index", tiles: paste.count } } });
      }),
      { numRuns: 200 },
    );
  });

  it("cuts by whole layers while a layer fits, then rows, then runs of one row", () => {
    const r = registry();
    const make = (width: number, height: number, length: number): Schematic => ({
      width,
      height,
      length,
      offset: { x: 0, y: 0, z: 0 },
      dataVersion: 4786,
      palette: ["minecraft:stone"],
      blocks: new Uint32Array(width * height * length),
      blockEntities: [],
    });
    const layers = new SchematicPaste(r, make(100, 30, 100), { x: 0, y: 0, z: 0 });
    expect(layers.count).toBe(3); // 10 layers of 10,000 per tile
    expect(layers.bounds(2)).toEqual({ minX: 0, minY: 20, minZ: 0, maxX: 99, maxY: 29, maxZ: 99 });
    const rows = new SchematicPaste(r, make(1000, 2, 250), { x: 0, y: 0, z: 0 });
    expect(rows.count).toBe(2 * 3); // 100 rows of 1,000 per tile, three tiles per layer
    expect(rows.bounds(5)).toEqual({ minX: 0, minY: 1, minZ: 200, maxX: 999, maxY: 1, maxZ: 249 });
    const runs = new SchematicPaste(r, make(30, 1, 2), { x: 0, y: 0, z: 0 }, 0, 20);
    expect(runs.count).toBe(4);
    expect(runs.bounds(1)).toEqual({ minX: 20, minY: 0, minZ: 0, maxX: 29, maxY: 0, maxZ: 0 });
    expect(PASTE_TILE_BLOCKS).toBe(100_000);
  });
});
