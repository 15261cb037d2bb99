// Issue 19 target: the three-way merge at preparation keeps preparing a 100,000-block rebuild within
// 1.3× of a plain prepare. Rebuild: a 100k redesign over an existing 100k-block part of ours with
// 1,000 blocks a person changed by hand (observed edits), on_manual_edit "keep" (99,000 writes,
// 1,000 kept). Plain: the same redesign where nothing was ever built (100,000 writes, no G0). Both
// on the durable SQLite journal, interleaved, medians. Also reported: the first prepare after the
// part was applied, which folds its 100,000 writes into the standing-write index once.
import { Harness, unwrap } from "@mcb/property-tests";

const RUNS = 9;
const TARGET = 1.3;
const v = (x, y, z) => ({ x, y, z });
const box = (x0, block) => ({ version: 1, operations: [{ type: "box", min: v(x0, 0, 0), max: v(x0 + 99, 9, 99), block }] });

async function prepare(h, recipe, extra = {}) {
  const t = process.hrtime.bigint();
  const p = unwrap(await h.engine.buildPrepare(h.agent, { recipe, ...extra }));
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, p };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run() {
  const h = await Harness.create({ journal: "sqlite", area: { minX: -1000, minY: -64, minZ: -1000, maxX: 1000, maxY: 319, maxZ: 1000 } });
  try {
    // The existing part: 100,000 blocks of ours.
    const built = await h.build(box(0, "minecraft:stone"));
    if (built.status !== "applied" || built.counters.written !== 100_000) throw new Error(`setup build ${built.status}`);
    unwrap(await h.engine.partDefine(h.agent, { name: "block", operation_id: built.operation_id }));
    // 1,000 hand edits spread through it (observed: a player's, as events).
    const edits = Array.from({ length: 1000 }, (_, i) => v(i % 100, i % 10, 10 * Math.floor(i / 100) + (i % 7)));
    for (const e of edits) h.world.externalEdit(e.x, e.y, e.z, "minecraft:glass");
    const edited = new Set(edits.map((e) => `${e.x},${e.y},${e.z}`));

    const redesign = box(0, "minecraft:bricks");
    const plainRecipe = box(300, "minecraft:bricks");
    // Warm-up on plain prepares (JIT), then the first merge, which folds the part's writes.
    for (let i = 0; i < 3; i++) if ((await prepare(h, plainRecipe)).p.changed_blocks !== 100_000) throw new Error("plain prepare");
    const first = await prepare(h, redesign, { on_manual_edit: "keep" });
    if (first.p.manual_edits.kept !== edited.size || first.p.changed_blocks !== 100_000 - edited.size)
      throw new Error(`merge kept ${first.p.manual_edits.kept}, wrote ${first.p.changed_blocks}`);

    const rebuild = [];
    const plain = [];
    for (let i = 0; i < RUNS; i++) {
      plain.push((await prepare(h, plainRecipe)).ms);
      rebuild.push((await prepare(h, redesign, { on_manual_edit: "keep" })).ms);
    }
    const p = median(plain),
      r = median(rebuild);
    console.log(`prepare a 100,000-block redesign, SQLite journal, median of ${RUNS} interleaved`);
    console.log(`  plain (nothing built there)                                  ${p.toFixed(1).padStart(7)} ms`);
    console.log(
      `  over a 100k part of ours with ${edited.size} hand edits (keep)        ${r.toFixed(1).padStart(7)} ms  ratio ${(r / p).toFixed(2)}×  target ≤${TARGET}× ${r / p <= TARGET ? "met" : "MISSED"}`,
    );
    console.log(
      `  first prepare after the part's apply (folds 100,000 writes)  ${first.ms.toFixed(1).padStart(7)} ms  ratio ${(first.ms / p).toFixed(2)}×  (reported)`,
    );
    return r / p <= TARGET;
  } finally {
    h.close();
  }
}
