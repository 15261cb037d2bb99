import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MemoryWorld } from "@mcb/adapter-memory";
import { blockEntityPredicate } from "@mcb/blocks";
import { Engine, openJournal } from "@mcb/engine";
import { registry } from "../../../blocks/test/registry.js";
import { AcpAgent } from "../../src/chat/AcpAgent.js";
import { CODEX_CONFIG, agentConfigFrom, agentEnvironment, codexAcpPath, ensureCodexConfig } from "../../src/chat/AgentConfig.js";
import { McpRelay } from "../../src/chat/McpRelay.js";
import { createMcbMcpServer, mcpContextFor } from "../../src/index.js";
import { cli, root } from "../support.js";
import { scriptedAgent } from "./ChatProcess.js";

const run = promisify(execFile);
let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), "mcb-relay-"));
  cleanup.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

async function relayWithProject(): Promise<{ relay: McpRelay; token: string }> {
  const dir = tmp();
  const world = new MemoryWorld({ hasBlockEntity: blockEntityPredicate(registry()) });
  const area = { minX: 100, minY: -64, minZ: 100, maxX: 131, maxY: 319, maxZ: 131 };
  const engine = await Engine.open({
    adapter: world,
    journal: openJournal(":memory:"),
    registry: registry(),
    projects: [{ projectId: "bound", ownerId: "alice", area }],
  });
  const relay = await McpRelay.start();
  cleanup.push(() => relay.close());
  const ctx = { principal: { playerId: "alice", role: "agent" as const }, projectId: "bound" };
  const token = relay.grant(() => createMcbMcpServer(mcpContextFor({ engine, registry: registry(), world, dir }, ctx), "test"));
  return { relay, token };
}

async function attach(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [cli, "mcp", "--attach"], { env: { PATH: process.env.PATH ?? "", ...env }, timeout: 15_000 });
    return { code: 0, ...r };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

describe("the MCP relay (mcb mcp --attach)", () => {
  it("serves a real MCP client through `mcb mcp --attach` with the identity bound to the token", async () => {
    const { relay, token } = await relayWithProject();
    expect(relay.address).toMatch(/^127\.0\.0\.1:\d+$/);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, "mcp", "--attach"],
      env: { PATH: process.env.PATH ?? "", MCB_CHAT_MCP: relay.address, MCB_CHAT_MCP_TOKEN: token },
      stderr: "pipe",
    });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(transport);
    cleanup.push(() => client.close());
    const tools = await client.listTools();
    expect(tools.tools.length).toBe(22); // the build toolset and toolsets_enable (mcb chat lists every toolset)
    const ctx = await client.callTool({ name: "project_context", arguments: {} });
    expect(ctx.structuredContent).toMatchObject({ project_id: "bound", area: { min: { x: 100, y: -64, z: 100 } } });
    const forged = await client.callTool({
      name: "build_prepare",
      arguments: { recipe: { version: 1, operations: [{ type: "box", min: { x: 0, y: 0, z: 0 }, max: { x: 0, y: 0, z: 0 }, block: "minecraft:stone" }] } },
    });
    expect(forged.isError).toBe(true);
    expect(JSON.stringify(forged.content)).toMatch(/out_of_bounds/);
  });

  it("refuses a wrong or missing token, a non-loopback address and junk, and never echoes the token", async () => {
    const { relay, token } = await relayWithProject();
    const wrong = await attach({ MCB_CHAT_MCP: relay.address, MCB_CHAT_MCP_TOKEN: `${token}x` });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toBe("");
    expect(JSON.parse(wrong.stderr).error).toMatchObject({ code: "permission_denied" });
    expect(wrong.stderr).not.toContain(token);
    expect((await attach({ MCB_CHAT_MCP: relay.address })).stderr).toMatch(/MCB_CHAT_MCP_TOKEN is missing/);
    const remote = await attach({ MCB_CHAT_MCP: "10.0.0.1:80", MCB_CHAT_MCP_TOKEN: token });
    expect(JSON.parse(remote.stderr).error).toMatchObject({ code: "invalid_request" });
    // raw sockets: a junk greeting is answered ERR and closed; an endless first line is cut off
    const [host, port] = relay.address.split(":");
    const reply = await new Promise<string>((resolve) => {
      const s = connect(Number(port), host!);
      let got = "";
      s.on("data", (d) => (got += d.toString()));
      s.on("close", () => resolve(got));
      s.write("HELLO there\n");
    });
    expect(reply).toBe("ERR unknown token\n");
    const cut = await new Promise<string>((resolve) => {
      const s = connect(Number(port), host!);
      let got = "";
      s.on("data", (d) => (got += d.toString()));
      s.on("close", () => resolve(`closed:${got}`));
      s.on("error", () => undefined);
      s.write("x".repeat(300));
    });
    expect(cut).toBe("closed:");
  });
});

describe("mcb doctor", () => {
  it("prints configuration and what is missing as JSON, secrets only as set/missing", async () => {
    const dir = tmp();
    const env = {
      PATH: process.env.PATH ?? "",
      MCB_ACP_COMMAND: process.execPath,
      MCB_ACP_ARGS: JSON.stringify([scriptedAgent]),
      MCB_OPENAI_API_KEY: "sk-test-never-printed",
    };
    const r = await run(process.execPath, [cli, "doctor", "--state", dir], { env, cwd: root });
    expect(r.stdout).not.toContain("sk-test-never-printed");
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      ok: true,
      secrets: { MCB_OPENAI_API_KEY: "set", MCB_PORT_TOKEN: "missing" },
      agent: {
        configured: true,
        kind: "custom",
        secrets_passed: ["OPENAI_API_KEY"],
        initialize: { ok: true, protocol_version: 1, agent: { name: "scripted-agent" }, load_session: true },
      },
      world: { kind: "embedded" },
      missing: [],
    });
    expect(report.packages["@agentclientprotocol/sdk"]).toBe("2.4.0");
    // Which Minecraft versions this build writes and reads.
    expect(report.minecraft).toMatchObject({
      default: "26.2",
      writes: [
        {
          version: "26.1",
          releases: [
            { release: "26.1", data_version: 4786 },
            { release: "26.1.1", data_version: 4788 },
            { release: "26.1.2", data_version: 4790 },
          ],
        },
        { version: "26.2", releases: [{ release: "26.2", data_version: 4903 }] },
      ],
    });
    expect(report.minecraft.reads.join("\n")).toMatch(/1\.13 to 1\.17.*read-only[\s\S]*1\.12 and older[\s\S]*newer than 26\.2/);
    const bad = await run(process.execPath, [cli, "doctor", "--state", dir, "--world", "port://127.0.0.1:1"], {
      env: { ...env, MCB_ACP_ARGS: "not json", MCB_PORT_TOKEN: "t".repeat(32) },
    }).catch((e: { code: number; stdout: string }) => e);
    expect((bad as { code: number }).code).toBe(1);
    const badReport = JSON.parse((bad as { stdout: string }).stdout);
    expect(badReport.ok).toBe(false);
    expect(badReport.missing.join(" ")).toMatch(/MCB_ACP_ARGS must be a JSON array/);
    expect(badReport.missing.join(" ")).toMatch(/world port did not answer/);
    expect((bad as { stdout: string }).stdout).not.toContain("t".repeat(32));
  });
});

describe("the pinned codex-acp", () => {
  const codex = codexAcpPath();
  it.skipIf(codex === null)("starts and answers ACP initialize (no model is contacted)", async () => {
    const dir = tmp();
    const config = agentConfigFrom({}, dir);
    expect(config).toMatchObject({ ok: true, value: { kind: "codex-acp" } });
    if (!config.ok) return;
    const agent = await AcpAgent.start(
      { command: config.value.command, args: config.value.args, cwd: dir, env: agentEnvironment(config.value, process.env, join(dir, "home")) },
      {
        permission: () => ({ outcome: { outcome: "cancelled" } }),
        update: () => undefined,
        log: () => undefined,
      },
    );
    expect(agent.init.protocolVersion).toBe(1);
    expect(agent.init.agentInfo).toMatchObject({ name: "codex-acp", version: "0.16.0" });
    expect(agent.canLoadSession).toBe(true);
    expect(agent.init.agentCapabilities?.mcpCapabilities).toBeDefined();
    // its separate home got our minimal configuration (0600), and Codex started with it
    const written = join(config.value.codexHome, "config.toml");
    expect(readFileSync(written, "utf8")).toBe(CODEX_CONFIG);
    expect(statSync(written).mode & 0o777).toBe(0o600);
    writeFileSync(written, "# the user's own\n");
    expect(ensureCodexConfig(config.value.codexHome)).toBe("kept");
    expect(readFileSync(written, "utf8")).toBe("# the user's own\n");
    await agent.kill();
    // the Node launcher and the native binary it runs are both gone
    const ps = await run("ps", ["-eo", "args"]);
    expect(ps.stdout.split("\n").filter((l) => l.includes(join(dir, "home")) || (l.includes("codex-acp-") && l.includes("/bin/codex-acp")))).toEqual([]);
  });
  it.skipIf(codex === null)(
    "with a key in its environment it authenticates, opens a read-only session with a model selector, and launches our MCP server from session/new",
    async () => {
      const dir = tmp();
      const config = agentConfigFrom({ MCB_OPENAI_API_KEY: "sk-not-a-real-key" }, dir);
      if (!config.ok) throw new Error(config.error.message);
      const env = agentEnvironment(config.value, process.env, join(dir, "home"));
      const agent = await AcpAgent.start(
        { command: config.value.command, args: config.value.args, cwd: join(dir, "work"), env },
        {
          permission: () => ({ outcome: { outcome: "cancelled" } }),
          update: () => undefined,
          log: () => undefined,
        },
      );
      cleanup.push(() => agent.kill());
      expect(await agent.authenticateFromEnv(env)).toBe("openai-api-key");
      const { relay } = await relayWithProject();
      let attached = 0;
      const token = relay.grant(() => {
        attached++;
        return { connect: async () => undefined, close: async () => undefined };
      });
      const session = await agent.newSession(join(dir, "work"), {
        name: "minecraft-builder",
        command: process.execPath,
        args: [cli, "mcp", "--attach"],
        env: [
          { name: "MCB_CHAT_MCP", value: relay.address },
          { name: "MCB_CHAT_MCP_TOKEN", value: token },
        ],
      });
      expect(session.modes?.currentModeId).toBe("read-only"); // our config.toml in its separate home
      expect(session.configOptions?.some((o) => o.category === "model" && o.type === "select")).toBe(true);
      for (let i = 0; i < 200 && attached === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(attached).toBeGreaterThanOrEqual(1); // codex started `mcb mcp --attach`, which presented the token
    },
    30_000,
  );

  it("is installed by npm ci with the binary for this platform, so the two tests above run here", () => {
    expect(codex, "npm ci did not install the optional @zed-industries/codex-acp: the chat's default agent is missing").not.toBeNull();
    const require = createRequire(codex!);
    const platforms = Object.keys((require("../package.json") as { optionalDependencies?: Record<string, string> }).optionalDependencies ?? {});
    const own = `@zed-industries/codex-acp-${process.platform}-${process.arch}`;
    expect(platforms).toContain(own); // the platforms CI and the README's set-up run on
    expect(existsSync(require.resolve(`${own}/package.json`))).toBe(true);
  });
});
