import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { PortCallError } from "@mcb/adapter-port";
import { afterAll, describe, expect, it } from "vitest";
import { JAVA, LiveEngine, MINESTOM_JAR, boxRecipe, freePort, startMinestomHost, unwrap, type MinestomHost } from "../src/index.js";

/**
 * Live servers lose nothing (docs/DESIGN.md "Saved writes", "Worlds"): a real Minestom host is
 * killed with SIGKILL right after an operation was reported applied, and restarted on the same
 * world folder; the engine finds out what the server had saved. No autosave runs during these
 * tests (--autosave-ms 600000): only what `flush` saved is on disk.
 */
const STONE = "minecraft:stone";
const NEVER = 600_000;
const root = fileURLToPath(new URL("../../", import.meta.url));
const cli = join(root, "packages/bridge/dist/bin.js");

function restartOf(first: MinestomHost): Promise<MinestomHost> {
  return startMinestomHost({ worldDir: first.worldDir, gamePort: first.gamePort, httpPort: first.httpPort, token: first.token, autosaveMs: NEVER });
}

async function countState(
  live: LiveEngine,
  box: { minX: number; minY: number; minZ: number; maxX: number; maxY: number; maxZ: number },
  state: string,
): Promise<number> {
  const r = await live.port.read(box);
  return [...r.states].filter((i) => r.palette[i] === state).length;
}

describe("live: a server killed right after an operation was applied", () => {
  const hosts: MinestomHost[] = [];
  const lives: LiveEngine[] = [];

  afterAll(async () => {
    for (const l of lives) await l.close();
    for (const h of hosts) await h.stop();
    hosts[0]?.dispose();
  });

  it("kill -9 within 50 ms of `applied`: after the restart the operation is recovery_required and its review lists exactly the lost blocks", async () => {
    const first = await startMinestomHost({ autosaveMs: NEVER });
    hosts.push(first);
    const live = await LiveEngine.open(first, { sliceSize: 256 });
    lives.push(live);
    const box = { minX: -40, minY: 64, minZ: -40, maxX: -9, maxY: 67, maxZ: -25 }; // 2048 blocks of air
    const plan = unwrap(
      await live.engine.buildPrepare(live.agent, {
        recipe: boxRecipe({ x: box.minX, y: box.minY, z: box.minZ }, { x: box.maxX, y: box.maxY, z: box.maxZ }, STONE),
      }),
    );
    const op = unwrap(await live.engine.buildApply(live.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "lost" }));
    await live.engine.settle();
    const applied = unwrap(await live.engine.operationStatus(live.agent, { operation_id: op.operation_id }));
    expect([applied.status, applied.saved]).toEqual(["applied", false]);
    await first.kill(); // right away: the port answered, the server never saved

    const second = await restartOf(first);
    hosts.push(second);
    await live.reopen(second);
    const stones = await countState(live, box, STONE);
    const after = unwrap(await live.engine.operationStatus(live.agent, { operation_id: op.operation_id }));
    expect(stones).toBe(0); // no autosave ran and nothing was flushed: the server saved none of it (the saved case is the next test)
    // Nothing silent: the operation waits for review, naming what was lost.
    expect(after).toMatchObject({ status: "recovery_required", saved: false, error: { code: "lost_after_host_crash" }, counters: { lost: 2048 - stones } });
    expect(unwrap(await live.engine.projectContext(live.agent)).recovery_required).toEqual([op.operation_id]);
    const review = unwrap(await live.engine.recoveryReview(live.admin, { operation_id: op.operation_id }));
    expect(review.lost).toBe(2048 - stones);
    expect([review.matchesBefore, review.matchesAfter]).toEqual([2048 - stones, stones]);
    expect(review.lostBoxes).toEqual([box]);
    // The administrator accepts the world as it is; building again restores the lost blocks.
    const done = unwrap(await live.engine.recoveryAbandon(live.admin, { operation_id: op.operation_id, expected_digest: review.currentDigest }));
    expect(done).toMatchObject({ status: "failed", counters: { lost: 2048 - stones } });
    const again = unwrap(
      await live.engine.buildPrepare(live.agent, {
        recipe: boxRecipe({ x: box.minX, y: box.minY, z: box.minZ }, { x: box.maxX, y: box.maxY, z: box.maxZ }, STONE),
      }),
    );
    expect(again.changed_blocks).toBe(2048 - stones);
  }, 120_000);

  it("with wait-for-saved (flush) before the kill, nothing is lost", async () => {
    const first = await startMinestomHost({ autosaveMs: NEVER });
    hosts.push(first);
    const live = await LiveEngine.open(first, { sliceSize: 256 });
    lives.push(live);
    const box = { minX: 10, minY: 64, minZ: 10, maxX: 41, maxY: 67, maxZ: 25 };
    const plan = unwrap(
      await live.engine.buildPrepare(live.agent, {
        recipe: boxRecipe({ x: box.minX, y: box.minY, z: box.minZ }, { x: box.maxX, y: box.maxY, z: box.maxZ }, STONE),
      }),
    );
    const op = unwrap(await live.engine.buildApply(live.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "saved" }));
    await live.engine.settle();
    const flushed = unwrap(await live.engine.flush(live.agent));
    expect(flushed.saved_through).toBeGreaterThan(0);
    expect(unwrap(await live.engine.operationStatus(live.agent, { operation_id: op.operation_id })).saved).toBe(true);
    await first.kill();

    const second = await restartOf(first);
    hosts.push(second);
    await live.reopen(second);
    expect(await countState(live, box, STONE)).toBe(2048);
    expect(unwrap(await live.engine.operationStatus(live.agent, { operation_id: op.operation_id }))).toMatchObject({
      status: "applied",
      saved: true,
      counters: { lost: 0 },
    });
    expect(live.engine.lastCheck.lost).toEqual([]);
  }, 120_000);
});

describe("live: one host per world, a hardened port", () => {
  let host: MinestomHost;

  afterAll(async () => {
    await host?.stop();
    host?.dispose();
  });

  it("a second host on the same world folder exits non-zero before writing anything", async () => {
    host = await startMinestomHost({ autosaveMs: NEVER });
    const child = spawn(
      JAVA,
      ["-jar", MINESTOM_JAR, "--world", host.worldDir, "--game-port", String(await freePort()), "--http-port", String(await freePort())],
      {
        env: { ...process.env, MCB_PORT_TOKEN: host.token },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
    expect(code).toBe(1);
    expect(err).toContain("is in use by another server");
    expect(err).not.toContain("Exception");
  }, 60_000);

  it("read boxes past 32-bit sizes are 4xx, and 40 idle connections without the token do not stop a client with it", async () => {
    const live = await LiveEngine.open(host);
    try {
      for (const box of [
        { min: { x: 0, y: -2147483648, z: 0 }, max: { x: 0, y: 2147483647, z: 0 } },
        { min: { x: 0, y: 0, z: 0 }, max: { x: 2147483647, y: 0, z: 0 } },
      ]) {
        const e = await live.port.port.call("read", { box }, true).then(
          () => null,
          (x: unknown) => x,
        );
        expect(e).toBeInstanceOf(PortCallError);
        expect([(e as PortCallError).status, (e as PortCallError).code]).toEqual([413, "budget_exceeded"]);
      }
      const idle: Socket[] = [];
      for (let i = 0; i < 40; i++) idle.push(connect(host.httpPort, "127.0.0.1"));
      await new Promise((r) => setTimeout(r, 400));
      try {
        const info = await live.port.info(); // a new connection, authenticated at once
        expect(info.worldId).toBeTruthy();
      } finally {
        for (const s of idle) s.destroy();
      }
    } finally {
      await live.close();
    }
  }, 60_000);
});

describe("live: mcb mcp survives a restart of the server", () => {
  let first: MinestomHost;
  let second: MinestomHost | undefined;
  let client: Client;
  const state = mkdtempSync(join(tmpdir(), "mcb-live-restart-"));

  afterAll(async () => {
    await client?.close();
    await second?.stop();
    await first?.stop();
    first?.dispose();
    rmSync(state, { recursive: true, force: true });
  });

  async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  it("while the server is down tools answer busy host_down with retry_after_ms; after it is back the next calls work, and a lost write is reported", async () => {
    first = await startMinestomHost({ autosaveMs: NEVER });
    const env: Record<string, string> = { ...(process.env as Record<string, string>), MCB_PORT_TOKEN: first.token };
    client = new Client({ name: "mcb-live-restart", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--world", first.url, "--state", state], cwd: root, env, stderr: "pipe" }),
    );
    const recipe = boxRecipe({ x: 30, y: 64, z: -30 }, { x: 33, y: 64, z: -27 }, STONE);
    const plan = (await call("build_prepare", { recipe })).structuredContent as { plan_id: string; plan_hash: string };
    const op = (await call("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "before-crash", wait_ms: 5000 }))
      .structuredContent as { operation_id: string; status: string; saved: boolean };
    expect([op.status, op.saved]).toEqual(["applied", false]);
    await first.kill();

    const down = await call("project_context");
    expect(down.isError).toBe(true);
    const body = JSON.parse((down.content[0] as { text: string }).text) as {
      error: { code: string; retryable: boolean; details: { reason: string; retry_after_ms?: number } };
    };
    expect(body.error).toMatchObject({ code: "busy", retryable: true, details: { reason: "host_down" } });
    expect(typeof body.error.details.retry_after_ms).toBe("number");

    second = await restartOf(first);
    let context: CallToolResult | null = null;
    for (let i = 0; i < 100; i++) {
      context = await call("project_context");
      if (!context.isError) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(context?.isError).toBeFalsy();
    // The write the server never saved is reported, not silently "applied".
    const status = (await call("operation_status", { operation_id: op.operation_id })).structuredContent as {
      status: string;
      error: { code: string } | null;
      counters: { lost: number };
    };
    expect(status).toMatchObject({ status: "recovery_required", error: { code: "lost_after_host_crash" }, counters: { lost: 16 } });
    expect((context!.structuredContent as { recovery_required: string[] }).recovery_required).toEqual([op.operation_id]);
  }, 180_000);
});

describe("live: mcb build when its server dies mid-apply", () => {
  let first: MinestomHost;
  let second: MinestomHost | undefined;
  const dir = mkdtempSync(join(tmpdir(), "mcb-live-cli-"));

  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    first?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("waits for the server to come back, then names the operation and what became of it (exit 3)", async () => {
    first = await startMinestomHost({ autosaveMs: NEVER });
    expect(first.output()).toMatch(/ INFO mcb\.Main: started: world /); // one line per event on stderr
    expect(first.output()).not.toContain("NOP"); // SLF4J is bound (no "NOP logger" warning)
    const recipe = join(dir, "box.json");
    writeFileSync(recipe, JSON.stringify(boxRecipe({ x: -50, y: 84, z: -50 }, { x: 49, y: 93, z: 49 }, STONE)));
    const child = spawn(process.execPath, [cli, "build", recipe, "--world", first.url, "--state", join(dir, "state"), "--max-rate", "20000"], {
      cwd: root,
      env: { ...process.env, MCB_PORT_TOKEN: first.token },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "",
      err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const started = new Promise<void>((resolve) =>
      child.stderr.on("data", (d: Buffer) => {
        err += d.toString();
        if (/writes 100000 blocks/.test(err)) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
    await started;
    await new Promise((r) => setTimeout(r, 700)); // a few slices in (20,000 blocks/s)
    await first.kill();
    second = await restartOf(first);
    const code = await exited;
    const id = /operation (op_\w+) writes/.exec(err)![1]!;
    expect(err).toContain(`the world's server went away during operation ${id}`);
    expect(code).toBe(3);
    expect(out).toMatch(new RegExp(`operation ${id} recovery_required`));
  }, 120_000);
});
