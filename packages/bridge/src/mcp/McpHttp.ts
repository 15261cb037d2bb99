import { randomBytes } from "node:crypto";
import { digestOf, matches } from "../workspace/holder/Secret.js";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { SchematicLimits } from "@mcb/schematic";
import type { AnswerOptions } from "../workspace/agent/AnswerOptions.js";
import type { Toolset } from "../workspace/agent/Toolsets.js";
import type { Workspace } from "../workspace/world/Workspace.js";
import { mcpSession } from "./McpCommand.js";

/** The MCP endpoint's path (`http://127.0.0.1:PORT/mcp`). */
export const MCP_HTTP_PATH = "/mcp";
/** Sessions at once; another initialize is refused (503) until one ends. */
const MAX_SESSIONS = 32;
/** A request body larger than this is refused (413) before it is parsed. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A session nobody used for this long is closed (its client starts a new one). */
const IDLE_MS = 30 * 60_000;

export interface McpHttpOptions {
  readonly port: number;
  /** The bearer token clients present (`Authorization: Bearer …`). */
  readonly token: string;
  readonly schematicLimits: SchematicLimits;
  readonly toolsets: readonly Toolset[];
  readonly answers: AnswerOptions;
  /** The holder's SIGINT/SIGTERM, fanned out to every session (each stops its operations after their slice). */
  readonly signals: (handler: (signal: NodeJS.Signals) => void) => () => void;
}

export interface McpHttpServer {
  readonly port: number;
  readonly sessions: number;
  close(): Promise<void>;
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly close: () => Promise<void>;
  lastUsed: number;
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message }, id: null }));
}

/** The body as JSON, at most MAX_BODY_BYTES; null when it is too large or not JSON. */
function readBody(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let bytes = 0;
    req.on("data", (c: Buffer) => {
      bytes += c.length;
      if (bytes > MAX_BODY_BYTES) {
        resolve({ ok: false, status: 413, message: `request body over ${MAX_BODY_BYTES} bytes` });
        req.destroy();
      } else parts.push(c);
    });
    req.on("end", () => {
      try {
        resolve({ ok: true, value: JSON.parse(Buffer.concat(parts).toString("utf8")) });
      } catch {
        resolve({ ok: false, status: 400, message: "the body is not JSON" });
      }
    });
    req.on("error", () => resolve({ ok: false, status: 400, message: "the request broke off" }));
  });
}

/**
 * MCP over Streamable HTTP (protocol 2025-11-25) on 127.0.0.1 only, from the process holding the
 * world: one MCP session per client (several at once), each one's operations attributed to its
 * client name. Every request must carry `Authorization: Bearer <token>` (compared in constant
 * time, never echoed) and a `Host` naming this loopback endpoint; a request with an `Origin`
 * must come from it too (the MCP specification's defence against DNS rebinding: a web page the
 * person visits cannot reach the world). Refusals are 401, 403, 404, 413 or 503 with a JSON-RPC
 * error body, before anything runs.
 */
export async function startMcpHttp(w: Workspace, o: McpHttpOptions): Promise<McpHttpServer> {
  const token = digestOf(o.token);
  const sessions = new Map<string, Session>();
  let port = o.port;
  const hosts = (): Set<string> => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = (): Set<string> => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = req.headers.host ?? "";
    if (!hosts().has(host.toLowerCase())) return refuse(res, 403, "this endpoint answers on 127.0.0.1 only (Host refused)");
    const origin = req.headers.origin;
    if (origin !== undefined && !origins().has(origin.toLowerCase())) return refuse(res, 403, "cross-origin requests are refused (Origin)");
    const auth = req.headers.authorization ?? "";
    const m = /^Bearer ([\x21-\x7e]{1,512})$/.exec(auth);
    if (m === null || !matches(m[1]!, token))
      return refuse(res, 401, "a bearer token is required (see mcb serve --help)", { "www-authenticate": 'Bearer realm="mcb"' });
    const path = (req.url ?? "").split("?")[0];
    if (path !== MCP_HTTP_PATH) return refuse(res, 404, `the MCP endpoint is ${MCP_HTTP_PATH}`);
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    let body: unknown;
    if (req.method === "POST") {
      const read = await readBody(req);
      if (!read.ok) return refuse(res, read.status, read.message);
      body = read.value;
    }
    if (known !== undefined) {
      known.lastUsed = Date.now();
      return known.transport.handleRequest(req, res, body);
    }
    if (typeof id === "string") return refuse(res, 404, "no such session (it ended, or the holder restarted): initialize again");
    if (req.method !== "POST" || !isInitializeRequest(body)) return refuse(res, 400, "start with an initialize request (no session id)");
    if (sessions.size >= MAX_SESSIONS) return refuse(res, 503, `${MAX_SESSIONS} sessions are open; close one first`);
    const sid = randomBytes(16).toString("hex");
    // Stopping the holder stops the session's operations after their slice.
    const { server, interrupt } = mcpSession(w, o.schematicLimits, o.toolsets, o.answers, ` (http ${sid.slice(0, 6)})`, o.signals);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => sid });
    const session: Session = {
      transport,
      lastUsed: Date.now(),
      close: async () => {
        sessions.delete(sid);
        interrupt.dispose();
        await server.close().catch(() => undefined);
      },
    };
    sessions.set(sid, session);
    transport.onclose = () => void session.close();
    interrupt.install();
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) refuse(res, 500, `the request failed: ${(e as Error).message}`.slice(0, 200));
      else res.end();
    });
  });
  http.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(o.port, "127.0.0.1", () => resolve());
  });
  const a = http.address();
  if (a === null || typeof a === "string") throw new Error("not listening");
  port = a.port;
  const sweep = setInterval(() => {
    for (const s of sessions.values()) if (Date.now() - s.lastUsed > IDLE_MS) void s.transport.close();
  }, 60_000).unref();
  return {
    port,
    get sessions() {
      return sessions.size;
    },
    close: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
