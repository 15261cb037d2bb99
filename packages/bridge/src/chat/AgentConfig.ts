import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fail, mcbError, ok, type Result } from "@mcb/blocks";

/** The agent program and how it is set up, from environment variables only (docs/CHAT.md "Agent and secrets"). */
export interface AgentConfig {
  readonly command: string;
  readonly args: readonly string[];
  /** "codex-acp" when the pinned optional dependency is used, else "custom". */
  readonly kind: "codex-acp" | "custom";
  /** Separate home for Codex (sign-in, config); never the user's ~/.codex. */
  readonly codexHome: string;
  readonly model: string | null;
  /** Secrets passed to the agent, by the name the agent reads (values never printed). */
  readonly secrets: Readonly<Record<string, string>>;
}

/** Environment variables the agent inherits from ours (everything else is dropped). */
const INHERITED = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "SYSTEMROOT", "NO_COLOR"];

/** Path of the pinned `@zed-industries/codex-acp` launcher, or null when the optional package is absent. */
export function codexAcpPath(): string | null {
  try {
    const path = createRequire(import.meta.url).resolve("@zed-industries/codex-acp/bin/codex-acp.js");
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

/**
 * MCB_ACP_COMMAND (a program path) with MCB_ACP_ARGS (a JSON array of strings, no shell), or by
 * default the locally installed pinned codex-acp run by this Node. MCB_CODEX_HOME or
 * `<state>/chat/codex-home`; MCB_MODEL; MCB_OPENAI_API_KEY / MCB_CODEX_API_KEY become the agent's
 * OPENAI_API_KEY / CODEX_API_KEY (our own OPENAI_API_KEY is not inherited).
 */
export function agentConfigFrom(env: NodeJS.ProcessEnv, stateDir: string): Result<AgentConfig> {
  let args: string[] = [];
  if (env.MCB_ACP_ARGS !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(env.MCB_ACP_ARGS);
    } catch {
      parsed = null;
    }
    if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === "string") || parsed.length > 64)
      return fail(mcbError("invalid_request", "MCB_ACP_ARGS must be a JSON array of at most 64 strings", { reason: "MCB_ACP_ARGS" }));
    args = parsed as string[];
  }
  const secrets: Record<string, string> = {};
  if (env.MCB_OPENAI_API_KEY) secrets.OPENAI_API_KEY = env.MCB_OPENAI_API_KEY;
  if (env.MCB_CODEX_API_KEY) secrets.CODEX_API_KEY = env.MCB_CODEX_API_KEY;
  const codexHome = env.MCB_CODEX_HOME ?? join(stateDir, "chat", "codex-home");
  const model = env.MCB_MODEL && env.MCB_MODEL.length > 0 ? env.MCB_MODEL : null;
  if (env.MCB_ACP_COMMAND !== undefined && env.MCB_ACP_COMMAND.length > 0)
    return ok({ command: env.MCB_ACP_COMMAND, args, kind: "custom", codexHome, model, secrets });
  const codex = codexAcpPath();
  if (codex === null)
    return fail(
      mcbError(
        "not_found",
        "no agent: the optional @zed-industries/codex-acp is not installed (npm ci installs it where its platform package exists) and MCB_ACP_COMMAND is not set",
        { reason: "agent_missing" },
      ),
    );
  return ok({ command: process.execPath, args: [codex, ...args], kind: "codex-acp", codexHome, model, secrets });
}

/** The minimal Codex configuration written into a new, separate CODEX_HOME (never over an existing one). */
export const CODEX_CONFIG = `# Written by mcb chat for its own Codex home: the agent builds through the minecraft-builder MCP
# server; it does not need to write files, run commands with network access, or skip approvals.
sandbox_mode = "read-only"
approval_policy = "on-request"

[sandbox_workspace_write]
network_access = false
`;

/** Writes CODEX_CONFIG as `config.toml` (0600) when the Codex home has none; an existing file is the user's and is kept. */
export function ensureCodexConfig(codexHome: string): "written" | "kept" {
  mkdirSync(codexHome, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(join(codexHome, "config.toml"), CODEX_CONFIG, { flag: "wx", mode: 0o600 });
    return "written";
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return "kept";
    throw e;
  }
}

/** The agent's environment: the inherited allowlist, its own HOME and CODEX_HOME, and the secrets. */
export function agentEnvironment(config: AgentConfig, env: NodeJS.ProcessEnv, home: string): Record<string, string> {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  mkdirSync(config.codexHome, { recursive: true, mode: 0o700 });
  if (config.kind === "codex-acp") ensureCodexConfig(config.codexHome);
  const out: Record<string, string> = {};
  for (const k of INHERITED) if (env[k] !== undefined) out[k] = env[k]!;
  out.HOME = home;
  out.XDG_CONFIG_HOME = join(home, ".config");
  out.CODEX_HOME = config.codexHome;
  out.NO_BROWSER = "1";
  return { ...out, ...config.secrets };
}
