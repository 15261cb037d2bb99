// Issue 46: one world, every front end at once. Measured on the person's path, each a process end
// to end (start, connect, run, print):
//  A. A CLI command through the process that holds the world (mcb serve) against the same command
//     on its own (it opens the world itself), on the tower's state and on a million-block state.
//  B. The holder's RSS idle and with three MCP clients (two over HTTP, one over stdio through a
//     relay) after each made the same calls.
//  C. A soak: 10,000 operations (builds and undos, 5,000 in one area and 5,000 in a growing one)
//     through one holder (mcb mcp over stdio), against the tree before this issue (BASELINE, built
//     in a git worktree in the same run): latency per window of 1,000 and the holder's RSS.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { root, withBaselineTree } from "./baseline.mjs";
import { row } from "./timing.mjs";

/** The last commit before issue 46. */
const BASELINE = "151640b";
const OPS = Number(process.env.MCB_SOAK_OPS ?? 10_000);
/** The holder's RSS over the soak's second half stays under this. */
const RSS_CAP_MB = 500;
const bin = (tree) => join(tree, "packages/bridge/dist/bin.js");
const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

function mcb(...args) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [bin(root), ...args], { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`mcb ${args.join(" ")}: ${r.stderr}`);
  return performance.now() - t;
}

async function serve(state, extra = []) {
  const child = spawn(process.execPath, [bin(root), "serve", "--state", state, ...extra], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr.setEncoding("utf8").on("data", (d) => (err += d));
  while (!err.includes("mcb serve: holding")) {
    if (child.exitCode !== null) throw new Error(err);
    await new Promise((r) => setTimeout(r, 20));
  }
  const m = /127\.0\.0\.1:(\d+)\/mcp/.exec(err);
  return {
    child,
    port: m === null ? 0 : Number(m[1]),
    stop: () => new Promise((r) => (child.once("exit", r), child.kill("SIGTERM"))),
  };
}

/** A. Each command 7 times on its own, then 7 times through a holder; medians. */
async function throughHolder() {
  const ok = [];
  const states = [
    ["the tower's state", (s) => mcb("build", join(root, "examples/tower.json"), "--state", s)],
    [
      "a 1,000,000-block state",
      (s) => {
        const recipe = join(s, "..", `${s.split("/").pop()}.json`);
        writeFileSync(
          recipe,
          JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 0, y: 100, z: 0 }, max: { x: 99, y: 199, z: 99 }, block: "minecraft:stone" }] }),
        );
        mcb("build", recipe, "--state", s);
        rmSync(recipe);
      },
    ],
  ];
  for (const [what, make] of states) {
    const state = mkdtempSync(join(tmpdir(), "mcb-holder-bench-"));
    try {
      make(state);
      const commands = [
        ["status", ["status", "--state", state]],
        ["inspect", ["inspect", "-6", "64", "-6", "6", "70", "6", "--state", state]],
      ];
      const alone = commands.map(([, args]) => median(Array.from({ length: 7 }, () => mcb(...args))));
      const held = await serve(state);
      const rssBefore = rssOf(held.child.pid);
      const through = commands.map(([, args]) => median(Array.from({ length: 7 }, () => mcb(...args))));
      const rssAfter = rssOf(held.child.pid);
      await held.stop();
      for (const [i, [name]] of commands.entries()) ok.push(row(`mcb ${name}, ${what}: through the holder (vs on its own)`, through[i], alone[i], 0.5));
      console.log(`  holder RSS ${rssBefore.toFixed(0)} MB before, ${rssAfter.toFixed(0)} MB after 14 commands`);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  }
  return ok.every(Boolean);
}

/** B. Three clients on one holder. */
async function threeClients() {
  const state = mkdtempSync(join(tmpdir(), "mcb-holder-rss-"));
  const held = await serve(state, ["--http", "0"]);
  try {
    const token = readFileSync(join(state, "http-token"), "utf8").trim();
    const idle = rssOf(held.child.pid);
    const clients = [];
    for (const name of ["http-1", "http-2"]) {
      const c = new Client({ name, version: "1" });
      await c.connect(
        new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${held.port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      );
      clients.push(c);
    }
    const relay = new StdioClientTransport({ command: process.execPath, args: [bin(root), "mcp", "--state", state], stderr: "ignore" });
    const s = new Client({ name: "stdio-1", version: "1" });
    await s.connect(relay);
    clients.push(s);
    const connected = rssOf(held.child.pid);
    for (const [k, c] of clients.entries())
      for (let i = 0; i < 20; i++) {
        const x = k * 40 + (i % 4) * 10;
        const recipe = {
          version: 1,
          operations: [{ type: "box", min: { x, y: 100, z: i * 10 }, max: { x: x + 7, y: 107, z: i * 10 + 7 }, block: "minecraft:stone", hollow: true }],
        };
        const r = await c.callTool({ name: "build_prepare", arguments: { recipe, apply: { idempotency_key: `${k}-${i}` } } });
        if (r.isError) throw new Error(r.content[0].text);
        if (i % 5 === 0)
          await c.callTool({ name: "camera_capture", arguments: { pose: { x: x + 4, y: 110, z: i * 10 - 12, yaw: 0, pitch: 20, width: 320, height: 180 } } });
      }
    const busy = rssOf(held.child.pid);
    const relayRss = rssOf(relay.pid);
    console.log(
      `holder RSS: ${idle.toFixed(0)} MB idle, ${connected.toFixed(0)} MB with 3 clients connected, ${busy.toFixed(0)} MB after 60 builds and 12 captures from them; the stdio relay process ${relayRss.toFixed(0)} MB`,
    );
    for (const c of clients) await c.close();
    return true;
  } finally {
    await held.stop();
    rmSync(state, { recursive: true, force: true });
  }
}

/** C. OPS operations through `mcb mcp` of `tree`; per window of 1,000: p50, p95 (ms) and the holder's RSS (MB). */
async function soak(tree) {
  const state = mkdtempSync(join(tmpdir(), "mcb-soak-"));
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin(tree), "mcp", "--state", state], cwd: tree, stderr: "ignore" });
  const c = new Client({ name: "soak", version: "1" });
  await c.connect(transport);
  const blocks = ["minecraft:stone", "minecraft:oak_planks", "minecraft:bricks", "minecraft:cobblestone"];
  const windows = [];
  const built = [];
  let lat = [];
  try {
    for (let i = 0; i < OPS; i++) {
      const growing = i >= OPS / 2;
      const t = performance.now();
      if (i % 3 === 2 && built.length > 0) {
        const r = await c.callTool({ name: "operation_undo_prepare", arguments: { operation_id: built.pop(), apply: { idempotency_key: `u${i}` } } });
        if (r.isError) throw new Error(r.content[0].text);
      } else {
        const k = i - OPS / 2;
        const x = growing ? (k % 100) * 12 : 0;
        const z = growing ? 20 + Math.floor(k / 100) * 12 : 0;
        const recipe = {
          version: 1,
          operations: [{ type: "box", min: { x, y: 100, z }, max: { x: x + 9, y: 109, z: z + 9 }, block: blocks[i % 4], hollow: true }],
        };
        const r = await c.callTool({ name: "build_prepare", arguments: { recipe, apply: { idempotency_key: `b${i}` } } });
        if (r.isError) throw new Error(r.content[0].text);
        built.push(r.structuredContent.operation.operation_id);
      }
      lat.push(performance.now() - t);
      if ((i + 1) % 1000 === 0) {
        windows.push({ ops: i + 1, p50: median(lat), p95: quantile(lat, 0.95), rss: rssOf(transport.pid) });
        lat = [];
      }
    }
  } finally {
    await c.close();
    rmSync(state, { recursive: true, force: true });
  }
  return windows;
}

function printSoak(label, w) {
  console.log(`${label}: ops      p50 ms   p95 ms   holder RSS MB`);
  for (const x of w)
    console.log(`  ${String(x.ops).padStart(6)}  ${x.p50.toFixed(1).padStart(7)}  ${x.p95.toFixed(1).padStart(7)}  ${x.rss.toFixed(0).padStart(8)}`);
}

export async function run() {
  let ok = await throughHolder();
  ok = (await threeClients()) && ok;
  const now = await soak(root);
  printSoak(`soak, this tree (${OPS} operations, the first half in one area, the second in a growing one)`, now);
  // Flat: each half's last window no slower than 1.5× its first. Bounded: under the cap, and a plateau:
  // over each half's last 2,000 operations RSS grows by at most 5% of the cap (the caches that make
  // it, plans of a million positions and 1,024 decoded chunks, are full by then; a leak would go on).
  const halves = [now.slice(0, now.length / 2), now.slice(now.length / 2)];
  const flat = halves.every((h) => h.at(-1).p50 <= 1.5 * h[0].p50);
  const maxRss = Math.max(...now.map((w) => w.rss));
  const growth = halves.map((h) => h.at(-1).rss - h.at(-3).rss);
  const bounded = maxRss <= RSS_CAP_MB && growth.every((g) => g <= 0.05 * RSS_CAP_MB);
  console.log(
    `latency ${flat ? "flat (each half's last window ≤ 1.5× its first): target met" : "NOT flat: target MISSED"}; RSS at most ${maxRss.toFixed(0)} MB, ${growth
      .map((g) => `${g >= 0 ? "+" : ""}${g.toFixed(0)} MB`)
      .join(" and ")} over each half's last 2,000 operations: ${bounded ? `a plateau under ${RSS_CAP_MB} MB, target met` : "target MISSED"}`,
  );
  await withBaselineTree(BASELINE, async (dir) => {
    const before = await soak(dir);
    printSoak(`soak, the tree before issue 46 (${BASELINE}), same run`, before);
    row("soak p50 of the last 1,000 operations (vs before)", now.at(-1).p50, before.at(-1).p50);
    row("soak holder RSS after the last operation, MB as ms (vs before)", now.at(-1).rss, before.at(-1).rss);
  });
  return ok && flat && bounded;
}
