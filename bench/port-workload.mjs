// One measurement of builds through the live world port in the tree given as argv[2] (this
// checkout or a baseline worktree, each with its own Minestom host jar), printed as JSON on stdout:
// `runs` builds of 100,000 blocks (a 100 × 10 × 100 box, stone and air in turn) after one warm-up,
// then a build of 1,000,000 blocks as ten such layers (the way a large paste goes in tiles). Apply
// time only (prepare excluded); the host's tick figures over each apply (stats reset before it).
import { join } from "node:path";

const tree = process.argv[2];
const runs = Number(process.argv[3] ?? 3);
const { LiveEngine, boxRecipe, startMinestomHost, unwrap } = await import(join(tree, "property-tests/dist/index.js"));
const host = await startMinestomHost({ budgetMs: 5 });
const live = await LiveEngine.open(host);
let key = 0;

/** Builds one 100,000-block layer; the apply's milliseconds and the ticks it took. */
async function layer(y, block) {
  const plan = unwrap(await live.engine.buildPrepare(live.agent, { recipe: boxRecipe({ x: -50, y, z: -50 }, { x: 49, y: y + 9, z: 49 }, block) }));
  await live.port.port.call("stats", { reset: true }, false);
  const t = process.hrtime.bigint();
  const op = unwrap(await live.engine.buildApply(live.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: `k${key++}` }));
  await live.engine.settle();
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  const s = await live.port.port.call("stats", {}, true);
  const st = unwrap(await live.engine.operationStatus(live.agent, { operation_id: op.operation_id }));
  if (st.status !== "applied" || st.counters.written !== 100_000) throw new Error(`a bench build ended ${st.status} with ${st.counters.written} written`);
  return { ms, ticks: s.ticks, max: s.tick_ms_max, p99: s.tick_ms_p99, mean: s.tick_ms_mean };
}

try {
  const small = [];
  for (let i = 0; i <= runs; i++) {
    const r = await layer(70, i % 2 === 0 ? "minecraft:stone" : "minecraft:air");
    if (i > 0) small.push(r);
  }
  const big = [];
  for (let i = 0; i < 10; i++) big.push(await layer(90 + i * 10, "minecraft:bricks"));
  const ticks = big.reduce((n, r) => n + r.ticks, 0);
  process.stdout.write(JSON.stringify({
    small,
    big: { ms: big.reduce((t, r) => t + r.ms, 0), ticks, max: Math.max(...big.map((r) => r.max)), p99: Math.max(...big.map((r) => r.p99)), mean: big.reduce((t, r) => t + r.mean * r.ticks, 0) / ticks },
  }));
} finally {
  await live.close();
  await host.stop();
  host.dispose();
}
