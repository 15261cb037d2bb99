// Schematic decoding against two independent readers in the same run: prismarine-schematic (JS)
// and nucleation (Rust compiled to wasm), plus peak memory of each in its own process.
// Targets (issue 11): on a ≥10M-position file, ≥10× prismarine-schematic's speed (ratio ≤ 0.1)
// and not slower than nucleation (ratio ≤ 1). Issue 4's targets stay: a 1M-block landscape
// decoded and encoded ≥2× faster than prismarine-schematic.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createBlockRegistry } from "@mcb/blocks";
import { readSchematic, writeSchematic } from "@mcb/schematic";
import { Schematic as Nucleation } from "nucleation";
import { largeEquivalent, synthetic10M } from "../corpus/schematics/large.mjs";
import { compareAsync, row } from "./timing.mjs";

const require = createRequire(import.meta.url);
const { Schematic: Prismarine } = require("prismarine-schematic");
const here = fileURLToPath(new URL(".", import.meta.url));
const quiet = async (f) => {
  const log = console.log;
  console.log = () => undefined;
  try {
    return await f();
  } finally {
    console.log = log;
  }
};

/** A deterministic 128 × 64 × 128 landscape: strata, ore specks, a lake, a few trees. */
function landscape(reg) {
  const W = 128,
    H = 64,
    L = 128;
  const states = [
    "minecraft:air",
    "minecraft:stone",
    "minecraft:deepslate[axis=y]",
    "minecraft:dirt",
    "minecraft:grass_block[snowy=false]",
    "minecraft:coal_ore",
    "minecraft:iron_ore",
    "minecraft:gravel",
    "minecraft:water[level=0]",
    "minecraft:oak_log[axis=y]",
    "minecraft:oak_leaves[distance=1,persistent=false,waterlogged=false]",
    "minecraft:short_grass",
    "minecraft:andesite",
    "minecraft:granite",
  ];
  const palette = states.map((s) => reg.resolveState(s).value.canonical);
  const blocks = new Uint32Array(W * H * L);
  let seed = 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let z = 0; z < L; z++)
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
    }
  return { width: W, height: H, length: L, offset: { x: 0, y: 0, z: 0 }, dataVersion: 4786, palette, blocks, blockEntities: [] };
}

function peak(reader, file) {
  const out = execFileSync(process.execPath, [join(here, "schematic-peak.mjs"), reader, file], { encoding: "utf8", maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split("\n").pop());
}

export async function run() {
  const registry = createBlockRegistry();
  if (!registry.ok) throw new Error(registry.error.message);
  const reg = registry.value;
  const mcb = (bytes) => async () => {
    const r = readSchematic(reg, bytes, { drop: ["entities", "biomes"] });
    if (!r.ok) throw new Error(r.error.message);
  };
  const nucleation = (bytes) => async () => void Nucleation.fromData(Array.from(bytes));
  const prismarine = (bytes) => () => quiet(() => Prismarine.read(bytes));
  let met = true;

  // Issue 4: a 1M-block landscape, decode and encode vs prismarine-schematic.
  const land = landscape(reg);
  const landFile = writeSchematic(land, { version: 2 });
  const peer = await quiet(() => Prismarine.read(landFile));
  const back = readSchematic(reg, await peer.write());
  if (!back.ok || !Buffer.from(back.value.schematic.blocks.buffer).equals(Buffer.from(readSchematic(reg, landFile).value.schematic.blocks.buffer)))
    throw new Error("prismarine-schematic and mcb disagree on the landscape");
  const dec = await compareAsync(prismarine(landFile), mcb(landFile));
  const enc = await compareAsync(
    () => peer.write(),
    async () => writeSchematic(land, { version: 2 }),
  );
  met = row("1M landscape decode, ours vs prismarine-schematic (target ≥2×)", dec.candidateMs, dec.baselineMs, 0.5) && met;
  met = row("1M landscape encode, ours vs prismarine-schematic (target ≥2×)", enc.candidateMs, enc.baselineMs, 0.5) && met;

  const dir = mkdtempSync(join(tmpdir(), "mcb-bench-schem-"));
  try {
    const files = [
      {
        name: "real smallhouse1.schem (largest real file kept: 21×28×20, 72 block entities)",
        bytes: readFileSync(join(here, "../corpus/schematics/real/smallhouse1.schem")),
        runs: 41,
        prismarine: true,
        target: false,
      },
      { name: "synthetic 256×160×256 = 10.5M positions, 1,000 chests", bytes: synthetic10M(), runs: 7, prismarine: true, target: true },
      {
        name: "large-equivalent 256³ = 16.8M positions, 617 states, 42,010 block entities",
        bytes: largeEquivalent(),
        runs: 5,
        prismarine: false,
        target: false,
      },
    ];
    for (const f of files) {
      const path = join(dir, "f.schem");
      writeFileSync(path, f.bytes);
      console.log(`\n${f.name}: ${f.bytes.length.toLocaleString("en-US")} bytes gzip`);
      const opts = { runs: f.runs, warmup: f.runs > 10 ? 5 : 1 };
      const vsN = await compareAsync(nucleation(f.bytes), mcb(f.bytes), opts);
      met = row("  decode, ours vs nucleation (target ≤1×)", vsN.candidateMs, vsN.baselineMs, f.target ? 1 : undefined) && met;
      if (f.prismarine) {
        const vsP = await compareAsync(prismarine(f.bytes), mcb(f.bytes), opts);
        met = row("  decode, ours vs prismarine-schematic (target ≥10×)", vsP.candidateMs, vsP.baselineMs, f.target ? 0.1 : undefined) && met;
        console.log(
          `  speed-up: ${(vsP.baselineMs / vsP.candidateMs).toFixed(1)}× prismarine-schematic, ${(vsN.baselineMs / vsN.candidateMs).toFixed(2)}× nucleation`,
        );
      } else {
        console.log(
          `  prismarine-schematic: cannot read it (its NBT reader refuses byte arrays over 16 M entries); speed-up ${(vsN.baselineMs / vsN.candidateMs).toFixed(2)}× nucleation`,
        );
      }
      const base = peak("none", path).peakMiB;
      const mem = ["mcb", "nucleation", ...(f.prismarine ? ["prismarine"] : [])].map(
        (r) => `${r} +${Math.max(0, peak(r, path).peakMiB - base).toFixed(0)} MiB`,
      );
      console.log(`  peak memory over a process that only loads the readers and the file (${base.toFixed(0)} MiB): ${mem.join(", ")}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return met;
}
