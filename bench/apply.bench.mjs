// Issue 3 target: the engine is never the bottleneck of a 20-tick/s server: applying with the
// durable SQLite journal (WAL, synchronous FULL, one fsync'd commit per 512-block slice) sustains
// ≥ 200,000 blocks/s. Reported against the same apply with SQLite in memory (peer, same run),
// plus journal bytes per changed block. Issue 33 target: the shared PostgreSQL journal (a
// throwaway server on loopback, started here) applies at ≥ 0.5× the SQLite file's rate.
import { statSync } from "node:fs";
import { Harness, PostgresServer, TEST_POSTGRES_ENV, boxRecipe, unwrap } from "@mcb/property-tests";

const SIZE = { x: 99, y: 9, z: 99 }; // 100 × 10 × 100 = 100,000 blocks, one plan at the limit
const RUNS = 5;
const TARGET_BLOCKS_PER_S = 200_000;

async function once(journal) {
  const h = await Harness.create({ journal });
  const recipe = boxRecipe({ x: 0, y: 0, z: 0 }, SIZE, "minecraft:stone");
  const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe }));
  const t = process.hrtime.bigint();
  const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "bench" }));
  await h.engine.settle();
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  const st = unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id }));
  if (st.status !== "applied" || st.counters.written !== plan.changed_blocks) throw new Error(`bench apply ended ${st.status}`);
  let bytes = h.journal.sizeBytes();
  if (journal === "sqlite") {
    const file = h.journal.where;
    h.journal.close(); // the last connection checkpoints and removes the WAL
    bytes = statSync(file).size;
  }
  h.close();
  return { ms, written: st.counters.written, bytes };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run() {
  const server = process.env[TEST_POSTGRES_ENV] === undefined ? await PostgresServer.start() : null;
  if (server !== null) process.env[TEST_POSTGRES_ENV] = server.url;
  try {
    return await measure();
  } finally {
    await server?.stop();
  }
}

async function measure() {
  const kinds = ["memory", "sqlite", "postgres"];
  for (const k of kinds) await once(k);
  const runs = { memory: [], sqlite: [], postgres: [] };
  for (let i = 0; i < RUNS; i++) for (const k of kinds) runs[k].push(await once(k));
  const m = median(runs.memory.map((r) => r.ms));
  const s = median(runs.sqlite.map((r) => r.ms));
  const p = median(runs.postgres.map((r) => r.ms));
  const n = runs.memory[0].written;
  const rate = (ms) => Math.round(n / (ms / 1000));
  const fmt = (ms) => `${ms.toFixed(1).padStart(8)} ms  ${rate(ms).toLocaleString("en-US").padStart(10)} blocks/s`;
  console.log(`apply 100,000 blocks (512-block slices, memory world), median of ${RUNS}`);
  console.log(`  SQLite in memory ${fmt(m)}`);
  console.log(`  SQLite file      ${fmt(s)}  ratio ${(s / m).toFixed(2)}× the time in memory`);
  console.log(`  PostgreSQL       ${fmt(p)}  throughput ${(s / p).toFixed(2)}× the SQLite file's`);
  const perBlock = (r) => (r.bytes / r.written).toFixed(1);
  console.log(`  journal bytes per changed block: SQLite file ${perBlock(runs.sqlite[0])} B, PostgreSQL ${perBlock(runs.postgres[0])} B (tables and indexes)`);
  const durable = rate(s) >= TARGET_BLOCKS_PER_S;
  const shared = s / p >= 0.5;
  console.log(`  durable target ≥ ${TARGET_BLOCKS_PER_S.toLocaleString("en-US")} blocks/s ${durable ? "met" : "MISSED"}`);
  console.log(`  PostgreSQL target ≥ 0.5× the SQLite file's throughput ${shared ? "met" : "MISSED"}`);
  return durable && shared;
}
