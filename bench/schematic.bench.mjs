// Issue 4 target: decoding and encoding a ≥1M-block Sponge v2 schematic is at least 2× faster
// than prismarine-schematic (the peer, measured in the same run on the same file): ratio ≤ 0.5.
import { createRequire } from "node:module";
import { createBlockRegistry } from "@mcb/blocks";
import { readSchematic, writeSchematic } from "@mcb/schematic";
import { compareAsync, row } from "./timing.mjs";

const require = createRequire(import.meta.url);
const { Schematic: Peer } = require("prismarine-schematic");

const W = 128, H = 64, L = 128; // 1,048,576 positions
const PALETTE = [
  "minecraft:air", "minecraft:stone", "minecraft:deepslate[axis=y]", "minecraft:dirt", "minecraft:grass_block[snowy=false]",
  "minecraft:coal_ore", "minecraft:iron_ore", "minecraft:gravel", "minecraft:water[level=0]", "minecraft:oak_log[axis=y]",
  "minecraft:oak_leaves[distance=1,persistent=false,waterlogged=false]", "minecraft:short_grass", "minecraft:andesite", "minecraft:granite",
];

/** A deterministic landscape: strata, ore specks, a lake and a few trees (not a uniform block). */
function landscape() {
  const blocks = new Uint32Array(W * H * L);
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  for (let z = 0; z < L; z++) {
    for (let x = 0; x < W; x++) {
      const top = 40 + Math.round(6 * Math.sin(x / 11) + 5 * Math.cos(z / 7));
      for (let y = 0; y < H; y++) {
        let b = 0;
        if (y < 16) b = 2;
        else if (y < top - 4) b = rnd() < 0.02 ? 5 : rnd() < 0.01 ? 6 : rnd() < 0.05 ? 12 : rnd() < 0.03 ? 13 : 1;
        else if (y < top) b = 3;
        else if (y === top) b = top < 36 ? 7 : 4;
        else if (y <= 36 && top < 36) b = 8;
        else if (y === top + 1 && rnd() < 0.2) b = 11;
        blocks[x + z * W + y * W * L] = b;
      }
      if (top >= 38 && rnd() < 0.01) for (let y = top + 1; y < Math.min(H, top + 6); y++) blocks[x + z * W + y * W * L] = 9;
    }
  }
  return blocks;
}

export async function run() {
  const registry = createBlockRegistry();
  if (!registry.ok) throw new Error(registry.error.message);
  const reg = registry.value;
  const palette = PALETTE.map((s) => {
    const r = reg.resolveState(s);
    if (!r.ok) throw new Error(r.error.message);
    return r.value.canonical;
  });
  const value = { width: W, height: H, length: L, offset: { x: 0, y: 0, z: 0 }, dataVersion: 3953, palette, blocks: landscape() };
  const file = writeSchematic(value);
  const limits = { maxPositions: W * H * L, maxCompressedBytes: 64 << 20, maxNbtBytes: 64 << 20, maxPaletteEntries: 4096 };
  const peer = await Peer.read(file, "1.21.1");
  // Both sides must see the same content before timing means anything.
  const ours = readSchematic(reg, file, limits);
  if (!ours.ok) throw new Error(ours.error.message);
  const peerBack = readSchematic(reg, await peer.write(), limits);
  const same = peerBack.ok && JSON.stringify(peerBack.value.palette) === JSON.stringify(ours.value.palette) && Buffer.from(peerBack.value.blocks.buffer).equals(Buffer.from(ours.value.blocks.buffer));
  if (!same) throw new Error("prismarine-schematic and mcb disagree on the content");
  console.log(`schematic ${W}×${H}×${L} = ${(W * H * L).toLocaleString("en-US")} positions, ${palette.length} states, ${file.length.toLocaleString("en-US")} bytes gzip`);

  const dec = await compareAsync(() => Peer.read(file, "1.21.1"), async () => {
    const r = readSchematic(reg, file, limits);
    if (!r.ok) throw new Error(r.error.message);
  });
  const enc = await compareAsync(() => peer.write(), async () => writeSchematic(ours.value));
  const a = row("decode .schem (ours vs prismarine-schematic; target ≥2× faster)", dec.candidateMs, dec.baselineMs, 0.5);
  const b = row("encode .schem (ours vs prismarine-schematic; target ≥2× faster)", enc.candidateMs, enc.baselineMs, 0.5);
  console.log(`speed-up: decode ${(dec.baselineMs / dec.candidateMs).toFixed(2)}×, encode ${(enc.baselineMs / enc.candidateMs).toFixed(2)}×`);
  return a && b;
}
