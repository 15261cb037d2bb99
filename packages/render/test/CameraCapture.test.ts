import fc from "fast-check";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { captureCamera, type BlockSource, type CameraPose } from "../src/index.js";
import { MapSource } from "./MapSource.js";
import { lookOf } from "../src/BlockColors.js";
import { skyColor } from "../src/Raycaster.js";
import { rayDirection, resolvePose } from "../src/CameraPose.js";
import type { Box3 } from "@mcb/blocks";

const BOUNDS: Box3 = { minX: -1000, minY: -64, minZ: -1000, maxX: 1000, maxY: 319, maxZ: 1000 };
/** One roofed world reused by the property's runs (its blocks are reset each run). */
const roof = new MapSource();

async function shoot(source: BlockSource, pose: CameraPose, bounds: Box3 = BOUNDS, workers?: number) {
  const r = await captureCamera(source, pose, { bounds, ...(workers !== undefined ? { workers } : {}) });
  if (!r.ok) throw new Error(r.error.message);
  const png = PNG.sync.read(r.value.png);
  const px = (i: number, j: number) => {
    const o = (j * png.width + i) * 4;
    return [png.data[o]!, png.data[o + 1]!, png.data[o + 2]!];
  };
  return { capture: r.value, png, px };
}

/** Numbers in [min, max] spread evenly, in steps of 1/10000, plus 0.00005. */
const tenThousandths = (min: number, max: number) => fc.integer({ min: min * 10_000, max: max * 10_000 - 1 }).map((n) => n / 10_000 + 0.00005);

describe("camera capture", () => {
  it("draws a stone block straight ahead with the north-face shade, the rest is sky", async () => {
    const world = new MapSource().set(0, 65, 5, "minecraft:stone");
    const { capture, png, px } = await shoot(world, { x: 0.5, y: 64, z: 0.5, yaw: 0, pitch: 0, width: 64, height: 36 });
    expect([png.width, png.height]).toEqual([64, 36]);
    const stone = lookOf("minecraft:stone");
    // The face's mean over its middle is the north-face shade (its texture varies texels by ±10%).
    const mean = [0, 0, 0];
    for (let j = 16; j <= 20; j++) for (let i = 30; i <= 34; i++) px(i, j).forEach((v, k) => (mean[k]! += v / 25));
    for (let k = 0; k < 3; k++) expect(Math.abs(mean[k]! - [stone.r, stone.g, stone.b][k]! * 0.8)).toBeLessThanOrEqual(5);
    expect(capture.hitFraction).toBeGreaterThan(0.01);
    expect(capture.hitFraction).toBeLessThan(0.5);
    const sky = new Float64Array(3);
    const corner = px(0, 0);
    expect(corner[2]).toBe(255); // the top-left corner is sky (blue channel saturated)
    skyColor(0.5, sky);
    expect(capture.insideBlock).toBe(false);
  });

  it("faces south at yaw 0: a block to the east (+x) appears on the left", async () => {
    const world = new MapSource().set(4, 65, 6, "minecraft:red_wool");
    const { px } = await shoot(world, { x: 0.5, y: 64, z: 0.5, yaw: 0, pitch: 0, width: 64, height: 36 });
    const red = (c: number[]) => c[0]! > 100 && c[1]! < 60 && c[2]! < 60;
    let left = 0,
      right = 0;
    for (let j = 0; j < 36; j++) for (let i = 0; i < 64; i++) if (red(px(i, j))) i < 32 ? left++ : right++;
    expect(left).toBeGreaterThan(0);
    expect(right).toBe(0);
  });

  it("looking straight down shows the grass top colour", async () => {
    const world = new MapSource().set(0, 60, 0, "minecraft:grass_block[snowy=false]");
    const { px } = await shoot(world, { x: 0.5, y: 63, z: 0.5, yaw: 0, pitch: 90, width: 32, height: 32 });
    const top = lookOf("minecraft:grass_block[snowy=false]").top!;
    const mean = [0, 0, 0];
    for (let j = 14; j <= 18; j++) for (let i = 14; i <= 18; i++) px(i, j).forEach((v, k) => (mean[k]! += v / 25));
    for (let k = 0; k < 3; k++) expect(Math.abs(mean[k]! - top[k]!)).toBeLessThanOrEqual(6);
  });

  it("blends glass over what is behind it", async () => {
    const world = new MapSource().set(0, 65, 4, "minecraft:glass").set(0, 65, 6, "minecraft:black_wool");
    const { px } = await shoot(world, { x: 0.5, y: 64, z: 0.5, yaw: 0, pitch: 0, width: 32, height: 18 });
    const glassOnly = (await shoot(new MapSource().set(0, 65, 4, "minecraft:glass"), { x: 0.5, y: 64, z: 0.5, yaw: 0, pitch: 0, width: 32, height: 18 })).px(
      16,
      9,
    );
    const c = px(16, 9);
    expect(c[0]).toBeLessThan(glassOnly[0]!);
    expect(c[0]).toBeGreaterThan(20);
  });

  it("sees a wall 100 blocks away across empty sections, and reads only sections in view", async () => {
    const world = new MapSource();
    for (let x = -3; x <= 3; x++) for (let y = 60; y <= 70; y++) world.set(x, y, 100, "minecraft:bricks");
    world.set(0, 65, -20, "minecraft:gold_block"); // behind the camera
    const { capture, px } = await shoot(world, { x: 0.5, y: 64, z: 0.5, yaw: 0, pitch: 0, width: 64, height: 36 });
    const bricks = lookOf("minecraft:bricks");
    const c = px(32, 18);
    expect(Math.abs(c[0]! - bricks.r * 0.8)).toBeLessThan(30); // fogged a little
    expect(c[2]).toBeLessThan(200);
    expect(capture.sectionsRead).toBeLessThan(1000);
    expect(world.reads).toBe(capture.sectionsRead);
    expect(capture.sectionsWithBlocks).toBe(4); // x −3..3 and y 60..70 straddle section borders
  });

  it("draws nothing outside the readable bounds", async () => {
    const world = new MapSource().set(0, 65, 5, "minecraft:stone");
    const { capture } = await shoot(world, { x: 0.5, y: 64, z: 0.5, yaw: 0, pitch: 0, width: 32, height: 18 }, { ...BOUNDS, maxZ: 4 });
    expect(capture.hitFraction).toBe(0);
  });

  it("is deterministic: the same blocks and pose give the same bytes", async () => {
    const world = new MapSource();
    for (let i = 0; i < 40; i++) world.set(((i * 7) % 11) - 5, 62 + (i % 5), 6 + ((i * 3) % 9), i % 2 ? "minecraft:oak_planks" : "minecraft:water[level=0]");
    const pose = { x: 0.3, y: 64, z: -2.2, yaw: 12, pitch: 15, width: 96, height: 54 };
    const a = await shoot(world, pose);
    const b = await shoot(world, pose);
    expect(a.capture.png.equals(b.capture.png)).toBe(true);
  });

  it("reports a camera inside an opaque block", async () => {
    const world = new MapSource().set(0, 65, 0, "minecraft:stone");
    expect((await shoot(world, { x: 0.5, y: 64, z: 0.5, yaw: 0, pitch: 0, width: 16, height: 16 })).capture.insideBlock).toBe(true);
  });

  it("refuses bad poses with the field named", async () => {
    for (const [pose, field] of [
      [{ x: 0, y: 0, z: 0, yaw: 0, pitch: 91 }, "pitch"],
      [{ x: Number.NaN, y: 0, z: 0, yaw: 0, pitch: 0 }, "x"],
      [{ x: 0, y: 0, z: 0, yaw: 0, pitch: 0, fov: 5 }, "fov"],
      [{ x: 0, y: 0, z: 0, yaw: 0, pitch: 0, width: 4000 }, "width"],
      [{ x: 0, y: 0, z: 0, yaw: 0, pitch: 0, height: 10.5 }, "height"],
    ] as const) {
      const r = await captureCamera(new MapSource(), pose, { bounds: BOUNDS });
      expect(r).toMatchObject({ ok: false, error: { code: "invalid_request", details: { field } } });
    }
  });

  // Near: blocks around the eye (voxel steps, brick steps). Far: blocks spread over 80 blocks,
  // so rays cross long empty stretches by the height field's and the distance field's jumps.
  // Roofed: a stone roof at y 100 over everything keeps the height field above every ray, so
  // the empty stretches below it are crossed by the distance field alone.
  it.each([
    ["near", 6, [58, 70], 8, [56, 68], false],
    ["far", 40, [40, 90], 30, [50, 80], false],
    ["roofed", 40, [40, 90], 30, [50, 80], true],
  ] as const)(
    "agrees with a brute-force slab test on which pixels hit a block, at every worker count (property, %s blocks)",
    async (_, spread, [ylo, yhi], eyeSpread, [eylo, eyhi], roofed) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({ x: fc.integer({ min: -spread, max: spread }), y: fc.integer({ min: ylo, max: yhi }), z: fc.integer({ min: -spread, max: spread }) }),
            { minLength: 1, maxLength: 25 },
          ),
          // Uniform poses (fc.double spreads over bit patterns: nearly every draw would sit at x, z ≈ 0,
          // on a block face, where rays along the face are ambiguous — seed 1950329704). The 0.00005
          // offset keeps the eye off every face plane.
          fc.record({
            x: tenThousandths(-eyeSpread, eyeSpread),
            y: tenThousandths(eylo, eyhi),
            z: tenThousandths(-eyeSpread, eyeSpread),
            yaw: tenThousandths(-180, 180),
            pitch: tenThousandths(-89, 89),
          }),
          fc.constantFrom(1, 2, 3),
          async (cells, pose, workers) => {
            const world = roofed ? roof : new MapSource();
            world.clear();
            if (roofed) for (let x = -64; x < 64; x++) for (let z = -64; z < 64; z++) world.set(x, 100, z, "minecraft:stone");
            for (const c of cells) world.set(c.x, c.y, c.z, "minecraft:stone");
            const full: CameraPose = { ...pose, width: 24, height: 16 };
            const p = resolvePose(full);
            if (!p.ok) throw new Error(p.error.message);
            const [ex, ey, ez] = p.value.eye;
            if (cells.some((c) => Math.floor(ex) === c.x && Math.floor(ey) === c.y && Math.floor(ez) === c.z)) return; // inside a block
            const { px } = await shoot(world, full, { minX: -64, minY: 0, minZ: -64, maxX: 63, maxY: 127, maxZ: 63 }, workers);
            const d = new Float64Array(3);
            const sky = new Float64Array(3);
            let mismatches = 0;
            for (let j = 0; j < 16; j++)
              for (let i = 0; i < 24; i++) {
                rayDirection(p.value, i, j, d);
                const len = Math.hypot(d[0]!, d[1]!, d[2]!);
                const dir = [d[0]! / len, d[1]! / len, d[2]! / len];
                const hits =
                  cells.some((c) => {
                    let t0 = 0,
                      t1 = 128;
                    for (let k = 0; k < 3; k++) {
                      const o = [ex, ey, ez][k]!,
                        lo = [c.x, c.y, c.z][k]!;
                      if (dir[k] === 0) {
                        if (o < lo || o > lo + 1) return false;
                        continue;
                      }
                      let a = (lo - o) / dir[k]!,
                        b = (lo + 1 - o) / dir[k]!;
                      if (a > b) [a, b] = [b, a];
                      ((t0 = Math.max(t0, a)), (t1 = Math.min(t1, b)));
                    }
                    return t0 <= t1;
                  }) ||
                  (roofed &&
                    dir[1]! > 0 &&
                    (() => {
                      const t = (100 - ey) / dir[1]!,
                        x = ex + dir[0]! * t,
                        z = ez + dir[2]! * t;
                      return t <= 128 && x >= -64 && x < 64 && z >= -64 && z < 64;
                    })());
                skyColor(dir[1]!, sky);
                const c = px(i, j);
                const isSky = c.every((v, k) => v === Math.round(sky[k]!));
                if (isSky === hits) mismatches++;
              }
            expect(mismatches).toBeLessThanOrEqual(1); // a ray grazing an edge may round either way
          },
        ),
        { numRuns: 100 },
      );
    },
  );

  it("gives the same bytes for any worker count, with and without ambient occlusion", async () => {
    const world = new MapSource();
    for (let x = -20; x <= 20; x++)
      for (let z = -20; z <= 30; z++) {
        const h = 60 + Math.round(2 * Math.sin(x / 5) + 2 * Math.cos(z / 4));
        for (let y = h - 1; y <= h; y++) world.set(x, y, z, y === h ? "minecraft:grass_block[snowy=false]" : "minecraft:dirt");
        if (h < 60) world.set(x, 60, z, "minecraft:water[level=0]");
      }
    for (let y = 61; y <= 66; y++) for (let x = -3; x <= 3; x++) world.set(x, y, 8, x === 0 && y < 64 ? "minecraft:glass" : "minecraft:bricks");
    for (let x = -3; x <= 3; x++) world.set(x, 67, 7, "minecraft:oak_stairs[facing=south,half=bottom,shape=straight,waterlogged=false]");
    world
      .set(4, 63, 6, "minecraft:oak_fence[east=false,north=false,south=false,waterlogged=false,west=false]")
      .set(0, 64, 7, "minecraft:wall_torch[facing=north]");
    const pose = { x: 0.5, y: 64, z: -6.5, yaw: 5, pitch: 14, width: 203, height: 117 };
    const shots = [];
    for (const workers of [1, 2, 3, 4]) {
      const r = await captureCamera(world, pose, { bounds: BOUNDS, workers });
      if (!r.ok) throw new Error(r.error.message);
      shots.push(r.value);
    }
    expect(shots.map((s) => s.threads)).toEqual([1, 2, 3, 4]); // the workers really drew them
    for (const s of shots.slice(1)) expect(s.png.equals(shots[0]!.png)).toBe(true);
    expect(new Set(shots.map((s) => s.hitFraction)).size).toBe(1);
    // Captures running at the same time on the shared workers (as concurrent MCP requests do).
    const other = { ...pose, yaw: -30, width: 150, height: 90 };
    const png = async (p: CameraPose, workers: number) => {
      const r = await captureCamera(world, p, { bounds: BOUNDS, workers });
      if (!r.ok) throw new Error(r.error.message);
      return r.value.png;
    };
    const alone = await png(other, 3);
    const together = await Promise.all([png(pose, 2), png(other, 3), png(pose, 4)]);
    expect([together[0]!.equals(shots[0]!.png), together[1]!.equals(alone), together[2]!.equals(shots[0]!.png)]).toEqual([true, true, true]);
    const flat = await captureCamera(world, pose, { bounds: BOUNDS, workers: 2, ambientOcclusion: false });
    expect(flat.ok && flat.value.png.equals(shots[0]!.png)).toBe(false);
    expect(await captureCamera(world, pose, { bounds: BOUNDS, workers: 0 })).toMatchObject({
      ok: false,
      error: { code: "invalid_request", details: { reason: "workers" } },
    });
  });
});

describe("partial blocks", () => {
  const pose = { x: 0.5, y: 64, z: 0.5, yaw: 0, pitch: 0, width: 64, height: 64, fov: 40 };
  // The eye is at y 65.62: a block at y 65, 4 ahead, fills the centre of the view.
  const centre = async (state: string) => (await shoot(new MapSource().set(0, 65, 4, state), pose)).px(32, 32);
  const skyAt = async () => (await shoot(new MapSource(), pose)).px(32, 32);

  it("a bottom slab under the eye line lets the ray pass; a top slab stops it", async () => {
    expect(await centre("minecraft:stone_slab[type=bottom,waterlogged=false]")).toEqual(await skyAt());
    expect(await centre("minecraft:stone_slab[type=top,waterlogged=false]")).not.toEqual(await skyAt());
    expect(await centre("minecraft:stone_slab[type=double,waterlogged=false]")).not.toEqual(await skyAt());
  });

  it("a fence post is thin: rays beside it reach the sky, arms show only where connected", async () => {
    const fence = "minecraft:oak_fence[east=false,north=false,south=false,waterlogged=false,west=false]";
    const { capture } = await shoot(new MapSource().set(0, 65, 4, fence), pose);
    const cube = (await shoot(new MapSource().set(0, 65, 4, "minecraft:oak_planks"), pose)).capture;
    expect(capture.hitFraction).toBeGreaterThan(0);
    expect(capture.hitFraction).toBeLessThan(cube.hitFraction / 3);
    const joined = (await shoot(new MapSource().set(0, 65, 4, fence.replace("east=false", "east=true").replace("west=false", "west=true")), pose)).capture;
    expect(joined.hitFraction).toBeGreaterThan(capture.hitFraction);
  });

  it("a row of the same fence is drawn post by post (the same block again is not skipped)", async () => {
    const fence = "minecraft:oak_fence[east=false,north=false,south=false,waterlogged=false,west=false]";
    const world = new MapSource();
    for (let z = 3; z <= 8; z++) world.set(0, 65, z, fence);
    const side = { ...pose, x: 3.5, yaw: 50 };
    const row = (await shoot(world, side)).capture.hitFraction;
    const first = (await shoot(new MapSource().set(0, 65, 3, fence), side)).capture.hitFraction;
    expect(row).toBeGreaterThan(first * 2);
  });

  it("flowers and torches are small columns, carpets are flat", async () => {
    const flower = (await shoot(new MapSource().set(0, 65, 4, "minecraft:poppy"), pose)).capture.hitFraction;
    const cube = (await shoot(new MapSource().set(0, 65, 4, "minecraft:red_wool"), pose)).capture.hitFraction;
    expect(flower).toBeGreaterThan(0);
    expect(flower).toBeLessThan(cube / 2);
    expect(await centre("minecraft:red_carpet")).toEqual(await skyAt());
  });
});

describe("doors", () => {
  const pose = { x: 0.5, y: 64, z: 0.5, yaw: 0, pitch: 0, width: 48, height: 48, fov: 40 };
  const door = (open: boolean) => `minecraft:oak_door[facing=north,half=lower,hinge=left,open=${open},powered=false]`;
  it("a closed door blocks the view through its block; an open one leaves the middle clear", async () => {
    const closed = await shoot(new MapSource().set(0, 65, 4, door(false)), pose);
    const open = await shoot(new MapSource().set(0, 65, 4, door(true)), pose);
    const sky = (await shoot(new MapSource(), pose)).px(24, 24);
    expect(closed.px(24, 24)).not.toEqual(sky);
    expect(open.px(24, 24)).toEqual(sky);
    expect(open.capture.hitFraction).toBeGreaterThan(0); // the panel is still there, at the side
  });
});

describe("unloaded sections", () => {
  class NotLoaded extends Error {}
  /** Only chunk columns with x ≥ 0 are loaded; reads elsewhere throw as a server's would. */
  class HalfLoaded extends MapSource {
    override async read(box: Box3) {
      if (box.minX < 0) throw new NotLoaded(`chunk ${box.minX >> 4} not loaded`);
      return super.read(box);
    }
  }
  const pose: CameraPose = { x: 0.5, y: 70, z: -20, yaw: 0, pitch: 20, width: 64, height: 48 };

  it("draws what is loaded, counts the rest, and refuses a view with nothing loaded", async () => {
    const src = new HalfLoaded();
    for (let x = 0; x < 8; x++) src.set(x, 64, 0, "minecraft:stone");
    const r = await captureCamera(src, pose, { bounds: BOUNDS, maxDistance: 64, isUnloaded: (e) => e instanceof NotLoaded });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.sectionsUnloaded).toBeGreaterThan(0);
    expect(r.value.sectionsUnloaded).toBeLessThan(r.value.sectionsRead);
    expect(r.value.hitFraction).toBeGreaterThan(0);
    // Without the predicate a read failure is an error of the caller's world, not "nothing there".
    await expect(captureCamera(src, pose, { bounds: BOUNDS, maxDistance: 64 })).rejects.toThrow(NotLoaded);
    const west = await captureCamera(src, { ...pose, x: -500 }, { bounds: BOUNDS, maxDistance: 64, isUnloaded: (e) => e instanceof NotLoaded });
    expect(west.ok || west.error).toMatchObject({ code: "camera_unavailable", details: { reason: "scene_not_loaded" } });
  });
});
