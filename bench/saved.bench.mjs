// Issue 21: what "lose nothing" costs (docs/DESIGN.md "Saved writes").
// 1. Applying 100,000 blocks through the live world port (a real Minestom 26.1.2 server), with and
//    without waiting until the server saved them (flush), interleaved in one run: the ratio is the
//    price of wait-for-saved.
// 2. The restart check over 1,000,000 blocks of recent operations (ten 100,000-block operations the
//    engine never saw saved, on a host that restarted): against a plain read of the same positions.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { Harness, LiveEngine, MINESTOM_JAR, boxRecipe, startMinestomHost, unwrap } from "@mcb/property-tests";

const RUNS = 3;
const WAIT_SAVED_TARGET = 1.5; // wait-for-saved costs at most half again the apply
const CHECK_TARGET = 3; // the restart check costs at most three plain reads of the same blocks

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (t) => Number(process.hrtime.bigint() - t) / 1e6;

async function applyPort(live, block, key, waitSaved) {
  const plan = unwrap(await live.engine.buildPrepare(live.agent, { recipe: boxRecipe({ x: -50, y: 84, z: -50 }, { x: 49, y: 93, z: 49 }, block) }));
  const t = process.hrtime.bigint();
  const op = unwrap(await live.engine.buildApply(live.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: key }));
  await live.engine.settle();
  if (waitSaved) unwrap(await live.engine.flush(live.agent));
  const took = ms(t);
  const st = unwrap(await live.engine.operationStatus(live.agent, { operation_id: op.operation_id }));
  if (st.status !== "applied" || st.counters.written !== 100_000 || st.saved !== waitSaved)
    throw new Error(`bench apply ended ${st.status}, ${st.counters.written} written, saved ${st.saved}`);
  return took;
}

async function portWaitSaved() {
  if (!existsSync(MINESTOM_JAR)) execFileSync("bash", ["java/build.sh", "-DskipTests"], { stdio: "inherit" });
  const host = await startMinestomHost({ budgetMs: 5, autosaveMs: 600_000, fullJit: true });
  const live = await LiveEngine.open(host);
  const plain = [],
    saved = [];
  let chunks = 0;
  try {
    const blocks = ["minecraft:stone", "minecraft:air"];
    for (let i = 0; i < RUNS + 1; i++) {
      const a = await applyPort(live, blocks[(2 * i) % 2], `plain-${i}`, false);
      unwrap(await live.engine.flush(live.agent)); // the next one starts with nothing unsaved
      const b = await applyPort(live, blocks[(2 * i + 1) % 2], `saved-${i}`, true);
      if (i === 0) continue; // warm-up
      plain.push(a);
      saved.push(b);
    }
    chunks = Number((await live.port.port.call("flush", {}, true)).chunks);
  } finally {
    await live.close();
    await host.stop();
    host.dispose();
  }
  const p = median(plain),
    s = median(saved),
    ratio = s / p;
  console.log(`apply 100,000 blocks through the live port, median of ${RUNS} (interleaved)`);
  console.log(`  apply only                 ${p.toFixed(0).padStart(6)} ms`);
  console.log(
    `  apply + wait until saved   ${s.toFixed(0).padStart(6)} ms  ratio ${ratio.toFixed(2)}×  target ≤${WAIT_SAVED_TARGET}× ${ratio <= WAIT_SAVED_TARGET ? "met" : "MISSED"}  (a flush of the written chunks; ${chunks} chunks left unsaved at the end)`,
  );
  return ratio <= WAIT_SAVED_TARGET;
}

async function restartCheck() {
  const h = await Harness.create({
    journal: "sqlite",
    world: { unsavedUntilFlush: true },
    area: { minX: -512, minY: -64, minZ: -512, maxX: 511, maxY: 319, maxZ: 511 },
    reconnectDelaysMs: [1],
  });
  try {
    for (let k = 0; k < 10; k++) {
      const x = -500 + k * 100;
      await h.build(boxRecipe({ x, y: 0, z: -50 }, { x: x + 99, y: 9, z: 49 }, "minecraft:stone"), `op-${k}`);
    }
    // The server saved them, but the engine never heard: after its restart every one is checked.
    await h.world.flush();
    h.world.kill();
    h.world.restart();
    const before = h.journal.unsavedSlices().length;
    const t = process.hrtime.bigint();
    await h.reopen();
    const check = ms(t);
    const found = h.engine.lastCheck;
    if (found.positions !== 1_000_000 || found.lost.length !== 0) throw new Error(`check read ${found.positions} positions, lost ${found.lost.length}`);
    // Baseline: the same positions read plainly, and an engine open with nothing to check.
    const pos = new Int32Array(1_000_000 * 3);
    let n = 0;
    for (let k = 0; k < 10; k++)
      for (let y = 0; y <= 9; y++)
        for (let z = -50; z <= 49; z++) for (let x = -500 + k * 100; x < -400 + k * 100; x++) ((pos[n++] = x), (pos[n++] = y), (pos[n++] = z));
    const { readPositions } = await import("../packages/engine/dist/world/WorldReader.js");
    const t2 = process.hrtime.bigint();
    await readPositions(h.world, pos);
    const read = ms(t2);
    const t3 = process.hrtime.bigint();
    await h.reopen();
    const open = ms(t3);
    const ratio = check / read;
    console.log(`restart check over 1,000,000 blocks of 10 operations (${before} slices not known saved), SQLite journal`);
    console.log(`  engine open with the check  ${check.toFixed(0).padStart(6)} ms`);
    console.log(`  engine open, nothing to check ${open.toFixed(0).padStart(4)} ms`);
    console.log(
      `  plain read of the same blocks ${read.toFixed(0).padStart(4)} ms  ratio ${ratio.toFixed(2)}×  target ≤${CHECK_TARGET}× ${ratio <= CHECK_TARGET ? "met" : "MISSED"}`,
    );
    return ratio <= CHECK_TARGET;
  } finally {
    h.close();
  }
}

export async function run() {
  const a = await portWaitSaved();
  const b = await restartCheck();
  return a && b;
}
