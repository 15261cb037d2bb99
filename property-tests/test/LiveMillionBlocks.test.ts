import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "@mcb/bridge";
import { writeSchematic } from "@mcb/schematic";
import { LiveEngine, startMinestomHost, unwrap, type MinestomHost } from "../src/index.js";

/**
 * A million blocks through the world port while a player stands next to the build (a real
 * mineflayer client on the 26.1.2 host, in a process of its own as a player's game is; the port's
 * default 5 ms tick budget), the way an agent builds it: one `schematic_paste` call to `mcb mcp`,
 * a process of its own (ten tiles of 100,000 blocks in the background, one part). The player stays
 * connected and sees the blocks; no server tick of the whole job goes over 50 ms (issue 31; before
 * it a tick reached 151 ms), measured by the host as wall time, with the player's client and the
 * bridge (at a lower CPU priority than the server) on the same two cores. The server has run a
 * while when the paste starts (one 100,000-block paste before it: its JIT has compiled the hot
 * paths) and runs with its shipped JVM flags (java/host.jvm-options), as a Minecraft server is run.
 */
const LAYERS = [
  "minecraft:stone",
  "minecraft:oak_planks",
  "minecraft:bricks",
  "minecraft:glass",
  "minecraft:cobblestone",
  "minecraft:andesite",
  "minecraft:sandstone",
  "minecraft:dirt",
  "minecraft:granite",
  "minecraft:diorite",
];
const MIN = { x: -50, z: -50 };
const Y0 = 70;
/** One tick: a player sees no stall. */
const STALL_MS = 50;
const cli = join(fileURLToPath(new URL("../../", import.meta.url)), "packages/bridge/dist/bin.js");
type Answer = Record<string, any>;

/** A 100 × `height` × 100 Sponge file of ten-block layers of `layers` (one of them when `height` is 10). */
function layered(height: number, layers: readonly string[]): Buffer {
  const blocks = new Uint8Array(100 * height * 100);
  for (let y = 0; y < height; y++) blocks.fill(Math.floor(y / 10) % layers.length, y * 10_000, (y + 1) * 10_000);
  return writeSchematic({ width: 100, height, length: 100, offset: { x: 0, y: 0, z: 0 }, dataVersion: 4903, palette: [...layers], blocks, blockEntities: [] });
}

describe("live: a million blocks in one MCP call while a player watches", () => {
  let host: MinestomHost;
  let live: LiveEngine;
  let bot: ChildProcess;
  let state: string;
  let client: Client;
  let transport: StdioClientTransport;
  let ended: string | null = null;
  const answers = new Map<number, (states: (string | null)[]) => void>();
  let asked = 0;
  /** The states the player's client holds at these positions. */
  const seen = (positions: string[]): Promise<(string | null)[]> =>
    new Promise((resolve) => {
      answers.set(++asked, resolve);
      bot.send({ id: asked, positions });
    });
  /** One schematic_paste, asked again until it is no longer running. */
  const paste = async (asset: string, target: { x: number; y: number; z: number }): Promise<Answer> => {
    for (;;) {
      const r = await client.callTool({ name: "schematic_paste", arguments: { asset_id: asset, target, wait_ms: 10_000 } }, undefined, { timeout: 120_000 });
      if (r.isError) throw new Error(`schematic_paste: ${(r.content as { text: string }[])[0]?.text.slice(0, 400)}`);
      const s = r.structuredContent as Answer;
      if (s.state !== "running") return s;
    }
  };

  beforeAll(async () => {
    host = await startMinestomHost({ build: "26.1.2", fullJit: true }); // as a server runs: the ticks are timed
    live = await LiveEngine.open(host);
    bot = fork(new URL("./support/BotProcess.mjs", import.meta.url), [String(host.gamePort), "Watcher"], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    // A player's game runs on the player's computer; here it shares the server's two cores, so it gets the smallest share.
    setPriority(bot.pid!, 10);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the player did not join within 30 s")), 30_000);
      bot.on("message", (m: { type: string; id?: number; states?: (string | null)[]; reason?: string }) => {
        if (m.type === "ready") {
          clearTimeout(timer);
          resolve();
        } else if (m.type === "ended") ended = `${ended === null ? "" : `${ended} | `}${m.reason ?? "disconnected"}`;
        else if (m.type === "seen") answers.get(m.id!)?.(m.states!);
      });
    });
    // The agent's bridge: `mcb mcp` on the server's port, its library holding the two files.
    state = mkdtempSync(join(tmpdir(), "mcb-million-"));
    mkdirSync(join(state, "schematics"));
    writeFileSync(join(state, "schematics", "layers.schem"), layered(100, LAYERS));
    writeFileSync(join(state, "schematics", "warm.schem"), layered(10, ["minecraft:oak_planks"]));
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, "mcp", "--world", host.url, "--state", state, "--toolsets", "all"],
      env: { PATH: process.env.PATH ?? "", MCB_PORT_TOKEN: host.token },
      stderr: "inherit",
    });
    client = new Client({ name: "million-test", version: "1" });
    await client.connect(transport);
    // The port listens on loopback only, so a bridge always runs on the server's machine; the game
    // comes first there (README: run the bridge under `nice`).
    setPriority(transport.pid!, 5);
  }, 120_000);

  afterAll(async () => {
    bot?.send({ type: "quit" });
    await client?.close();
    await live?.close();
    await host?.stop();
    host?.dispose();
    if (state !== undefined) rmSync(state, { recursive: true, force: true });
  });

  it("pastes 1,000,000 blocks in one call; the player stays connected and sees them; no tick of the job stalls", async () => {
    // a server that has run a while: the game's and the port's hot paths compiled (one 100,000-block paste above the others)
    expect(await paste("warm", { x: MIN.x, y: 200, z: MIN.z })).toMatchObject({ state: "done", written_blocks: 100_000 });
    await live.port.port.call("stats", { reset: true }, false);
    const t0 = performance.now();
    const done = await paste("layers", { x: MIN.x, y: Y0, z: MIN.z });
    const ms = performance.now() - t0;
    expect(done, JSON.stringify(done)).toMatchObject({ state: "done", written_blocks: 1_000_000, tiles: { total: 10, applied: 10 }, error: null });
    expect(done.part.part_id).toMatch(/^part_/);
    const stats = (await live.port.port.call("stats", {}, true)) as {
      ticks: number;
      tick_ms_max: number;
      tick_ms_p99: number;
      tick_ms_mean: number;
      port_ms_total: number;
      blocks_written: number;
    };
    console.log(
      `1,000,000 blocks in one schematic_paste call: ${(ms / 1000).toFixed(2)} s (${Math.round(1e6 / (ms / 1000)).toLocaleString("en-US")} blocks/s, preparing included); ${stats.ticks} ticks, max ${stats.tick_ms_max.toFixed(1)} ms, p99 ${stats.tick_ms_p99.toFixed(1)} ms, mean ${stats.tick_ms_mean.toFixed(2)} ms; port work ${stats.port_ms_total.toFixed(0)} ms`,
    );
    expect(stats.blocks_written).toBe(1_000_000);
    expect(stats.tick_ms_max).toBeLessThanOrEqual(STALL_MS);
    expect(ended, host.output().slice(-4000)).toBeNull(); // the server keeps the player (a kick says why)

    // What the player's client holds: a sample of 2,000 positions across the layers, every one as built.
    const expected = new Map<string, string>();
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
    while (expected.size < 2000) {
      const layer = next(10);
      expected.set(`${MIN.x + next(100)},${Y0 + layer * 10 + next(10)},${MIN.z + next(100)}`, LAYERS[layer]!);
    }
    const keys = [...expected.keys()];
    let wrong: string[] = [];
    let held: (string | null)[] = [];
    for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 500))) {
      held = await seen(keys);
      wrong = keys.filter((k, i) => held[i] !== expected.get(k));
      if (wrong.length === 0 || ended !== null || Date.now() > deadline) break;
    }
    // On a failure, say what the client holds there (null: a chunk it has not loaded) and what the server holds.
    const first = wrong[0]?.split(",").map(Number);
    const serverHolds =
      first === undefined
        ? []
        : unwrap(
            await live.engine.regionInspect(live.agent, {
              min: { x: first[0]!, y: first[1]!, z: first[2]! },
              max: { x: first[0]!, y: first[1]!, z: first[2]! },
            }),
          ).palette;
    expect(
      wrong.slice(0, 5).map((k) => `${k}: client ${held[keys.indexOf(k)]}, plan ${expected.get(k)}`),
      JSON.stringify(serverHolds),
    ).toEqual([]);
    expect(ended, host.output().slice(-4000)).toBeNull();

    // mcb status on the server shows the same figures (its last minute of ticks) and the port's queue.
    const state = mkdtempSync(join(tmpdir(), "mcb-status-"));
    try {
      let out = "",
        err = "";
      const io = {
        stdout: { write: (t: string) => (out += t) },
        stderr: { write: (t: string) => (err += t) },
        env: { ...process.env, MCB_PORT_TOKEN: host.token },
      };
      expect(await main(["status", "--world", host.url, "--state", state, "--init", "--json"], io), err).toBe(0);
      const server = (
        JSON.parse(out) as { server: { ticks: number; tick_ms_max: number; tick_ms_p99: number; queue_depth: number; max_queue: number; budget_ms: number } }
      ).server;
      expect(server.ticks).toBeGreaterThan(0);
      expect(server.tick_ms_max).toBeLessThanOrEqual(STALL_MS);
      expect([server.queue_depth, server.max_queue, server.budget_ms]).toEqual([0, 256, 5]);
      out = "";
      expect(await main(["status", "--world", host.url, "--state", state], io), err).toBe(0);
      expect(out).toMatch(/^server ticks \(last \d+\): max [\d.]+ ms, p99 [\d.]+ ms, mean [\d.]+ ms; port queue 0 of 256, budget 5\.0 ms per tick$/m);
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  }, 300_000);
});
