import { execFile } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ProgressNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { cli, root } from "../support.js";
import { call, httpClient, serve, type Served, holderKit } from "../workspace/holder/Holder.js";

const run = promisify(execFile);
const kit = holderKit();

async function served(env: Record<string, string> = {}): Promise<{ state: string; s: Served }> {
  const state = kit.state();
  const s = await serve(state, ["--http", "0"], env);
  kit.defer(() => s.stop());
  return { state, s };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/** One POST of an initialize with these headers (node:http, so Host can be anything); status and body. */
function post(port: number, headers: Record<string, string>, host = "127.0.0.1"): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host, port, path: "/mcp", method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(INITIALIZE);
  });
}

/** The inspector's CLI (a peer MCP client). It reads its own package.json relative to the working directory, so it runs from its build folder. */
async function inspector(url: string, token: string, ...args: string[]): Promise<any> {
  const dir = join(root, "node_modules/@modelcontextprotocol/inspector-cli/build");
  const { stdout } = await run(process.execPath, [join(dir, "index.js"), url, "--header", `Authorization: Bearer ${token}`, ...args], {
    cwd: dir,
    timeout: 30_000,
  });
  return JSON.parse(stdout);
}

describe("mcb serve --http: MCP over Streamable HTTP on 127.0.0.1", () => {
  it("a peer client (the inspector's CLI) lists the tools and calls project_context and build_prepare", async () => {
    const { s } = await served();
    const url = `http://127.0.0.1:${s.port}/mcp`;
    const listed = await inspector(url, s.token, "--method", "tools/list");
    expect(listed.tools.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(["project_context", "build_prepare", "build_apply", "operation_list"]),
    );
    const context = await inspector(url, s.token, "--method", "tools/call", "--tool-name", "project_context");
    expect(context.structuredContent).toMatchObject({ project_id: "default", description: "embedded default world" });
    const recipe = { version: 1, operations: [{ type: "box", min: { x: 0, y: 70, z: 0 }, max: { x: 2, y: 72, z: 2 }, block: "minecraft:stone" }] };
    const plan = await inspector(url, s.token, "--method", "tools/call", "--tool-name", "build_prepare", "--tool-arg", `recipe=${JSON.stringify(recipe)}`);
    expect(plan.isError).not.toBe(true);
    expect(plan.structuredContent).toMatchObject({ changed_blocks: 27, plan_id: expect.stringMatching(/^plan_/) });
  }, 60_000);

  it("refuses a request without the token, with a wrong one, from a foreign Origin or for a foreign Host, and is not reachable off loopback; nothing runs", async () => {
    const { state, s } = await served();
    const ok = { authorization: `Bearer ${s.token}` };
    const noToken = await post(s.port, {});
    expect(noToken.status).toBe(401);
    expect(noToken.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(noToken.body).not.toContain(s.token);
    expect((await post(s.port, { authorization: `Bearer ${s.token.slice(0, -1)}x` })).status).toBe(401);
    expect((await post(s.port, { authorization: s.token })).status).toBe(401); // not a bearer
    const foreign = await post(s.port, { ...ok, origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.message).toMatch(/Origin/);
    // DNS rebinding: a page's own name resolving to 127.0.0.1 still says so in Host.
    expect((await post(s.port, { ...ok, host: `evil.example:${s.port}` })).status).toBe(403);
    // The same origin and host as a local client: served.
    expect((await post(s.port, { ...ok, origin: `http://localhost:${s.port}` })).status).toBe(200);
    // Not reachable at any non-loopback address of this machine (bound to 127.0.0.1 only).
    const outside = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i !== undefined && !i.internal && i.family === "IPv4")
      .map((i) => i!.address);
    for (const address of outside) {
      const reached = await new Promise<string>((resolve) => {
        const c = connect({ host: address, port: s.port });
        c.once("connect", () => (c.destroy(), resolve("connected")));
        c.once("error", (e) => resolve((e as NodeJS.ErrnoException).code ?? "error"));
      });
      expect(reached, address).toBe("ECONNREFUSED");
    }
    // The token files are the person's only (0600), and nothing was run by the refused requests.
    expect(statSync(join(state, "http-token")).mode & 0o777).toBe(0o600);
    expect(statSync(join(state, "holder.json")).mode & 0o777).toBe(0o600);
    const c = await httpClient("after", s.port, s.token);
    try {
      expect((await call(c, "operation_list", {})).operations).toEqual([]);
    } finally {
      await c.close();
    }
    expect(s.stderr()).not.toContain(s.token);
    expect(readFileSync(join(state, "http-token"), "utf8").trim()).toBe(s.token);
  }, 60_000);

  it("takes the token from MCB_HTTP_TOKEN (then no token file), and refuses one too short to be a secret", async () => {
    const token = "a-token-of-the-persons-own-choosing-0123";
    const { state, s } = await served({ MCB_HTTP_TOKEN: token });
    expect(s.stderr()).toContain("bearer token from MCB_HTTP_TOKEN");
    expect(() => statSync(join(state, "http-token"))).toThrow();
    const c = await httpClient("env", s.port, token);
    await c.close();
    await expect(serve(kit.state(), ["--http", "0"], { MCB_HTTP_TOKEN: "short" })).rejects.toThrow(/MCB_HTTP_TOKEN must be 24 to 512/);
  }, 60_000);

  it("the README's two client configurations connect as written (the port and the token put in)", async () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const configs = [...readme.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => JSON.parse(m[1]!) as { mcpServers: Record<string, any> });
    const [stdio, http] = configs.map((c) => c.mcpServers["minecraft-builder"]);
    expect(stdio).toMatchObject({ command: "mcb", args: ["mcp", "--state", "/path/to/state"] });
    expect(http).toMatchObject({ type: "http", url: "http://127.0.0.1:8765/mcp" });
    const { state, s } = await served();
    // stdio: the same configuration reaches the world mcb serve holds (a relay)
    const a = new Client({ name: "readme-stdio", version: "1" });
    const args = (stdio.args as string[]).map((w) => (w === "/path/to/state" ? state : w));
    await a.connect(new StdioClientTransport({ command: process.execPath, args: [cli, ...args], stderr: "ignore" }));
    const b = new Client({ name: "readme-http", version: "1" });
    const headers = Object.fromEntries(Object.entries(http.headers as Record<string, string>).map(([k, v]) => [k, v.replace(/<token from [^>]*>/, s.token)]));
    expect(headers.Authorization).toBe(`Bearer ${s.token}`);
    await b.connect(new StreamableHTTPClientTransport(new URL(String(http.url).replace("8765", String(s.port))), { requestInit: { headers } }));
    try {
      for (const c of [a, b]) expect((await call(c, "project_context", {})).project_id).toBe("default");
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);

  it("over HTTP, long jobs run as tasks for a client that opts in and send progress to one that asks, two clients at once", async () => {
    const { s } = await served();
    const [a, b] = await Promise.all([httpClient("tasks", s.port, s.token), httpClient("progress", s.port, s.token)]);
    kit.defer(() => Promise.all([a.close(), b.close()]));
    // 32 × 100 × 32 = 102,400 positions each: two tiles, one background job.
    const tower = (x: number) => ({
      version: 1,
      operations: [{ type: "box", min: { x, y: 100, z: 0 }, max: { x: x + 31, y: 199, z: 31 }, block: "minecraft:stone" }],
    });
    const told: { progress: number; message?: string }[] = [];
    b.setNotificationHandler(ProgressNotificationSchema, (n) => void told.push(n.params));
    const seen: string[] = [];
    const tasked = (async () => {
      let result: CallToolResult | undefined;
      for await (const m of a.experimental.tasks.callToolStream(
        { name: "build_prepare", arguments: { recipe: tower(0), apply: { idempotency_key: "t-1" } } },
        CallToolResultSchema,
        { task: { ttl: 60_000 } },
      )) {
        seen.push(m.type);
        if (m.type === "result") result = m.result as CallToolResult;
        if (m.type === "error") throw m.error;
      }
      return result!;
    })();
    const progressed = b.callTool(
      { name: "build_prepare", arguments: { recipe: tower(40), apply: { idempotency_key: "p-1", wait_ms: 10_000 } }, _meta: { progressToken: "p1" } },
      undefined,
      { timeout: 60_000 },
    ) as Promise<CallToolResult>;
    const [t, p] = await Promise.all([tasked, progressed]);
    expect(seen[0]).toBe("taskCreated");
    expect(seen.at(-1)).toBe("result");
    for (const r of [t, p]) {
      expect(r.isError, JSON.stringify(r.content).slice(0, 300)).not.toBe(true);
      expect((r.structuredContent as any).operation).toMatchObject({ status: "applied", written: 102_400, total: 102_400 });
    }
    expect(told.length).toBeGreaterThan(0);
    expect(told.at(-1)!.message).toMatch(/of 2 tiles, [\d,]+ blocks written$/);
    const ops = (await call(b, "operation_list", { limit: 10 })).operations as { client: string }[];
    expect(ops).toHaveLength(4);
    expect(new Set(ops.map((o) => o.client.replace(/ \(http [0-9a-f]{6}\)$/, "")))).toEqual(new Set(["tasks", "progress"]));
    // The finished task is kept for its ttl (60 s) while its session lives, and not a moment after:
    // once the clients are gone the holder stops at once, not when the ttl's timer fires.
    await Promise.all([a.close(), b.close()]);
    const stopped = await Promise.race([s.stop().then((code) => `exit ${code}`), new Promise((r) => setTimeout(() => r("still running after 10 s"), 10_000))]);
    expect(stopped).toBe("exit 0");
  }, 90_000);
});
