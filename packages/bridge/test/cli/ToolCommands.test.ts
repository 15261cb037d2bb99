import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { createBlockRegistry } from "@mcb/blocks";
import { readSchematic } from "@mcb/schematic";
import { compileTerrain, terrainTilePlan } from "@mcb/terrain";
import { runTerrainBatch } from "../../src/workspace/jobs/TerrainJobs.js";
import { mcb, tower, openWorld } from "../support.js";

const tmp = () => mkdtempSync(join(tmpdir(), "mcb-cli-"));
const terrain = {
  version: 1,
  seed: 9,
  area: { min: { x: 0, z: 0 }, max: { x: 47, z: 31 } },
  base: 64,
  features: [
    { type: "hill", center: { x: 20, z: 16 }, radius: 14, height: 8 },
    { type: "noise", amplitude: 2, scale: 12 },
  ],
};

describe("mcb schem", () => {
  it("builds a schematic from a recipe and reads it back with info", async () => {
    const dir = tmp();
    const out = join(dir, "tower.schem");
    const built = await mcb("schem", "build", tower, "-o", out, "--json");
    expect(built.code).toBe(0);
    const info = JSON.parse(built.stdout);
    const registry = createBlockRegistry();
    if (!registry.ok) throw new Error("registry");
    const s = readSchematic(registry.value, readFileSync(out));
    expect(s.ok && [s.value.schematic.width, s.value.schematic.height, s.value.schematic.length]).toEqual([info.width, info.height, info.length]);
    const shown = await mcb("schem", "info", out, "--json");
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ width: info.width, sha256: info.sha256, block_count: info.block_count });
    const text = await mcb("schem", "info", out);
    expect(text.stdout).toContain("DataVersion 4903");
  });

  it("refuses bounds over --max-positions, and bad files with a structured error", async () => {
    const dir = tmp();
    const big = join(dir, "big.json");
    writeFileSync(
      big,
      JSON.stringify({
        version: 1,
        operations: [{ type: "box", min: { x: 0, y: 64, z: 0 }, max: { x: 20, y: 84, z: 20 }, block: "minecraft:stone", hollow: true }],
      }),
    );
    const refused = await mcb("schem", "build", big, "-o", join(dir, "big.schem"), "--max-positions", "9000");
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error).toMatchObject({ code: "budget_exceeded" });
    expect((await mcb("schem", "build", big, "-o", join(dir, "big.schem"))).code).toBe(0); // 9,261 positions: within the default
    expect((await mcb("schem", "info", join(dir, "big.schem"), "--max-positions", "9000")).code).toBe(1);
    expect((await mcb("schem", "info", join(dir, "big.schem"))).code).toBe(0);
    writeFileSync(join(dir, "junk.schem"), "junk");
    expect(JSON.parse((await mcb("schem", "info", join(dir, "junk.schem"))).stderr).error.code).toBe("invalid_request");
    expect((await mcb("schem", "build", big)).code).toBe(2);
  });
});

describe("mcb terrain", () => {
  it("previews a recipe to a PNG without a world", async () => {
    const dir = tmp();
    const file = join(dir, "t.json");
    writeFileSync(file, JSON.stringify(terrain));
    const r = await mcb("terrain", "preview", file, "-o", join(dir, "t.png"), "--json");
    expect(r.code).toBe(0);
    const v = JSON.parse(r.stdout);
    expect(v.terrain_id).toMatch(/^t_[0-9a-f]{32}$/);
    const png = PNG.sync.read(readFileSync(join(dir, "t.png")));
    expect([png.width, png.height]).toEqual([48, 32]);
  });

  it("batch: applies tiles with progress, resumes where it stopped, and has nothing left to do after", async () => {
    const dir = tmp();
    const file = join(dir, "t.json");
    writeFileSync(file, JSON.stringify(terrain));
    const state = join(dir, "state");
    const first = await mcb("terrain", "batch", file, "--state", state, "--max-tiles", "1", "--json");
    expect(first.code).toBe(3); // unfinished
    expect(first.stderr).toMatch(/\[#+-+\] 1\/2 tiles {2}[\d,]+ blocks {2}[\d,]+ blocks\/s {2}\d+ s left {2}tile 0: applied/);
    expect(JSON.parse(first.stdout)).toMatchObject({ tiles: 2, applied: 1, unfinished: 1 });
    const second = await mcb("terrain", "batch", file, "--state", state, "--json");
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ applied: 2, unfinished: 0, skipped_done: 1 });
    expect(second.stderr).toMatch(/2\/2 tiles {2}[\d,]+ blocks {2}[\d,]+ blocks\/s {2}tile 1: applied/);
    const third = JSON.parse((await mcb("terrain", "batch", file, "--state", state, "--json")).stdout);
    expect(third).toMatchObject({ applied: 2, skipped_done: 2 });
    const status = JSON.parse((await mcb("status", "--state", state, "--json")).stdout);
    expect(status.recent_operations).toHaveLength(2);
  });

  it("batch: an apply interrupted after its key was saved is re-sent with the same key, not prepared again", async () => {
    const dir = tmp();
    const file = join(dir, "t.json");
    writeFileSync(file, JSON.stringify(terrain));
    const w = await openWorld(join(dir, "state"));
    try {
      const t = compileTerrain(w.registry, terrain);
      if (!t.ok) throw new Error("terrain");
      const tile = terrainTilePlan(w.registry, t.value, 0);
      if (!tile.ok) throw new Error("tile");
      const prepared = await w.engine.buildPrepare(w.ctx, { plan: tile.value.plan });
      if (!prepared.ok) throw new Error("prepare");
      const key = `terrain-${t.value.terrainId}-0-1`;
      // The state a crash leaves: the key is on disk, the write was sent and ran, the result was never recorded.
      const sent = await w.engine.buildApply(w.ctx, { plan_id: prepared.value.plan_id, plan_hash: prepared.value.plan_hash, idempotency_key: key });
      await w.engine.settle();
      const progress = join(w.dir, "terrain", `${t.value.terrainId}.json`);
      const { mkdirSync } = await import("node:fs");
      mkdirSync(join(w.dir, "terrain"), { recursive: true });
      writeFileSync(
        progress,
        JSON.stringify({
          terrain_id: t.value.terrainId,
          tiles: 2,
          entries: { 0: { state: "applying", attempt: 1, key, plan_id: prepared.value.plan_id, plan_hash: prepared.value.plan_hash } },
        }),
      );
      const lines: string[] = [];
      const r = await runTerrainBatch(w, file, (_d, _t, line) => lines.push(line));
      expect(r.ok && r.value).toMatchObject({ applied: 2, unfinished: 0 });
      const saved = JSON.parse(readFileSync(progress, "utf8"));
      expect(saved.entries["0"].operation_id).toBe(sent.ok && sent.value.operation_id);
      expect(lines[0]).toMatch(/^tile 0: applied/);
    } finally {
      await w.close();
    }
  });
});

describe("mcb camera", () => {
  it("saves and lists viewpoints, refusing bad names and poses", async () => {
    const state = tmp();
    // No world here yet: a save is refused rather than making a new state directory, unless --init.
    const missing = await mcb("camera", "save", "front", "--state", state, "--", "3.5", "66", "-20", "0", "10");
    expect([missing.code, JSON.parse(missing.stderr).error.details.reason]).toEqual([1, "state_missing"]);
    expect((await mcb("camera", "save", "front", "--state", state, "--init", "--", "3.5", "66", "-20", "0", "10")).code).toBe(0);
    expect((await mcb("camera", "save", "../x", "--state", state, "--", "0", "0", "0", "0", "0")).code).toBe(1);
    expect((await mcb("camera", "save", "up", "--state", state, "--", "0", "0", "0", "0", "120")).code).toBe(1);
    const list = JSON.parse((await mcb("camera", "list", "--state", state, "--json")).stdout);
    expect(list).toEqual([{ camera_id: "front", pose: { x: 3.5, y: 66, z: -20, yaw: 0, pitch: 10 } }]);
  });
});

describe("CLI parity with the agent's tools", () => {
  it("schem export writes the library asset (and a file), schem import pastes it rotated, camera capture writes a PNG", async () => {
    const state = tmp();
    const built = await mcb("build", tower, "--state", state, "--json");
    expect(built.code).toBe(0);
    const out = join(state, "copy.schem");
    const exported = await mcb("schem", "export", "tower", "-o", out, "--state", state, "--json", "--", "-6", "64", "-6", "6", "80", "6");
    expect(exported.code).toBe(0);
    const asset = JSON.parse(exported.stdout);
    expect(asset).toMatchObject({ asset_id: "tower", width: 13, height: 17, length: 13, offset: { x: 0, y: 0, z: 0 } });
    expect(JSON.parse((await mcb("schem", "info", out, "--json")).stdout)).toMatchObject({ sha256: asset.sha256, block_count: asset.block_count });
    expect((await mcb("schem", "export", "tower", "--state", state, "--", "0", "64", "0", "1", "64", "1")).code).toBe(1); // never overwrites

    const pasted = await mcb("schem", "import", "tower", "--at", "100,64,0", "--rotation", "90", "--state", state, "--json");
    expect(pasted.code).toBe(0);
    const report = JSON.parse(pasted.stdout);
    expect(report.operation).toMatchObject({ status: "applied" });
    expect(report.plan.region).toEqual({ min: { x: 88, y: 64, z: 0 }, max: { x: 100, y: 80, z: 12 } }); // anchored at its min corner, turned clockwise
    const fromFile = await mcb("schem", "import", out, "--at", "200,64,0", "--state", state, "--json");
    expect(JSON.parse(fromFile.stdout).operation.counters.written).toBe(asset.block_count);
    const counts = async (x1: number, x2: number, z1 = -6) => {
      const r = await mcb("inspect", "--state", state, "--json", "--", String(x1), "70", String(z1), String(x2), "70", String(z1 + 12));
      return (JSON.parse(r.stdout) as { palette: { state: string; count: number }[] }).palette
        .filter((p) => p.state !== "minecraft:air")
        .reduce((n, p) => n + p.count, 0);
    };
    expect(await counts(200, 212, 0)).toBe(await counts(-6, 6));
    expect(await counts(88, 100, 0)).toBe(await counts(-6, 6));
    expect((await mcb("schem", "import", "tower", "--at", "0,64,0", "--rotation", "45", "--state", state)).code).toBe(2);

    const png = join(state, "shot.png");
    const shot = await mcb("camera", "capture", "-o", png, "--width", "320", "--height", "180", "--state", state, "--json", "--", "0", "66", "-30", "0", "-5");
    expect(shot.code).toBe(0);
    const img = PNG.sync.read(readFileSync(png));
    expect([img.width, img.height]).toEqual([320, 180]);
    expect(JSON.parse(shot.stdout).hit_fraction).toBeGreaterThan(0.01);
    expect((await mcb("camera", "save", "front", "--state", state, "--", "0", "66", "-30", "0", "-5")).code).toBe(0);
    const named = await mcb("camera", "capture", "front", "-o", join(state, "front.png"), "--state", state);
    expect(named.code).toBe(0);
    expect(named.stdout).toMatch(/wrote .*front\.png: 640×360/);
    const missing = await mcb("camera", "capture", "nope", "-o", join(state, "x.png"), "--state", state);
    expect([missing.code, JSON.parse(missing.stderr).error.code]).toEqual([1, "camera_unavailable"]);
  }, 60_000);
});
