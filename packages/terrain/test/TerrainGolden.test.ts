import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { PNG } from "pngjs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { registry } from "../../blocks/test/registry.js";
import { compileTerrain, heightAt, heightPreviewPng } from "../src/index.js";

/**
 * Golden values for fixed seeds: heights and preview bytes must not drift between versions or
 * machines. Regenerate deliberately with MCB_UPDATE_GOLDEN=1 (and explain why in the commit).
 */
const GOLDEN = fileURLToPath(new URL("./golden/terrain.json", import.meta.url));

export const GOLDEN_RECIPES: Record<string, unknown> = {
  "hills-noise-seed-1": {
    version: 1,
    seed: 1,
    area: { min: { x: -64, z: -64 }, max: { x: 63, z: 63 } },
    base: 64,
    features: [
      { type: "hill", center: { x: -20, z: 10 }, radius: 40, height: 24 },
      { type: "hill", center: { x: 30, z: -25 }, radius: 25, height: 12 },
      { type: "noise", amplitude: 4, scale: 24, octaves: 3 },
    ],
  },
  "ridge-channel-terrace-seed-7": {
    version: 1,
    seed: 7,
    area: { min: { x: 0, z: 0 }, max: { x: 95, z: 79 } },
    base: 70,
    features: [
      { type: "ridge", from: { x: 5, z: 10 }, to: { x: 90, z: 60 }, width: 18, height: 30, height_end: 12 },
      { type: "channel", from: { x: 0, z: 70 }, to: { x: 95, z: 20 }, width: 6, depth: 5 },
      { type: "terrace", step: 4, sharpness: 0.6 },
      { type: "noise", amplitude: 1.5, scale: 8 },
    ],
    palette: { peak: "minecraft:snow_block", peak_y: 95, low: "minecraft:sand", low_y: 66 },
  },
  "plateau-basin-seed-42": {
    version: 1,
    seed: 42,
    area: { min: { x: 1000, z: -300 }, max: { x: 1159, z: -181 } },
    base: 62,
    features: [
      { type: "noise", amplitude: 10, scale: 64, octaves: 4 },
      { type: "plateau", center: { x: 1050, z: -250 }, radius: 30, height: 20, edge: 8 },
      { type: "basin", center: { x: 1120, z: -220 }, radius: 28, depth: 9 },
    ],
  },
};

function fingerprint(name: string) {
  const t = compileTerrain(registry(), GOLDEN_RECIPES[name]);
  if (!t.ok) throw new Error(JSON.stringify(t.error));
  const { field } = t.value;
  const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
  const samples: Record<string, number> = {};
  for (const [fx, fz] of [
    [0, 0],
    [0.5, 0.5],
    [0.25, 0.75],
    [0.9, 0.1],
    [1, 1],
  ] as const) {
    const x = field.minX + Math.round(fx * (field.width - 1)),
      z = field.minZ + Math.round(fz * (field.length - 1));
    samples[`${x},${z}`] = heightAt(field, x, z);
  }
  return {
    terrain_id: t.value.terrainId,
    heights_sha256: sha(new Uint8Array(field.heights.buffer)),
    stats: t.value.stats,
    floor: t.value.floor,
    ceiling: t.value.ceiling,
    tiles: t.value.tiles,
    samples,
    // Decoded pixels, not PNG bytes: the deflate stream may differ between zlib builds.
    preview_pixels_sha256: sha(PNG.sync.read(heightPreviewPng(field, { tileSize: t.value.tiles.size })).data),
  };
}

describe("terrain golden values for fixed seeds", () => {
  const current = Object.fromEntries(Object.keys(GOLDEN_RECIPES).map((n) => [n, fingerprint(n)]));
  if (process.env["MCB_UPDATE_GOLDEN"] === "1") writeFileSync(GOLDEN, `${JSON.stringify(current, null, 2)}\n`);
  const golden = JSON.parse(readFileSync(GOLDEN, "utf8")) as Record<string, unknown>;
  for (const name of Object.keys(GOLDEN_RECIPES)) {
    it(name, () => {
      expect(current[name]).toEqual(golden[name]);
    });
  }
  it("covers every recipe in the golden file", () => {
    expect(Object.keys(golden).sort()).toEqual(Object.keys(GOLDEN_RECIPES).sort());
  });
});
