import fc from "fast-check";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { forEachPlanBlock } from "@mcb/recipe";
import { registry } from "../../blocks/test/registry.js";
import { canonicalJson } from "../src/TerrainCompile.js";
import { compileTerrain, heightAt, heightPreviewPng, terrainTilePlan, tileBounds, type CompiledTerrain } from "../src/index.js";

function compile(recipe: unknown): CompiledTerrain {
  const t = compileTerrain(registry(), recipe);
  if (!t.ok) throw new Error(JSON.stringify(t.error));
  return t.value;
}
const area = (w: number, l: number) => ({ min: { x: 0, z: 0 }, max: { x: w - 1, z: l - 1 } });

function shuffleKeys(v: unknown, seed: number): unknown {
  if (Array.isArray(v)) return v.map((x) => shuffleKeys(x, seed));
  if (v !== null && typeof v === "object") {
    const keys = Object.keys(v);
    const rot = keys.length === 0 ? 0 : seed % keys.length;
    return Object.fromEntries([...keys.slice(rot), ...keys.slice(0, rot)].reverse().map((k) => [k, shuffleKeys((v as Record<string, unknown>)[k], seed)]));
  }
  return v;
}

const featureArb = fc.oneof(
  fc.record({
    type: fc.constant("hill"),
    center: fc.record({ x: fc.integer({ min: 0, max: 63 }), z: fc.integer({ min: 0, max: 63 }) }),
    radius: fc.integer({ min: 2, max: 40 }),
    height: fc.integer({ min: 1, max: 40 }),
  }),
  fc.record({
    type: fc.constant("basin"),
    center: fc.record({ x: fc.integer({ min: 0, max: 63 }), z: fc.integer({ min: 0, max: 63 }) }),
    radius: fc.integer({ min: 2, max: 40 }),
    depth: fc.integer({ min: 1, max: 20 }),
  }),
  fc.record({
    type: fc.constant("noise"),
    amplitude: fc.integer({ min: 0, max: 12 }),
    scale: fc.integer({ min: 2, max: 64 }),
    octaves: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ type: fc.constant("terrace"), step: fc.integer({ min: 2, max: 8 }), sharpness: fc.double({ min: 0, max: 1, noNaN: true }) }),
);
const recipeArb = fc.record({
  version: fc.constant(1),
  seed: fc.integer({ min: 0, max: 1000 }),
  area: fc.constant(area(64, 48)),
  base: fc.integer({ min: 40, max: 100 }),
  features: fc.array(featureArb, { maxLength: 5 }),
});

describe("terrain recipes", () => {
  it("the id and heights do not depend on JSON key order; the id changes with the content (property)", () => {
    fc.assert(
      fc.property(recipeArb, fc.nat(), (r, s) => {
        const a = compile(r),
          b = compile(shuffleKeys(r, s));
        expect(b.terrainId).toBe(a.terrainId);
        expect(Buffer.from(b.field.heights.buffer).equals(Buffer.from(a.field.heights.buffer))).toBe(true);
        expect(compile({ ...r, seed: r.seed + 1, features: [...r.features, { type: "noise", amplitude: 1, scale: 4 }] }).terrainId).not.toBe(a.terrainId);
        expect(a.terrainId).toMatch(/^t_[0-9a-f]{32}$/);
      }),
      { numRuns: 60 },
    );
  });

  it("noise stays within ± amplitude of the base; hills peak at base + height and vanish past the radius", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 2, max: 128 }), fc.integer({ min: 1, max: 5 }), fc.nat(), (amp, scale, octaves, seed) => {
        const t = compile({ version: 1, seed, area: area(64, 64), base: 64, features: [{ type: "noise", amplitude: amp, scale, octaves }] });
        expect(t.stats.min).toBeGreaterThanOrEqual(64 - amp);
        expect(t.stats.max).toBeLessThanOrEqual(64 + amp);
      }),
      { numRuns: 40 },
    );
    const hill = compile({ version: 1, area: area(64, 64), base: 60, features: [{ type: "hill", center: { x: 32, z: 32 }, radius: 10, height: 15 }] });
    expect(heightAt(hill.field, 32, 32)).toBe(75);
    expect(heightAt(hill.field, 42, 32)).toBe(60);
    expect(heightAt(hill.field, 37, 32)).toBeGreaterThan(60);
    expect(heightAt(hill.field, 37, 32)).toBeLessThan(75);
  });

  it("plateaus are flat on top; full-sharpness terraces are multiples of the step", () => {
    const p = compile({
      version: 1,
      seed: 3,
      area: area(64, 64),
      base: 60,
      features: [
        { type: "noise", amplitude: 6, scale: 16 },
        { type: "plateau", center: { x: 32, z: 32 }, radius: 20, height: 14, edge: 6 },
      ],
    });
    for (let z = 24; z <= 40; z++) for (let x = 24; x <= 40; x++) expect(heightAt(p.field, x, z)).toBe(74);
    const t = compile({
      version: 1,
      seed: 3,
      area: area(64, 64),
      base: 60,
      features: [
        { type: "hill", center: { x: 32, z: 32 }, radius: 30, height: 30 },
        { type: "terrace", step: 5, sharpness: 1 },
      ],
    });
    for (const h of t.field.heights) expect(h % 5).toBe(0);
  });

  it("tiles cover every column exactly once (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: -500, max: 500 }), (w, l, ox) => {
        const t = compile({ version: 1, area: { min: { x: ox, z: -ox }, max: { x: ox + w - 1, z: -ox + l - 1 } }, base: 64, features: [] });
        const seen = new Uint8Array(w * l);
        for (let i = 0; i < t.tiles.count; i++) {
          const b = tileBounds(t.field, t.tiles, i)!;
          for (let z = b.minZ; z <= b.maxZ; z++) for (let x = b.minX; x <= b.maxX; x++) seen[x - ox + (z + ox) * w]!++;
        }
        expect([...seen].every((v) => v === 1)).toBe(true);
        expect(tileBounds(t.field, t.tiles, t.tiles.count)).toBeNull();
      }),
      { numRuns: 60 },
    );
  });

  it("a tile plan layers stone, subsurface, surface, air from floor to ceiling, filtered to natural blocks", () => {
    const t = compile({
      version: 1,
      area: area(40, 40),
      base: 64,
      floor: 58,
      ceiling: 80,
      features: [{ type: "hill", center: { x: 10, z: 10 }, radius: 8, height: 10 }],
      palette: { surface: "minecraft:grass_block", subsurface: "minecraft:coarse_dirt", depth: 2 },
      preserve: [{ min: { x: 0, z: 0 }, max: { x: 1, z: 31 } }],
    });
    expect(t.tiles).toMatchObject({ size: 32, columns: 2, rows: 2, count: 4 });
    const tp = terrainTilePlan(registry(), t, 0);
    if (!tp.ok) throw new Error(tp.error.message);
    expect(tp.value.preservedColumns).toBe(64);
    expect(tp.value.plan.count).toBe((32 * 32 - 64) * 23);
    expect(tp.value.plan.filters).toHaveLength(1);
    expect(tp.value.plan.filters[0]!.ids).toContain("minecraft:grass_block");
    expect(tp.value.plan.filters[0]!.ids).not.toContain("minecraft:water");
    const col = new Map<number, string>();
    forEachPlanBlock(tp.value.plan, (x, y, z, s, f) => {
      expect(f).toBe(1);
      expect([x, z]).not.toEqual([0, 5]);
      if (x === 20 && z === 20) col.set(y, tp.value.plan.palette[s]!);
    });
    const h = heightAt(t.field, 20, 20);
    expect(h).toBe(64);
    expect(col.get(80)).toBe("minecraft:air");
    expect(col.get(h + 1)).toBe("minecraft:air");
    expect(col.get(h)).toBe("minecraft:grass_block[snowy=false]");
    expect(col.get(h - 1)).toBe("minecraft:coarse_dirt");
    expect(col.get(h - 2)).toBe("minecraft:coarse_dirt");
    expect(col.get(h - 3)).toBe("minecraft:stone");
    expect(col.get(58)).toBe("minecraft:stone");
    expect(col.has(57)).toBe(false);
    expect(terrainTilePlan(registry(), t, 4)).toMatchObject({ ok: false, error: { code: "invalid_request" } });
  });

  it("tiles shrink so a tile plan stays within 100,000 positions", () => {
    const t = compile({ version: 1, area: area(100, 100), base: 64, floor: -60, ceiling: 300, features: [] });
    expect(t.tiles.size).toBe(16);
    const tp = terrainTilePlan(registry(), t, 0);
    expect(tp.ok && tp.value.plan.count).toBeLessThanOrEqual(100_000);
  });

  it("refuses bad recipes with a structured error", () => {
    const base = { version: 1, area: area(8, 8), base: 64, features: [] };
    const cases: [unknown, string][] = [
      [{ ...base, version: 2 }, "invalid_request"],
      [{ ...base, extra: 1 }, "invalid_request"],
      [{ ...base, area: { min: { x: 5, z: 0 }, max: { x: 0, z: 5 } } }, "invalid_request"],
      [{ ...base, area: area(2000, 8) }, "budget_exceeded"],
      [{ ...base, features: [{ type: "volcano" }] }, "invalid_request"],
      [{ ...base, palette: { surface: "minecraft:nope" } }, "unsupported_block"],
      [{ ...base, palette: { peak: "minecraft:snow_block" } }, "invalid_request"],
      [{ ...base, floor: 70 }, "invalid_request"],
      [{ ...base, features: new Array(65).fill({ type: "terrace", step: 2 }) }, "invalid_request"],
      [{ ...base, area: area(1024, 1024), features: new Array(4).fill({ type: "noise", amplitude: 1, scale: 9, octaves: 6 }) }, "budget_exceeded"],
    ];
    for (const [r, code] of cases) expect(compileTerrain(registry(), r)).toMatchObject({ ok: false, error: { code } });
  });

  it("previews are PNGs of the requested resolution, north up", () => {
    const t = compile({ version: 1, area: area(300, 150), base: 64, features: [{ type: "hill", center: { x: 150, z: 20 }, radius: 30, height: 30 }] });
    const png = PNG.sync.read(heightPreviewPng(t.field, { resolution: 100 }));
    expect([png.width, png.height]).toEqual([100, 50]);
    const bright = (i: number, j: number) => png.data[(i + j * png.width) * 4]! + png.data[(i + j * png.width) * 4 + 1]!;
    // The hill (near z = 20, i.e. the top of the image) is lighter-coloured high ground than the plain.
    expect(bright(50, 6)).not.toBe(bright(50, 45));
    expect(heightPreviewPng(t.field, { resolution: 100 }).equals(heightPreviewPng(t.field, { resolution: 100 }))).toBe(true);
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
  });
});
