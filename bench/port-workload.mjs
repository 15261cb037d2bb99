// One measurement of builds through the live world port in the tree given as argv[2] (this
// checkout or a baseline worktree, each with its own Minestom host jar), printed as JSON on stdout:
// two warm-up builds, `runs` builds of 100,000 blocks (a 100 × 10 × 100 box, stone and air in turn),
// then a build of 1,000,000 blocks as ten such layers (the way a large paste goes in tiles). Apply
// time only (each prepare excluded). The host's ticks: over each series of builds as a whole (stats
// reset before its first prepare, read after its last apply: max, p99 and mean of every tick), and
// the worst tick inside any apply.
import { join } from "node:path";

const tree = process.argv[2];
const runs = Number(process.argv[3] ?? 5);
const { LiveEngine, boxRecipe, startMinestomHost, unwrap } = await import(join(tree, "property-tests/dist/index.js"));
const host = await startMinestomHost({ budgetMs: 5, fullJit: true });
const live = await LiveEngine.open(host);
let key = 0;
const stats = (reset) => live.port.port.call("stats", reset ? { reset: true } : {}, !reset);

/** Builds one 100,000-block layer: the apply's milliseconds and its worst tick (from the host's figures since the prepare). */
async function layer(y, block) {
  const plan = unwrap(await live.engine.buildPrepare(live.agent, { recipe: boxRecipe({ x: -50, y, z: -50 }, { x: 49, y: y + 9, z: 49 }, block) }));
  const t = process.hrtime.bigint();
  const op = unwrap(await live.engine.buildApply(live.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: `k${key++}` }));
  await live.engine.settle();
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  const st = unwrap(await live.engine.operationStatus(live.agent, { operation_id: op.operation_id }));
  if (st.status !== "applied" || st.counters.written !== 100_000) throw new Error(`a bench build ended ${st.status} with ${st.counters.written} written`);
  return ms;
}

async function series(n, y, blocks) {
  await stats(true);
  const ms = [];
  for (let i = 0; i < n; i++) ms.push(await layer(y(i), blocks(i)));
  const s = await stats(false);
  return { ms, ticks: s.ticks, max: s.tick_ms_max, p99: s.tick_ms_p99, mean: s.tick_ms_mean };
}

try {
  const flip = (i) => (i % 2 === 0 ? "minecraft:stone" : "minecraft:air");
  await series(2, () => 70, flip); // warm-up: both sides' compilers
  const small = await series(runs, () => 70, flip);
  const big = await series(
    10,
    (i) => 90 + i * 10,
    () => "minecraft:bricks",
  );
  process.stdout.write(JSON.stringify({ small, big: { ...big, ms: big.ms.reduce((a, b) => a + b, 0) } }));
} finally {
  await live.close();
  await host.stop();
  host.dispose();
}
