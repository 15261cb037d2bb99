// Issue 22: memory bounded while applying 10,000,000 blocks spread over a 4096 × 4096 area into a
// save (a layer at y 64 on every position where (x + z) mod 5 < 3: 10,066,330 blocks in 65,536
// chunks), in the engine's 4,096-write slices; decoded chunks stay in a bounded LRU, changed ones are
// saved every 256. Target: peak RSS ≤ 600 MB (printed by the runner for this suite's process).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AnvilWorld } from "@mcb/adapter-anvil";
import { blockEntityPredicate, createBlockRegistry } from "@mcb/blocks";

const RSS_TARGET_MB = 600;
const registry = createBlockRegistry().value;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "mcb-bench-anvil-rss-"));
  const world = await AnvilWorld.open({ dir: join(dir, "save"), flatGround: true, idleSaveMs: 0 });
  const t = Date.now();
  let n = 0,
    writes = [];
  try {
    // Chunk by chunk (as a tiled batch would send them), 16 × 16 columns each.
    for (let cz = 0; cz < 256; cz++)
      for (let cx = 0; cx < 256; cx++)
        for (let z = cz * 16; z < cz * 16 + 16; z++)
          for (let x = cx * 16; x < cx * 16 + 16; x++) {
            if ((x + z) % 5 >= 3) continue;
            writes.push({ x, y: 64, z, before: "minecraft:air", beforeDigest: null, after: "minecraft:oak_planks" });
            if (writes.length === 4096) {
              n += (await world.compareAndSet({ checks: [], writes })).written;
              writes = [];
            }
          }
    if (writes.length > 0) n += (await world.compareAndSet({ checks: [], writes })).written;
    await world.flush();
  } finally {
    await world.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const rss = process.resourceUsage().maxRSS / 1024;
  console.log(
    `applied ${n.toLocaleString("en")} blocks over 4096 × 4096 in ${((Date.now() - t) / 1000).toFixed(1)} s (${(n / ((Date.now() - t) / 1000) / 1000).toFixed(0)}k blocks/s); peak RSS ${rss.toFixed(0)} MB (target ≤ ${RSS_TARGET_MB} MB)`,
  );
  return rss <= RSS_TARGET_MB;
}
