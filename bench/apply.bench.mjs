// Issue 3 target: the engine is never the bottleneck of a 20-tick/s server: applying with the
// durable SQLite journal (WAL, synchronous FULL, one fsync'd commit per 512-block slice) sustains
// ≥ 200,000 blocks/s. Reported against the same apply with SQLite in memory (peer, same run),
// plus journal bytes per changed block. Issue 33 target: the shared PostgreSQL journal (a
// throwaway server on loopback, started here), shared as `mcb --journal postgres://` shares it
// (claims, region leases, fencing), applies at ≥ 0.5× the SQLite file's rate.
import { statSync } from "node:fs";
import { Harness, PostgresServer, TEST_POSTGRES_ENV, boxRecipe, unwrap } from "@mcb/property-tests";

const SIZE = { x: 99, y: 9, z: 99 }; // 100 × 10 × 100 = 100,000 blocks, one plan at the limit
const RUNS = 5;
const TARGET_BLOCKS_PER_S = 200_000;

async function once(journal, batches = false) {
  // PostgreSQL as mcb runs it: shared with other bridges (claims, region leases, fencing before each write).
  const h = await Harness.create({ journal, batches, ...(journal === "postgres" ? { shared: { holder: "bench" } } : {}) });
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
  // One slice per world call (the memory twin, a save): one journal commit per slice. In batches
  // (the world port's shape, the only world a PostgreSQL journal serves): a window of slices per
  // call, their intents and results in one commit each (group commit).
  const cases = [
    ["memory", false],
    ["sqlite", false],
    ["postgres", false],
    ["sqlite", true],
    ["postgres", true],
  ];
  const runs = cases.map(() => []);
  for (const [k, b] of cases) await once(k, b);
  for (let i = 0; i < RUNS; i++) for (const [c, [k, b]] of cases.entries()) runs[c].push(await once(k, b));
  const [m, s, p, sb, pb] = runs.map((r) => median(r.map((x) => x.ms)));
  const n = runs[0][0].written;
  const rate = (ms) => Math.round(n / (ms / 1000));
  const fmt = (ms) => `${ms.toFixed(1).padStart(8)} ms  ${rate(ms).toLocaleString("en-US").padStart(10)} blocks/s`;
  console.log(`apply 100,000 blocks (512-block slices, memory world), median of ${RUNS}`);
  console.log("  one slice per world call:");
  console.log(`    SQLite in memory ${fmt(m)}`);
  console.log(`    SQLite file      ${fmt(s)}  ratio ${(s / m).toFixed(2)}× the time in memory`);
  console.log(`    PostgreSQL       ${fmt(p)}  throughput ${(s / p).toFixed(2)}× the SQLite file's (a commit per slice: round trips bound it)`);
  console.log("  in batches, as the world port takes them (windows of 32 slices, one commit per window):");
  console.log(`    SQLite file      ${fmt(sb)}`);
  console.log(`    PostgreSQL       ${fmt(pb)}  throughput ${(sb / pb).toFixed(2)}× the SQLite file's`);
  const perBlock = (r) => (r.bytes / r.written).toFixed(1);
  console.log(`  journal bytes per changed block: SQLite file ${perBlock(runs[1][0])} B, PostgreSQL ${perBlock(runs[2][0])} B (tables and indexes)`);
  const durable = rate(s) >= TARGET_BLOCKS_PER_S;
  const shared = sb / pb >= 0.5;
  console.log(`  durable target ≥ ${TARGET_BLOCKS_PER_S.toLocaleString("en-US")} blocks/s ${durable ? "met" : "MISSED"}`);
  console.log(`  PostgreSQL target ≥ 0.5× the SQLite file's throughput, with group commit (in batches) ${shared ? "met" : "MISSED"}`);
  return durable && shared;
}
