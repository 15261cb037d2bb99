import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { captureCamera } from "../src/index.js";
import type { Box3 } from "@mcb/blocks";
import { MapSource } from "./MapSource.js";
import { modelOf } from "../src/BlockModels.js";

const BOUNDS: Box3 = { minX: -64, minY: 0, minZ: -64, maxX: 63, maxY: 127, maxZ: 63 };
const TILE_W = 128,
  TILE_H = 96,
  COLUMNS = 5;

/** One model on a stone floor, with a stone wall south of it (z = 1) for things hung on a wall. */
interface Tile {
  readonly name: string;
  readonly state: string;
  readonly wall?: boolean;
  readonly above?: boolean;
}

const TILES: Tile[] = [
  { name: "stairs north bottom", state: "minecraft:oak_stairs[facing=north,half=bottom,shape=straight,waterlogged=false]" },
  { name: "stairs east top", state: "minecraft:oak_stairs[facing=east,half=top,shape=straight,waterlogged=false]" },
  { name: "stairs outer_left", state: "minecraft:stone_brick_stairs[facing=north,half=bottom,shape=outer_left,waterlogged=false]" },
  { name: "stairs inner_right", state: "minecraft:stone_brick_stairs[facing=north,half=bottom,shape=inner_right,waterlogged=false]" },
  { name: "wall torch", state: "minecraft:wall_torch[facing=north]", wall: true },
  { name: "torch", state: "minecraft:torch" },
  { name: "lantern", state: "minecraft:lantern[hanging=false,waterlogged=false]" },
  { name: "hanging lantern", state: "minecraft:lantern[hanging=true,waterlogged=false]", above: true },
  { name: "chain y", state: "minecraft:iron_chain[axis=y,waterlogged=false]", above: true },
  { name: "chain x", state: "minecraft:iron_chain[axis=x,waterlogged=false]" },
  { name: "button", state: "minecraft:stone_button[face=wall,facing=north,powered=false]", wall: true },
  { name: "lever", state: "minecraft:lever[face=floor,facing=north,powered=false]" },
  { name: "sign", state: "minecraft:oak_sign[rotation=0,waterlogged=false]" },
  { name: "wall sign", state: "minecraft:oak_wall_sign[facing=north,waterlogged=false]", wall: true },
  { name: "ladder", state: "minecraft:ladder[facing=north,waterlogged=false]", wall: true },
  { name: "vine", state: "minecraft:vine[east=false,north=false,south=true,up=false,west=false]", wall: true },
  { name: "planks", state: "minecraft:oak_planks" },
  { name: "bricks", state: "minecraft:bricks" },
  { name: "stone bricks", state: "minecraft:stone_bricks" },
  { name: "cobblestone", state: "minecraft:cobblestone" },
  { name: "grass block", state: "minecraft:grass_block[snowy=false]" },
  { name: "oak log", state: "minecraft:oak_log[axis=y]" },
  { name: "oak leaves", state: "minecraft:oak_leaves[distance=7,persistent=true,waterlogged=false]" },
  { name: "glass", state: "minecraft:glass" },
];

function world(tile: Tile): MapSource {
  const w = new MapSource();
  for (let x = -2; x <= 2; x++) for (let z = -2; z <= 2; z++) w.set(x, 63, z, "minecraft:stone");
  if (tile.wall) for (let x = -2; x <= 2; x++) for (let y = 64; y <= 66; y++) w.set(x, y, 1, "minecraft:stone");
  if (tile.above) w.set(0, 65, 0, "minecraft:stone");
  return w.set(0, 64, 0, tile.state);
}

/** A camera north-west of the block and above it, looking at its middle. */
function pose(width: number, height: number) {
  const eye = [-1.1, 65.6, -1.7],
    target = [0.5, 64.4, 0.5];
  const d = target.map((v, k) => v - eye[k]!);
  const len = Math.hypot(d[0]!, d[1]!, d[2]!);
  const yaw = (Math.atan2(-d[0]!, d[2]!) * 180) / Math.PI,
    pitch = (-Math.asin(d[1]! / len) * 180) / Math.PI;
  return { x: eye[0]!, y: eye[1]! - 1.62, z: eye[2]!, yaw, pitch, fov: 50, width, height };
}

async function render(tile: Tile, workers: number): Promise<PNG> {
  const r = await captureCamera(world(tile), pose(TILE_W, TILE_H), { bounds: BOUNDS, workers });
  if (!r.ok) throw new Error(r.error.message);
  return PNG.sync.read(r.value.png);
}

async function sheet(workers: number): Promise<PNG> {
  const rows = Math.ceil(TILES.length / COLUMNS);
  const out = new PNG({ width: TILE_W * COLUMNS, height: TILE_H * rows });
  for (const [k, tile] of TILES.entries())
    PNG.bitblt(await render(tile, workers), out, 0, 0, TILE_W, TILE_H, (k % COLUMNS) * TILE_W, Math.floor(k / COLUMNS) * TILE_H);
  return out;
}

const GOLDEN = fileURLToPath(new URL("./golden/models.png", import.meta.url));

describe("box models and textures (golden image)", () => {
  it("draws every model as the golden sheet shows, pixel for pixel (MCB_UPDATE_GOLDEN=1 rewrites it)", async () => {
    const got = await sheet(2);
    if (process.env["MCB_UPDATE_GOLDEN"] === "1") {
      mkdirSync(fileURLToPath(new URL("./golden", import.meta.url)), { recursive: true });
      writeFileSync(GOLDEN, PNG.sync.write(got));
    }
    expect(existsSync(GOLDEN), `${GOLDEN} is missing: run with MCB_UPDATE_GOLDEN=1 and review the image`).toBe(true);
    const want = PNG.sync.read(readFileSync(GOLDEN));
    expect([got.width, got.height]).toEqual([want.width, want.height]);
    const differing = TILES.filter((_, k) => {
      const x0 = (k % COLUMNS) * TILE_W,
        y0 = Math.floor(k / COLUMNS) * TILE_H;
      for (let j = y0; j < y0 + TILE_H; j++)
        for (let i = x0; i < x0 + TILE_W; i++) {
          const o = (j * got.width + i) * 4;
          if (got.data[o] !== want.data[o] || got.data[o + 1] !== want.data[o + 1] || got.data[o + 2] !== want.data[o + 2]) return true;
        }
      return false;
    }).map((t) => t.name);
    expect(differing).toEqual([]);
  });

  it("draws accent parts in their accent colour: a torch's flame, a lantern's light, a lever's handle", async () => {
    const count = (png: PNG, test: (r: number, g: number, b: number) => boolean) => {
      let n = 0;
      for (let o = 0; o < png.data.length; o += 4) if (test(png.data[o]!, png.data[o + 1]!, png.data[o + 2]!)) n++;
      return n;
    };
    const flame = (r: number, g: number, b: number) => r > 200 && g > 150 && b < 120;
    for (const name of ["wall torch", "torch", "lantern"])
      expect(
        count(
          await render(
            TILES.find((t) => t.name === name)!,
            1,
          ),
          flame,
        ),
        name,
      ).toBeGreaterThan(2);
    const stick = (r: number, g: number, b: number) => r > g + 15 && g > b + 15 && r < 160; // brown
    expect(
      count(
        await render(
          TILES.find((t) => t.name === "wall torch")!,
          1,
        ),
        stick,
      ),
    ).toBeGreaterThan(2);
    expect(
      count(
        await render(
          TILES.find((t) => t.name === "lever")!,
          1,
        ),
        stick,
      ),
    ).toBeGreaterThan(2);
    const green = (r: number, g: number, b: number) => g > r + 20 && g > b + 20;
    expect(
      count(
        await render(
          TILES.find((t) => t.name === "wall torch")!,
          1,
        ),
        green,
      ),
    ).toBe(0);
  });
});

/** Whether the point (in block units) is inside one of the state's boxes. */
function solidAt(state: string, x: number, y: number, z: number): boolean {
  const s = modelOf(state);
  if (s === null) return true;
  for (let k = 0; k < s.length; k += 7) if (x > s[k]! && x < s[k + 3]! && y > s[k + 1]! && y < s[k + 4]! && z > s[k + 2]! && z < s[k + 5]!) return true;
  return false;
}

/** Which of the eight octants (x, y, z each low/high) the shape fills, as "x y z" strings. */
function octants(state: string): string[] {
  const out: string[] = [];
  for (const y of [0.25, 0.75])
    for (const z of [0.25, 0.75])
      for (const x of [0.25, 0.75]) if (solidAt(state, x, y, z)) out.push(`${x < 0.5 ? "W" : "E"}${y < 0.5 ? "D" : "U"}${z < 0.5 ? "N" : "S"}`);
  return out.sort();
}

describe("stair shapes follow the game's facing, half and shape", () => {
  const stairs = (facing: string, half: string, shape: string) => `minecraft:oak_stairs[facing=${facing},half=${half},shape=${shape},waterlogged=false]`;
  const bottom = ["EDN", "EDS", "WDN", "WDS"],
    top = ["EUN", "EUS", "WUN", "WUS"];
  it.each([
    // The step (the upper half) is on the facing side; left/right as seen walking up the stairs.
    ["north", "straight", ["EUN", "WUN"]],
    ["south", "straight", ["EUS", "WUS"]],
    ["east", "straight", ["EUN", "EUS"]],
    ["west", "straight", ["WUN", "WUS"]],
    ["north", "outer_left", ["WUN"]],
    ["north", "outer_right", ["EUN"]],
    ["south", "outer_left", ["EUS"]],
    ["east", "outer_left", ["EUN"]],
    ["west", "outer_left", ["WUS"]],
    ["north", "inner_left", ["EUN", "WUN", "WUS"]],
    ["north", "inner_right", ["EUN", "EUS", "WUN"]],
    ["east", "inner_right", ["EUN", "EUS", "WUS"]],
  ] as const)("facing %s, %s", (facing, shape, step) => {
    expect(octants(stairs(facing, "bottom", shape))).toEqual([...bottom, ...step].sort());
    // A top stair is the same upside down.
    const flipped = step.map((o) => o.replace("U", "D"));
    expect(octants(stairs(facing, "top", shape))).toEqual([...top, ...flipped].sort());
  });
});

describe("attached models sit against the block they hang on", () => {
  // facing=north: the thing points north, so it hangs on the block to its south (z = 1).
  it.each([
    ["minecraft:wall_torch[facing=north]", "z", 1],
    ["minecraft:wall_torch[facing=east]", "x", 0],
    ["minecraft:ladder[facing=north,waterlogged=false]", "z", 1],
    ["minecraft:ladder[facing=west,waterlogged=false]", "x", 1],
    ["minecraft:oak_wall_sign[facing=south,waterlogged=false]", "z", 0],
    ["minecraft:stone_button[face=wall,facing=east,powered=false]", "x", 0],
    ["minecraft:lever[face=wall,facing=north,powered=false]", "z", 1],
    ["minecraft:vine[east=true,north=false,south=false,up=false,west=false]", "x", 1],
  ] as const)("%s touches the %s = %d side", (state, axis, side) => {
    const s = modelOf(state)!;
    const a = axis === "x" ? 0 : 2;
    let touches = false,
      far = 0;
    for (let k = 0; k < s.length; k += 7) {
      touches ||= side === 1 ? s[k + 3 + a] === 1 : s[k + a] === 0;
      far = Math.max(far, side === 1 ? 1 - s[k + a]! : s[k + 3 + a]!);
    }
    expect(touches).toBe(true);
    expect(far).toBeLessThanOrEqual(0.5); // it does not cross the block's middle from its wall
  });

  it("lanterns stand on the floor or hang from the ceiling; chains follow their axis", () => {
    const lowest = (state: string) => Math.min(...[...modelOf(state)!].filter((_, i) => i % 7 === 1));
    const highest = (state: string) => Math.max(...[...modelOf(state)!].filter((_, i) => i % 7 === 4));
    expect(lowest("minecraft:lantern[hanging=false,waterlogged=false]")).toBe(0);
    expect(highest("minecraft:lantern[hanging=true,waterlogged=false]")).toBeGreaterThan(highest("minecraft:lantern[hanging=false,waterlogged=false]"));
    expect(solidAt("minecraft:iron_chain[axis=x,waterlogged=false]", 0.05, 0.5, 0.5)).toBe(true);
    expect(solidAt("minecraft:iron_chain[axis=x,waterlogged=false]", 0.5, 0.05, 0.5)).toBe(false);
    expect(solidAt("minecraft:iron_chain[axis=y,waterlogged=false]", 0.5, 0.05, 0.5)).toBe(true);
  });
});
