// Big builds on the person's path (issue 45): `mcb schem import` of a 1,000,000-block Sponge file
// (a 100³ cube of four blocks in layers), as a process of its own: start, read the file, prepare
// and apply its tiles, name the part, save. Offline: into a new embedded save. Live: through the
// world port of a Minestom 26.2 host (full JIT, as `npm run server` runs it), the host's tick max
// and p99 over the paste; the undo of each (offline, through the port, one batch_undo call).
// Measured against the tree before issue 45 (BASELINE, a git worktree built in the same run), the
// two interleaved; medians of RUNS. Printed: end-to-end time and blocks/s, and the bridge's peak
// memory (max RSS).
// Targets (issue 45): ≥ 1,000,000 blocks/s offline and ≥ 500,000 live end to end; peak RSS ≤ 400 MB.
import { fork, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { PortClient } from "@mcb/adapter-port";
import { startMinestomHost } from "@mcb/property-tests";
import { writeSchematic } from "@mcb/schematic";
import { root, withBaselineTree } from "./baseline.mjs";

/** The last commit before issue 45's work; MCB_BENCH_BASE=<commit> measures against another. */
const BASELINE = process.env.MCB_BENCH_BASE ?? "9a88ea3";
const RUNS = 3;
const N = 100;
const BLOCKS = N * N * N;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function cube(file, n = N) {
  const palette = ["minecraft:stone_bricks", "minecraft:oak_planks", "minecraft:cobblestone", "minecraft:glass"];
  const blocks = new Uint8Array(n * n * n);
  for (let y = 0; y < n; y++) blocks.fill((y >> 2) % 4, y * n * n, (y + 1) * n * n);
  writeFileSync(file, writeSchematic({ width: n, height: n, length: n, offset: { x: 0, y: 0, z: 0 }, dataVersion: 4903, palette, blocks, blockEntities: [] }));
}

/**
 * One paste into a new state directory, in a process of its own (the tree's bench/export-peak.mjs
 * runs `mcb` in-process); `live`: through that host's port, at `at`.
 */
function paste(tree, file, state, live = null, at = "0,-60,0") {
  const where = live === null ? [] : ["--world", live.url];
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(tree, "bench", "export-peak.mjs"), "schem", "import", file, "--at", at, ...where, "--state", state, "--init"], {
    cwd: tree,
    encoding: "utf8",
    maxBuffer: 64 << 20,
    env: live === null ? process.env : { ...process.env, MCB_PORT_TOKEN: live.token },
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`paste in ${tree} failed: ${r.stderr.slice(-1500)}`);
  if (!/(1000000|10077696) blocks written/.test(r.stdout)) throw new Error(`paste in ${tree} did not write every block: ${r.stdout.slice(-500)}`);
  return { ms, peakMiB: JSON.parse(r.stderr.trim().split("\n").pop()).peakMiB, stdout: r.stdout };
}

/** `mcb undo <paste_id>` in a process of its own. */
function undo(tree, id, state, live = null) {
  const t = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    [join(tree, "bench", "export-peak.mjs"), "undo", id, "--state", state, ...(live === null ? [] : ["--world", live.url])],
    {
      cwd: tree,
      encoding: "utf8",
      maxBuffer: 64 << 20,
      env: live === null ? process.env : { ...process.env, MCB_PORT_TOKEN: live.token },
    },
  );
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0 || !/1000000 blocks restored/.test(r.stdout)) throw new Error(`undo in ${tree} failed: ${r.stdout.slice(-400)} ${r.stderr.slice(-800)}`);
  return { ms, peakMiB: JSON.parse(r.stderr.trim().split("\n").pop()).peakMiB };
}

export function run() {
  return withBaselineTree(BASELINE, async (base) => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-bench-paste-"));
    try {
      const file = join(dir, "cube.schem");
      cube(file);
      let k = 0;
      const once = (tree) => paste(tree, file, join(dir, `state-${k++}`));
      (once(base), once(root)); // warm-up: disk caches
      const before = [],
        now = [];
      for (let i = 0; i < RUNS; i++) {
        before.push(once(base));
        now.push(once(root));
      }
      const b = median(before.map((m) => m.ms)),
        n = median(now.map((m) => m.ms));
      const rate = (ms) => `${((BLOCKS / ms) * 1000).toLocaleString("en-US", { maximumFractionDigits: 0 })} blocks/s`;
      const peakB = median(before.map((m) => m.peakMiB)),
        peakN = median(now.map((m) => m.peakMiB));
      console.log(`mcb schem import of a 100³ Sponge file (1,000,000 blocks) into a new embedded save, process end to end; before: ${BASELINE}`);
      console.log(`  now    ${n.toFixed(0).padStart(5)} ms  ${rate(n)}  peak ${peakN.toFixed(0)} MiB`);
      console.log(`  before ${b.toFixed(0).padStart(5)} ms  ${rate(b)}  peak ${peakB.toFixed(0)} MiB`);
      // The undo of a paste, as a person runs it: `mcb undo <paste_id>`, each against its own paste.
      const undos = [];
      for (let i = 0; i < RUNS; i++) {
        const state = join(dir, `undo-${i}`);
        const built = paste(root, file, state);
        const id = /paste (p_[0-9a-f]+)/.exec(built.stdout)[1];
        undos.push({ build: built.ms, ...undo(root, id, state) });
      }
      const ub = median(undos.map((u) => u.build)),
        uu = median(undos.map((u) => u.ms));
      const undoOk = uu <= 1.5 * ub;

      const speed = BLOCKS / (n / 1000);
      console.log(
        `  ratio ${(n / b).toFixed(2)}× the time; target ≥ 1,000,000 blocks/s ${speed >= 1e6 ? "met" : "MISSED"}; peak ≤ 400 MiB ${peakN <= 400 ? "met" : "MISSED"}`,
      );
      console.log(
        `  undo (mcb undo <paste_id>): ${uu.toFixed(0)} ms against its paste's ${ub.toFixed(0)} ms, ${(uu / ub).toFixed(2)}×, peak ${median(undos.map((u) => u.peakMiB)).toFixed(0)} MiB; target ≤ 1.5× ${undoOk ? "met" : "MISSED"}`,
      );
      // Ten million: a 216³ cube (10,077,696 blocks), once per tree.
      const big = join(dir, "cube216.schem");
      cube(big, 216);
      const b10 = paste(base, big, join(dir, "big-before"), null, "-100,-60,-100"),
        n10 = paste(root, big, join(dir, "big-now"), null, "-100,-60,-100");
      const rate10 = (ms) => `${((10_077_696 / ms) * 1000).toLocaleString("en-US", { maximumFractionDigits: 0 })} blocks/s`;
      console.log("the same of a 216³ cube (10,077,696 blocks), once each");
      console.log(`  now    ${n10.ms.toFixed(0).padStart(5)} ms  ${rate10(n10.ms)}  peak ${n10.peakMiB.toFixed(0)} MiB`);
      console.log(`  before ${b10.ms.toFixed(0).padStart(5)} ms  ${rate10(b10.ms)}  peak ${b10.peakMiB.toFixed(0)} MiB`);
      const big10 = n10.peakMiB <= 400 && (10_077_696 / n10.ms) * 1000 >= 1e6;
      console.log(`  target ≥ 1,000,000 blocks/s and peak ≤ 400 MiB ${big10 ? "met" : "MISSED"}`);
      // Through MCP, `mcb mcp` started for it: now one schematic_paste call (asked again until done),
      // before the agent's way then: schematic_import_prepare and build_apply per tile, then part_define.
      const mb = await mcpPaste(base, file, dir, false),
        mn = await mcpPaste(root, file, dir, true, null, undefined, true);
      console.log("the same through `mcb mcp` over stdio (the SDK's client), process start included");
      console.log(
        `  now    ${mn.ms.toFixed(0).padStart(5)} ms  ${rate(mn.ms)}  ${mn.calls} call(s): schematic_paste; its undo in one batch_undo call ${mn.undoMs.toFixed(0)} ms (${(mn.undoMs / mn.ms).toFixed(2)}×)`,
      );
      console.log(`  before ${mb.ms.toFixed(0).padStart(5)} ms  ${rate(mb.ms)}  ${mb.calls} calls: a prepare and an apply per tile, part_define`);
      await recipeBuilds(dir);
      const live = await livePastes(base, file, dir);
      const player = await withPlayerOnline(file, dir);
      return speed >= 1e6 && peakN <= 400 && big10 && live && undoOk && player;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/**
 * The same paste through a live host's port: one host for both trees (the bridge is what differs),
 * each paste at a place of its own inside the host's loaded chunks (radius 8: x and z −112..127 at least).
 */
async function livePastes(base, file, dir) {
  const host = await startMinestomHost({ fullJit: true, loadRadius: 8 });
  const client = new PortClient({ url: host.url, token: host.token });
  try {
    const spots = [];
    for (const y of [-60, 45, 150]) for (const x of [-100, 0]) for (const z of [-100, 0]) spots.push(`${x},${y},${z}`);
    let k = 0;
    const once = async (tree) => {
      await client.call("stats", { reset: true }, false);
      const state = join(dir, `live-${k}`);
      const r = paste(tree, file, state, host, spots[k++]);
      const s = await client.call("stats", {}, false);
      return { ...r, state, tickMax: s.tick_ms_max, tickP99: s.tick_ms_p99, ticks: s.ticks };
    };
    (await once(base), await once(root)); // warm-up: the host's JIT
    const before = [],
      now = [];
    for (let i = 0; i < RUNS; i++) {
      before.push(await once(base));
      now.push(await once(root));
    }
    const m = (xs, key) => median(xs.map((x) => x[key]));
    const rate = (ms) => `${((BLOCKS / ms) * 1000).toLocaleString("en-US", { maximumFractionDigits: 0 })} blocks/s`;
    console.log(`the same paste through the world port of a live Minestom 26.2 host, process end to end; before: ${BASELINE}`);
    for (const [label, xs] of [
      ["now", now],
      ["before", before],
    ])
      console.log(
        `  ${label.padEnd(6)} ${m(xs, "ms").toFixed(0).padStart(5)} ms  ${rate(m(xs, "ms"))}  peak ${m(xs, "peakMiB").toFixed(0)} MiB  tick max ${m(xs, "tickMax").toFixed(1)} ms, p99 ${m(xs, "tickP99").toFixed(1)} ms over ${m(xs, "ticks")} ticks`,
      );
    const speed = BLOCKS / (m(now, "ms") / 1000);
    const ok = speed >= 500_000 && m(now, "tickMax") <= 50 && m(now, "tickP99") <= 10;
    console.log(
      `  ratio ${(m(now, "ms") / m(before, "ms")).toFixed(2)}× the time; target ≥ 500,000 blocks/s, tick max ≤ 50 ms, p99 ≤ 10 ms ${ok ? "met" : "MISSED"}`,
    );
    // The undo of the last paste of this tree, through the port: mcb undo <paste_id> --world.
    const last = now.at(-1);
    await client.call("stats", { reset: true }, false);
    const u = undo(root, /paste (p_[0-9a-f]+)/.exec(last.stdout)[1], last.state, host);
    const us = await client.call("stats", {}, false);
    const undoOk = u.ms <= 1.5 * last.ms;
    console.log(
      `  undo (mcb undo <paste_id> through the port): ${u.ms.toFixed(0)} ms against its paste's ${last.ms.toFixed(0)} ms, ${(u.ms / last.ms).toFixed(2)}×; tick max ${us.tick_ms_max.toFixed(1)} ms, p99 ${us.tick_ms_p99.toFixed(1)} ms; target ≤ 1.5× ${undoOk ? "met" : "MISSED"}`,
    );
    return ok && undoOk;
  } finally {
    client.close();
    await host.stop();
    host.dispose();
  }
}

/** A paste of `file` through a tree's `mcb mcp` (a new state with the file as asset "cube"): time from the process start, and calls. */
async function mcpPaste(tree, file, dir, oneCall, host = null, target = { x: 0, y: -60, z: 0 }, undoToo = false) {
  const state = mkdtempSync(join(dir, "mcp-"));
  mkdirSync(join(state, "schematics"));
  copyFileSync(file, join(state, "schematics", "cube.schem"));
  const t = process.hrtime.bigint();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(tree, "packages/bridge/dist/bin.js"), "mcp", "--state", state, "--toolsets", "all", ...(host === null ? [] : ["--world", host.url])],
    stderr: "ignore",
    ...(host === null ? {} : { env: { PATH: process.env.PATH ?? "", MCB_PORT_TOKEN: host.token } }),
  });
  const client = new Client({ name: "paste-bench", version: "1" });
  await client.connect(transport);
  let calls = 0;
  const call = async (name, args) => {
    calls++;
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
    if (r.isError) throw new Error(`${name}: ${r.content[0]?.text?.slice(0, 400)}`);
    return r.structuredContent;
  };
  try {
    if (oneCall) {
      let s;
      do s = await call("schematic_paste", { asset_id: "cube", target, wait_ms: 10_000 });
      while (s.state === "running");
      if (s.state !== "done" || s.written_blocks !== BLOCKS) throw new Error(`schematic_paste ended ${s.state} with ${s.written_blocks} blocks`);
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      const pasteCalls = calls;
      if (!undoToo) return { ms, calls };
      const u0 = process.hrtime.bigint();
      let u;
      do u = await call("batch_undo", { batch_id: s.paste_id, wait_ms: 10_000 });
      while (u.state === "running");
      if (u.state !== "done" || u.restored_blocks !== BLOCKS) throw new Error(`batch_undo ended ${u.state} with ${u.restored_blocks} blocks`);
      return { ms, calls: pasteCalls, undoMs: Number(process.hrtime.bigint() - u0) / 1e6 };
    } else {
      const ids = [];
      for (let i = 0; ; i++) {
        const p = await call("schematic_import_prepare", { asset_id: "cube", target, tile_index: i });
        const op = await call("build_apply", { plan_id: p.plan_id, plan_hash: p.plan_hash, idempotency_key: `tile-${i}`, wait_ms: 10_000 });
        if (op.status !== "applied") throw new Error(`tile ${i} ended ${op.status}`);
        ids.push(op.operation_id);
        if (i + 1 >= p.tiles.count) break;
      }
      await call("part_define", { name: "cube", operation_ids: ids });
    }
    return { ms: Number(process.hrtime.bigint() - t) / 1e6, calls };
  } finally {
    await client.close();
  }
}

/**
 * One `schematic_paste` call of the million blocks through `mcb mcp` on a live host with a real
 * client on line next to the build (mineflayer in a process of its own, on the 26.1.2 host it
 * speaks), the bridge, the host and the client on the same two cores: the host's tick max and p99
 * over the paste, and whether the player stayed on line. A first paste warms the host's JIT.
 */
async function withPlayerOnline(file, dir) {
  const host = await startMinestomHost({ build: "26.1.2", fullJit: true, loadRadius: 8 });
  const client = new PortClient({ url: host.url, token: host.token });
  const bot = fork(join(root, "property-tests/test/support/BotProcess.mjs"), [String(host.gamePort), "Watcher"], {
    stdio: ["ignore", "ignore", "ignore", "ipc"],
  });
  let ended = null;
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the player did not join within 60 s")), 60_000);
      bot.on("message", (m) => {
        if (m.type === "ready") (clearTimeout(timer), resolve());
        if (m.type === "ended") ((ended = m.reason), clearTimeout(timer), reject(new Error(`the player left: ${m.reason}`)));
      });
    });
    await mcpPaste(root, file, dir, true, host, { x: -100, y: 64, z: -100 }); // warm-up
    await client.call("stats", { reset: true }, false);
    const r = await mcpPaste(root, file, dir, true, host, { x: -100, y: 170, z: -100 });
    const s = await client.call("stats", {}, false);
    const ok = s.tick_ms_max <= 50 && s.tick_ms_p99 <= 10 && ended === null;
    console.log(
      `one schematic_paste call through mcb mcp on the 26.1.2 host with a player on line next to it: ${r.ms.toFixed(0)} ms, ${((BLOCKS / r.ms) * 1000).toLocaleString("en-US", { maximumFractionDigits: 0 })} blocks/s; tick max ${s.tick_ms_max.toFixed(1)} ms, p99 ${s.tick_ms_p99.toFixed(1)} ms over ${s.ticks} ticks; the player ${ended === null ? "stayed on line" : `left (${ended})`}; target tick max ≤ 50 ms, p99 ≤ 10 ms ${ok ? "met" : "MISSED"}`,
    );
    return ok;
  } finally {
    bot.send({ type: "quit" });
    client.close();
    await host.stop();
    host.dispose();
  }
}

/**
 * The same million blocks as a recipe (25 boxes of four layers, the cube's), built in tiles: `mcb
 * build` as a process of its own, and one build_prepare call with apply through `mcb mcp`
 * (process start included); before issue 45 a recipe over 100,000 blocks was refused.
 */
async function recipeBuilds(dir) {
  const palette = ["minecraft:stone_bricks", "minecraft:oak_planks", "minecraft:cobblestone", "minecraft:glass"];
  const operations = Array.from({ length: N / 4 }, (_, k) => ({
    type: "box",
    min: { x: 0, y: -60 + 4 * k, z: 0 },
    max: { x: N - 1, y: -57 + 4 * k, z: N - 1 },
    block: palette[k % 4],
  }));
  const recipe = { version: 1, operations };
  const file = join(dir, "cube-recipe.json");
  writeFileSync(file, JSON.stringify(recipe));
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const state = join(dir, `recipe-${i}`);
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [join(root, "bench", "export-peak.mjs"), "build", file, "--state", state, "--init"], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 0 || !/1000000 blocks written/.test(r.stdout)) throw new Error(`mcb build failed: ${r.stdout.slice(-400)} ${r.stderr.slice(-800)}`);
    runs.push({ ms, peakMiB: JSON.parse(r.stderr.trim().split("\n").pop()).peakMiB });
  }
  const ms = median(runs.map((r) => r.ms));
  const state = mkdtempSync(join(dir, "mcp-recipe-"));
  const t = process.hrtime.bigint();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, "packages/bridge/dist/bin.js"), "mcp", "--state", state],
    stderr: "ignore",
  });
  const client = new Client({ name: "recipe-bench", version: "1" });
  await client.connect(transport);
  let calls = 0,
    answer;
  try {
    do {
      calls++;
      const r = await client.callTool({ name: "build_prepare", arguments: { recipe, apply: { idempotency_key: "cube", wait_ms: 10_000 } } }, undefined, {
        timeout: 120_000,
      });
      if (r.isError) throw new Error(`build_prepare: ${r.content[0]?.text?.slice(0, 400)}`);
      answer = r.structuredContent;
    } while (answer.operation.status === "applying");
  } finally {
    await client.close();
  }
  const mcpMs = Number(process.hrtime.bigint() - t) / 1e6;
  if (answer.operation.status !== "applied" || answer.operation.written !== BLOCKS)
    throw new Error(`the recipe build did not finish: ${JSON.stringify(answer.operation)}`);
  const rate = (x) => `${((BLOCKS / x) * 1000).toLocaleString("en-US", { maximumFractionDigits: 0 })} blocks/s`;
  console.log("the same million blocks as a recipe (25 boxes), built in tiles; before issue 45 refused over 100,000 blocks");
  console.log(`  mcb build          ${ms.toFixed(0).padStart(5)} ms  ${rate(ms)}  peak ${median(runs.map((r) => r.peakMiB)).toFixed(0)} MiB`);
  console.log(`  build_prepare+apply ${mcpMs.toFixed(0).padStart(4)} ms  ${rate(mcpMs)}  ${calls} call(s) through mcb mcp, process start included`);
}
