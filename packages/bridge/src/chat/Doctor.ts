import { inspectSave, saveVersionOf, supportedVersions } from "@mcb/adapter-anvil";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PortClient } from "@mcb/adapter-port";
import type { WorldLocation } from "../workspace/world/Workspace.js";
import { AcpAgent } from "./AcpAgent.js";
import { agentConfigFrom, agentEnvironment, codexAcpPath } from "./AgentConfig.js";
import { projectWorkDir } from "./ProjectTurns.js";

/** The installed version of a package (found from its resolved entry point: exports may hide package.json). */
function version(pkg: string, entry?: string): string | null {
  try {
    let dir = dirname(entry ?? fileURLToPath(import.meta.resolve(pkg)));
    for (let i = 0; i < 8; i++, dir = dirname(dir)) {
      try {
        const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
        if (meta.name === pkg) return meta.version ?? null;
      } catch {
        /* keep looking up */
      }
    }
  } catch {
    /* not installed */
  }
  return null;
}

function codexPackageVersion(): string | null {
  const bin = codexAcpPath();
  return bin === null ? null : version("@zed-industries/codex-acp", bin);
}

const SECRET_NAMES = ["MCB_PORT_TOKEN", "MCB_OPENAI_API_KEY", "MCB_CODEX_API_KEY"] as const;

/**
 * `mcb doctor`: what is configured and what is missing, as JSON (secrets only as set/missing).
 * Starts the agent and asks ACP `initialize` (no model is contacted), and asks a world port's
 * `/health` when `--world` is given.
 */
export async function doctorReport(where: WorldLocation, env: NodeJS.ProcessEnv = process.env): Promise<Record<string, unknown> & { readonly ok: boolean }> {
  const dir = resolve(where.dir);
  const missing: string[] = [];
  const secrets = Object.fromEntries(SECRET_NAMES.map((k) => [k, env[k] !== undefined && env[k]!.length > 0 ? "set" : "missing"]));
  const agent = await agentReport(dir, env, missing);
  const world = await worldReport(where, dir, missing);
  return {
    ok: missing.length === 0,
    node: process.version,
    packages: {
      "@agentclientprotocol/sdk": version("@agentclientprotocol/sdk"),
      "@modelcontextprotocol/sdk": version("@modelcontextprotocol/sdk"),
      "@zed-industries/codex-acp": codexPackageVersion(),
    },
    secrets,
    agent,
    minecraft: supportedVersions(),
    world,
    missing,
  };
}

/** The agent's configuration, and its answer to ACP `initialize`; what is missing is added to `missing`. */
async function agentReport(dir: string, env: NodeJS.ProcessEnv, missing: string[]): Promise<Record<string, unknown>> {
  const config = agentConfigFrom(env, dir);
  if (!config.ok) {
    missing.push(config.error.message);
    return { configured: false };
  }
  const c = config.value;
  const agent: Record<string, unknown> = {
    configured: true,
    kind: c.kind,
    command: c.command,
    args: c.args,
    codex_home: c.codexHome,
    model: c.model,
    secrets_passed: Object.keys(c.secrets),
  };
  try {
    const a = await AcpAgent.start(
      { command: c.command, args: c.args, cwd: projectWorkDir(dir, "doctor"), env: agentEnvironment(c, env, resolve(dir, "chat", "agent-home")) },
      {
        permission: () => ({ outcome: { outcome: "cancelled" } }),
        update: () => undefined,
        log: () => undefined,
      },
    );
    agent.initialize = {
      ok: true,
      protocol_version: a.init.protocolVersion,
      agent: a.init.agentInfo ?? null,
      load_session: a.canLoadSession,
      mcp_stdio: true,
      auth_methods: (a.init.authMethods ?? []).map((m) => m.id),
    };
    await a.kill();
  } catch (e) {
    agent.initialize = { ok: false, error: (e as Error).message };
    missing.push(`the agent did not start: ${(e as Error).message}`);
  }
  if (c.kind === "codex-acp" && Object.keys(c.secrets).length === 0)
    missing.push(
      "no model credentials: set MCB_OPENAI_API_KEY or MCB_CODEX_API_KEY (the agent receives it as OPENAI_API_KEY / CODEX_API_KEY; see agent.initialize.auth_methods)",
    );
  return agent;
}

/** The world: the embedded one, a save (its version and access), or a port (its `/health`); what is missing is added to `missing`. */
async function worldReport(where: WorldLocation, dir: string, missing: string[]): Promise<Record<string, unknown>> {
  if (where.target.portUrl !== undefined) {
    const world: Record<string, unknown> = { kind: "port", url: where.target.portUrl, state_dir: dir };
    if (where.target.portToken === undefined) missing.push("MCB_PORT_TOKEN is not set (the world port's token)");
    else
      try {
        const client = new PortClient({ url: where.target.portUrl, token: where.target.portToken });
        world.health = await client.health();
        client.close();
      } catch (e) {
        world.health = { ok: false, error: (e as Error).message };
        missing.push(`the world port did not answer: ${(e as Error).message}`);
      }
    return world;
  }
  if (where.target.savePath === undefined) return { kind: "embedded", state_dir: dir };
  const world: Record<string, unknown> = { kind: "save", path: where.target.savePath, state_dir: dir };
  try {
    const save = inspectSave(where.target.savePath);
    const v = saveVersionOf(save.dataVersion, save.versionName, undefined);
    world.save = {
      layout: save.layout,
      data_version: save.dataVersion,
      release: v.ok ? v.value.release : null,
      level_name: save.levelName,
      access: v.ok ? (v.value.access.mode === "edit" ? "read and write" : `read-only: ${v.value.access.message}`) : v.error.message,
    };
  } catch (e) {
    world.save = { ok: false, error: (e as Error).message };
    missing.push(`the save cannot be used: ${(e as Error).message}`);
  }
  return world;
}
