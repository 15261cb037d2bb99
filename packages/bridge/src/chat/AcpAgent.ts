import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

/** How to start the agent: a program and arguments (no shell), its environment and directory. */
export interface AgentLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

export interface AgentHandlers {
  /** `session/request_permission`, answered by policy. */
  permission(request: acp.RequestPermissionRequest): acp.RequestPermissionResponse;
  /** `session/update`, in arrival order. */
  update(notification: acp.SessionNotification): void;
  /** One line of the agent's stderr (diagnostics; never shown in game). */
  log(line: string): void;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    /* the group is gone */
  }
}

/** How long `initialize` may take before the agent counts as broken. */
const INITIALIZE_TIMEOUT_MS = 30_000;

/**
 * One agent process spoken to over ACP on its stdio, with `@agentclientprotocol/sdk` 2.x's client
 * API. We advertise no file-system or terminal capability: the agent acts on the world only
 * through the MCP server we give it.
 */
export class AcpAgent {
  private exitedFlag = false;

  private constructor(
    private readonly child: ChildProcess,
    private readonly conn: acp.ClientConnection,
    readonly init: acp.InitializeResponse,
    readonly exited: Promise<number | null>,
  ) {
    void exited.then(() => (this.exitedFlag = true));
  }

  static async start(launch: AgentLaunch, handlers: AgentHandlers): Promise<AcpAgent> {
    mkdirSync(launch.cwd, { recursive: true, mode: 0o700 });
    // Its own process group: a launcher (codex-acp's Node wrapper runs the real binary as a child)
    // is stopped together with everything it started.
    const child = spawn(launch.command, [...launch.args], { cwd: launch.cwd, env: { ...launch.env }, stdio: ["pipe", "pipe", "pipe"], detached: true });
    const exited = new Promise<number | null>((resolve) => {
      child.once("exit", (code, signal) => {
        handlers.log(`exited (${signal !== null ? `signal ${signal}` : `code ${code}`})`);
        resolve(code);
      });
      child.once("error", (e) => {
        handlers.log(`cannot start the agent: ${e.message}`);
        resolve(null);
      });
    });
    let partial = "";
    child.stderr!.setEncoding("utf8").on("data", (d: string) => {
      const lines = (partial + d).split("\n");
      partial = lines.pop()!.slice(0, 2000);
      for (const l of lines) if (l.trim().length > 0) handlers.log(l.slice(0, 500));
    });
    const stream = acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
    const app = acp
      .client({ name: "mcb-chat" })
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => handlers.permission(params))
      .onNotification(acp.methods.client.session.update, ({ params }) => handlers.update(params));
    const conn = app.connect(stream);
    void exited.then(() => conn.close(new Error("the agent process exited")));
    try {
      const init = await Promise.race([
        conn.agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
          clientInfo: { name: "mcb", version: "0.1.0" },
        }),
        exited.then((code) => Promise.reject(new Error(`the agent exited (code ${code}) before answering initialize`))),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`the agent did not answer initialize within ${INITIALIZE_TIMEOUT_MS / 1000} s`)), INITIALIZE_TIMEOUT_MS).unref(),
        ),
      ]);
      return new AcpAgent(child, conn, init, exited);
    } catch (e) {
      signalGroup(child, "SIGKILL");
      conn.close(e);
      throw e;
    }
  }

  /**
   * Authenticates with the first advertised environment-variable method whose variables are all
   * set in the agent's environment (e.g. codex-acp's `openai-api-key`); the value never leaves
   * that environment. Returns the method id, or null when none applies.
   */
  async authenticateFromEnv(env: Readonly<Record<string, string>>): Promise<string | null> {
    for (const m of this.init.authMethods ?? []) {
      const vars = "vars" in m && Array.isArray(m.vars) ? (m.vars as { name: string }[]) : null;
      if (vars === null || vars.length === 0 || !vars.every((v) => typeof env[v.name] === "string" && env[v.name]!.length > 0)) continue;
      await this.conn.agent.request(acp.methods.agent.authenticate, { methodId: m.id });
      return m.id;
    }
    return null;
  }

  /** False once the process exited or its ACP connection closed (whichever is seen first). */
  get alive(): boolean {
    return !this.exitedFlag && !this.conn.signal.aborted;
  }

  get canLoadSession(): boolean {
    return this.init.agentCapabilities?.loadSession === true;
  }

  async newSession(cwd: string, mcp: acp.McpServerStdio): Promise<acp.NewSessionResponse> {
    return this.conn.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [mcp] });
  }

  /**
   * Selects `model` through the session's advertised model selector (a config option of category
   * "model"). Returns what happened; an unknown model leaves the agent's default.
   */
  async selectModel(
    sessionId: string,
    options: readonly acp.SessionConfigOption[] | null | undefined,
    model: string,
  ): Promise<"selected" | "no_selector" | "not_offered"> {
    const selector = (options ?? []).find((o) => o.category === "model" && o.type === "select");
    if (selector === undefined || selector.type !== "select") return "no_selector";
    const values = selector.options.flatMap((o) => ("options" in o ? o.options.map((x) => x.value) : [o.value]));
    if (!values.includes(model)) return "not_offered";
    await this.conn.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: selector.id, value: model });
    return "selected";
  }

  /** Resumes a stored session (history replayed by the agent is the caller's to suppress). */
  async loadSession(sessionId: string, cwd: string, mcp: acp.McpServerStdio): Promise<void> {
    await this.conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [mcp] });
  }

  prompt(sessionId: string, prompt: acp.ContentBlock[]): Promise<acp.PromptResponse> {
    return this.conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt });
  }

  async cancel(sessionId: string): Promise<void> {
    await this.conn.agent.notify(acp.methods.agent.session.cancel, { sessionId }).catch(() => undefined);
  }

  /** Ends the agent and every process it started (SIGTERM to its group, SIGKILL after 2 s). */
  async kill(): Promise<void> {
    this.conn.close();
    for (const s of [this.child.stdin, this.child.stdout, this.child.stderr]) s?.destroy();
    signalGroup(this.child, "SIGTERM");
    const t = setTimeout(() => signalGroup(this.child, "SIGKILL"), 2000);
    await this.exited;
    clearTimeout(t);
    signalGroup(this.child, "SIGKILL"); // anything of the group still running
  }
}
