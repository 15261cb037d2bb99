// One measurement of save throughput in the tree given as argv[2] (this checkout or a baseline
// worktree), printed as JSON on stdout; run in its own process so each tree loads its own code.
//   apply: 1,000,000 blocks (a 100³ cube of stone bricks) into a new flat save in slices of 4,096,
//          flushed to disk (every chunk encoded, compressed and written crash-safely);
//   read:  the cube read back from a reopened save (cold chunks), 31 boxes of 32,768 positions;
//   real:  every full chunk of a real 1.21.1 region (prismarine-provider-anvil's fixture) read
//          through the save, section by section, a save the game wrote (blocks upgraded on read).
// The options carry both trees' forms (the baseline takes the registry's version and a block-entity
// predicate; this tree takes the registry): each reads what it knows.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";

const tree = process.argv[2];
const { AnvilWorld } = await import(join(tree, "packages/adapter-anvil/dist/index.js"));
const blocks = await import(join(tree, "packages/blocks/dist/index.js"));
// NBT moved from @mcb/schematic into @mcb/nbt (issue 33); the baseline tree has it in the former.
const nbtPackage = existsSync(join(tree, "packages/nbt/dist/index.js")) ? "packages/nbt/dist/index.js" : "packages/schematic/dist/index.js";
const { encodeNbt, nbt } = await import(join(tree, nbtPackage));
const registry = blocks.createBlockRegistry().value;
const ms = (t) => Number(process.hrtime.bigint() - t) / 1e6;
const options = (dir, flatGround) => ({
  dir,
  flatGround,
  idleSaveMs: 0,
  registry,
  minecraftVersion: registry.minecraftVersion,
  dataVersion: registry.dataVersion,
  hasBlockEntity: blocks.blockEntityPredicate(registry),
});

const work = [];
let writes = [];
for (let y = 64; y < 164; y++)
  for (let z = 0; z < 100; z++)
    for (let x = 0; x < 100; x++) {
      writes.push({ x, y, z, before: "minecraft:air", beforeDigest: null, after: "minecraft:stone_bricks" });
      if (writes.length === 4096) (work.push(writes), (writes = []));
    }
if (writes.length > 0) work.push(writes);

const root = mkdtempSync(join(tmpdir(), "mcb-saves-bench-"));
try {
  const dir = join(root, "save");
  let world = await AnvilWorld.open(options(dir, true));
  let t = process.hrtime.bigint();
  for (const w of work) {
    const r = await world.compareAndSet({ checks: [], writes: w });
    if (r.written !== w.length) throw new Error(`wrote ${r.written} of ${w.length}`);
  }
  await world.flush();
  const apply = ms(t);
  await world.close();

  world = await AnvilWorld.open(options(dir, true));
  t = process.hrtime.bigint();
  let n = 0;
  for (let y = 64; y < 164; y += 32)
    for (let z = 0; z < 100; z += 32)
      for (let x = 0; x < 100; x += 32) {
        const r = await world.read({ minX: x, minY: y, minZ: z, maxX: x + 31, maxY: y + 31, maxZ: z + 31 });
        n += r.states.length;
      }
  const read = ms(t);
  await world.close();

  const real = join(root, "real");
  mkdirSync(join(real, "region"), { recursive: true });
  const fixtures = join(dirname(createRequire(import.meta.url).resolve("prismarine-provider-anvil/package.json")), "test", "fixtures");
  copyFileSync(join(fixtures, "1.21.1", "r.0.0.mca"), join(real, "region", "r.0.0.mca"));
  writeFileSync(join(real, "level.dat"), gzipSync(encodeNbt("", nbt.compound([["Data", nbt.compound([["DataVersion", nbt.int(3955)]])]]))));
  world = await AnvilWorld.open(options(real, false));
  t = process.hrtime.bigint();
  let sections = 0;
  for (let cx = 0; cx < 32; cx++)
    for (let cz = 0; cz < 32; cz++)
      for (let y = -64; y < 320; y += 16) {
        try {
          await world.read({ minX: cx * 16, minY: y, minZ: cz * 16, maxX: cx * 16 + 15, maxY: y + 15, maxZ: cz * 16 + 15 });
          sections++;
        } catch (e) {
          if (e?.chunkNotLoaded !== true) throw e;
          break; // not a full chunk: the game had not finished it
        }
      }
  const realMs = ms(t);
  await world.close();
  process.stdout.write(JSON.stringify({ apply, read, read_positions: n, real: realMs, real_sections: sections, version: registry.minecraftVersion }));
} finally {
  rmSync(root, { recursive: true, force: true });
}
