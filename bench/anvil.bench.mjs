// Issue 22: a Minecraft save as the world (adapter-anvil), against the memory world in the same run.
// 1. Apply 1,000,000 blocks (a 100³ cube, compare-and-set slices of 4,096 as the engine sends them)
//    into a save, flushed to disk (every chunk encoded, compressed and written crash-safely), against
//    the same slices into the memory world. Target: at least 300,000 blocks/s including the flush.
// 2. Read 32,768 positions (a 32³ box) from cold chunks (a save just opened), against the memory world.
// 3. Decode every chunk of a real 1.21.1 region file (225 chunks, a prismarine-provider-anvil fixture)
//    against prismarine-provider-anvil loading the same chunks, same run (peer comparison).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { AnvilWorld, RegionFile, decodeChunk } from "@mcb/adapter-anvil";
import { Anvil as prismarineAnvil } from "prismarine-provider-anvil";
import { MemoryWorld } from "@mcb/adapter-memory";
import { blockEntityPredicate, createBlockRegistry } from "@mcb/blocks";

const RUNS = 3;
const APPLY_TARGET = 300_000; // blocks per second, flush included
const registry = createBlockRegistry().value;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (t) => Number(process.hrtime.bigint() - t) / 1e6;

function slices(block, before) {
  const out = [];
  let writes = [];
  for (let y = 64; y < 164; y++)
    for (let z = 0; z < 100; z++)
      for (let x = 0; x < 100; x++) {
        writes.push({ x, y, z, before, beforeDigest: null, after: block });
        if (writes.length === 4096) (out.push(writes), (writes = []));
      }
  if (writes.length > 0) out.push(writes);
  return out;
}

const options = (dir) => ({ dir, flatGround: true, idleSaveMs: 0 });

async function applyAll(world, work) {
  const t = process.hrtime.bigint();
  for (const writes of work) {
    const r = await world.compareAndSet({ checks: [], writes });
    if (r.written !== writes.length) throw new Error(`wrote ${r.written} of ${writes.length}`);
  }
  if (world.flush !== undefined) await world.flush();
  return ms(t);
}

/** A 1.21.1 region the game saved (prismarine-provider-anvil's MIT test fixture, a devDependency). */
const REAL = join(dirname(createRequire(import.meta.url).resolve("prismarine-provider-anvil/package.json")), "test", "fixtures", "1.21.1", "r.0.0.mca");

async function realRegion(root) {
  const dir = join(root, "real");
  mkdirSync(dir, { recursive: true });
  copyFileSync(REAL, join(dir, "r.0.0.mca"));
  const Peer = prismarineAnvil("1.21.1");
  const ours = [],
    theirs = [];
  for (let i = 0; i < RUNS + 1; i++) {
    let t = process.hrtime.bigint();
    const r = RegionFile.open(join(dir, "r.0.0.mca"), 0, 0, false);
    let n = 0;
    for (const c of r.chunks()) {
      const s = r.read(c.x, c.z);
      decodeChunk(s.nbt, c.x, c.z, s.compression, { dataVersion: registry.dataVersion, maxDataVersion: 4790 }, "r.0.0.mca");
      n++;
    }
    r.close();
    const a = ms(t);
    t = process.hrtime.bigint();
    const peer = new Peer(dir);
    let m = 0;
    for (let cx = 0; cx < 32; cx++) for (let cz = 0; cz < 32; cz++) if ((await peer.load(cx, cz)) !== null) m++;
    await peer.close?.();
    const b = ms(t);
    if (n !== 225 || m !== 225) throw new Error(`decoded ${n} and ${m} chunks, expected 225`);
    if (i === 0) continue;
    (ours.push(a), theirs.push(b));
  }
  return { ours: median(ours), theirs: median(theirs) };
}

export async function run() {
  const root = mkdtempSync(join(tmpdir(), "mcb-bench-anvil-"));
  const work = slices("minecraft:stone_bricks", "minecraft:air");
  const saveMs = [],
    memMs = [],
    coldMs = [],
    memReadMs = [];
  let ok = true;
  try {
    for (let i = 0; i < RUNS + 1; i++) {
      const dir = join(root, `save-${i}`);
      const save = await AnvilWorld.open(options(dir));
      const a = await applyAll(save, work);
      await save.close();
      const mem = new MemoryWorld({ hasBlockEntity: blockEntityPredicate(registry) });
      const b = await applyAll(mem, work);
      // Cold read: the save opened again, nothing decoded yet.
      const cold = await AnvilWorld.open(options(dir));
      const box = { minX: 30, minY: 90, minZ: 30, maxX: 61, maxY: 121, maxZ: 61 };
      let t = process.hrtime.bigint();
      const r1 = await cold.read(box);
      const c = ms(t);
      t = process.hrtime.bigint();
      const r2 = await mem.read(box);
      const m = ms(t);
      if (r1.palette[r1.states[0]] !== "minecraft:stone_bricks" || r2.palette[r2.states[0]] !== "minecraft:stone_bricks")
        throw new Error("read the wrong blocks");
      await cold.close();
      rmSync(dir, { recursive: true, force: true });
      if (i === 0) continue; // warm-up
      (saveMs.push(a), memMs.push(b), coldMs.push(c), memReadMs.push(m));
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const realDir = mkdtempSync(join(tmpdir(), "mcb-bench-real-"));
  const real = await realRegion(realDir).finally(() => rmSync(realDir, { recursive: true, force: true }));
  const save = median(saveMs),
    mem = median(memMs);
  const rate = 1_000_000 / (save / 1000);
  console.log(
    `apply 1,000,000 blocks into a save, flushed: ${save.toFixed(0)} ms (${(rate / 1000).toFixed(0)}k blocks/s; target ≥ ${APPLY_TARGET / 1000}k) — memory world ${mem.toFixed(0)} ms, ratio ${(save / mem).toFixed(2)}×`,
  );
  console.log(
    `read 32,768 positions from cold chunks: ${median(coldMs).toFixed(1)} ms — memory world ${median(memReadMs).toFixed(1)} ms, ratio ${(median(coldMs) / median(memReadMs)).toFixed(2)}×`,
  );
  console.log(
    `decode a real 1.21.1 region (225 chunks): ${real.ours.toFixed(0)} ms — prismarine-provider-anvil ${real.theirs.toFixed(0)} ms, ratio ${(real.theirs / real.ours).toFixed(2)}× in our favour`,
  );
  if (rate < APPLY_TARGET) ok = false;
  return ok;
}
