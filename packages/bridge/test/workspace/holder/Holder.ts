import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { cli, root } from "../../support.js";

export type Answer = Record<string, any>;

/**
 * A test file's kit: `state()` makes a state directory, `defer(fn)` runs `fn` after the test; both
 * undone after each test, the last first (clients closed, then holders stopped, then directories removed).
 */
export function holderKit(): { state(): string; defer(fn: () => unknown): void } {
  const undo: (() => unknown)[] = [];
  afterEach(async () => {
    for (const f of undo.splice(0).reverse()) await f();
  });
  return {
    state: () => {
      const d = mkdtempSync(join(tmpdir(), "mcb-holder-"));
      undo.push(() => rmSync(d, { recursive: true, force: true }));
      return d;
    },
    defer: (f) => void undo.push(f),
  };
}

/** A built `mcb` process: its stderr so far, its exit status, and a wait for its stderr to match. */
export interface Started {
  readonly child: ChildProcess;
  stderr(): string;
  readonly exited: Promise<number | null>;
  /** Resolves once stderr matches `re`, or after `timeoutMs` (what follows checks it). */
  until(re: RegExp, timeoutMs?: number): Promise<void>;
}

export function startMcb(args: readonly string[], stdin: "ignore" | "pipe" = "ignore"): Started {
  const child = spawn(process.execPath, [cli, ...args], { cwd: root, stdio: [stdin, "pipe", "pipe"] });
  let err = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  return {
    child,
    stderr: () => err,
    exited: new Promise((r) => child.once("exit", (code) => r(code))),
    until: async (re, timeoutMs = 10_000) => {
      for (let waited = 0; waited < timeoutMs && !re.test(err); waited += 25) await new Promise((r) => setTimeout(r, 25));
    },
  };
}

/** A real `mcb serve` process (the built CLI) on `state`; `port` is its MCP-over-HTTP port when started with --http. */
export interface Served {
  readonly child: ChildProcess;
  readonly port: number;
  readonly stderr: () => string;
  /** Its bearer token, read from the state directory as a person's client configuration would. */
  readonly token: string;
  /** SIGTERM, then its exit status. */
  stop(): Promise<number | null>;
}

export async function serve(state: string, extra: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [cli, "serve", "--state", state, ...extra], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  for (let i = 0; i < 400 && !err.includes("mcb serve: holding"); i++) {
    if (child.exitCode !== null) throw new Error(`mcb serve exited ${child.exitCode}: ${err}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  if (!err.includes("mcb serve: holding")) throw new Error(`mcb serve did not start: ${err}`);
  const m = /MCP over HTTP at http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(err);
  const http = m !== null;
  return {
    child,
    port: http ? Number(m[1]) : 0,
    stderr: () => err,
    token: http && env.MCB_HTTP_TOKEN === undefined ? readFileSync(join(state, "http-token"), "utf8").trim() : (env.MCB_HTTP_TOKEN ?? ""),
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** An MCP client over Streamable HTTP (the SDK's client transport) with the bearer token. */
export async function httpClient(name: string, port: number, token: string): Promise<Client> {
  const c = new Client({ name, version: "1.0.0" });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return c;
}

/** An MCP client over stdio: it starts `mcb mcp` on `state` as a client's configuration does. */
export async function stdioClient(name: string, state: string): Promise<Client> {
  const c = new Client({ name, version: "1.0.0" });
  await c.connect(new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--state", state], cwd: root, stderr: "ignore" }));
  return c;
}

/** A tool's structuredContent; a tool error fails the test with its text. */
export async function call(c: Client, name: string, args: Record<string, unknown> = {}): Promise<Answer> {
  const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
  if (r.isError === true) throw new Error(`${name} failed: ${JSON.stringify(r.content).slice(0, 600)}`);
  return r.structuredContent as Answer;
}

/** A hollow box recipe of `block` from `min` (5 × 6 × 5). */
export function box(x: number, z: number, block = "minecraft:stone_bricks", y = 64): Answer {
  return { version: 1, operations: [{ type: "box", min: { x, y, z }, max: { x: x + 4, y: y + 5, z: z + 4 }, block, hollow: true }] };
}
