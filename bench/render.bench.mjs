// Camera capture cost (reported, no target): a 1280×720 capture of a small built scene on the
// memory world, against a baseline that only fills and PNG-encodes the same pixels (same run).
import { PNG } from "pngjs";
import { MemoryWorld } from "@mcb/adapter-memory";
import { captureCamera } from "@mcb/render";

const BOUNDS = { minX: -4096, minY: -64, minZ: -4096, maxX: 4095, maxY: 319, maxZ: 4095 };

function scene() {
  const w = new MemoryWorld({});
  for (let x = -60; x <= 60; x++) for (let z = -60; z <= 60; z++) {
    const h = 62 + Math.round(3 * Math.sin(x / 9) + 2 * Math.cos(z / 7));
    for (let y = h - 2; y <= h; y++) w.externalEdit(x, y, z, y === h ? "minecraft:grass_block[snowy=false]" : "minecraft:dirt", { emitEvent: false });
  }
  for (let y = 64; y <= 80; y++) for (let x = 0; x <= 8; x++) for (let z = 0; z <= 8; z++)
    if (x === 0 || x === 8 || z === 0 || z === 8) w.externalEdit(x, y, z, "minecraft:stone_bricks", { emitEvent: false });
  return w;
}

function baseline(width, height) {
  const png = new PNG({ width, height, colorType: 2, inputColorType: 2, inputHasAlpha: false });
  png.data = Buffer.alloc(width * height * 3, 128);
  return PNG.sync.write(png, { colorType: 2, inputColorType: 2, inputHasAlpha: false });
}

export async function run() {
  const world = scene();
  const pose = { x: 4.5, y: 72, z: -30, yaw: 8, pitch: 12 };
  const times = [];
  let last;
  for (let i = 0; i < 5; i++) {
    const t = process.hrtime.bigint();
    last = await captureCamera(world, pose, { bounds: BOUNDS });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (!last.ok) throw new Error(last.error.message);
  }
  const base = [];
  for (let i = 0; i < 5; i++) {
    const t = process.hrtime.bigint();
    baseline(1280, 720);
    base.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const mid = (xs) => xs.sort((a, b) => a - b)[2];
  const c = last.value;
  console.log(`capture 1280×720, view distance 128: ${mid(times).toFixed(0)} ms (median of 5), ${c.sectionsRead} sections read, ${c.sectionsWithBlocks} with blocks, ${(c.hitFraction * 100).toFixed(1)}% pixels on blocks`);
  console.log(`baseline (fill + PNG encode only): ${mid(base).toFixed(0)} ms → ratio ${(mid(times) / mid(base)).toFixed(1)}× (reported)`);
  return true;
}
