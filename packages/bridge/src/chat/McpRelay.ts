import { randomBytes, timingSafeEqual } from "node:crypto";
import { digestOf } from "../workspace/holder/Secret.js";
import { readHead } from "../workspace/holder/SocketHead.js";
import { createServer, type Server, type Socket } from "node:net";
import { StdioLineTransport } from "../workspace/agent/StdioLineTransport.js";

/** First line a relay client sends: `MCB-MCP <token>`; the relay answers `OK` or closes. */
export const RELAY_GREETING = "MCB-MCP";
const AUTH_TIMEOUT_MS = 5_000;
const MAX_AUTH_LINE = 200;

/** An MCP server on a connected transport; `close` ends it. */
export interface RelayedServer {
  connect(transport: StdioLineTransport): Promise<void>;
  close(): Promise<void>;
}

interface Grant {
  readonly digest: Buffer;
  readonly serve: () => RelayedServer;
}

/**
 * The chat process's MCP endpoint for the agents it launches. An agent's MCP server entry runs
 * `mcb mcp --attach`, which connects here on 127.0.0.1 with the token from its environment; each
 * token is bound by the chat (never by the agent) to one project and player, so the MCP tools of a
 * connection act with that identity and nothing in a prompt can change it. Tokens are compared in
 * constant time (SHA-256 digests) and never echoed. Only loopback is bound.
 */
export class McpRelay {
  private readonly grants: Grant[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly servers = new Set<RelayedServer>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<McpRelay> {
    const server = createServer({ allowHalfOpen: true });
    const relay = new McpRelay(server);
    server.on("connection", (s) => relay.accept(s));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    return relay;
  }

  /** `127.0.0.1:PORT` for MCB_CHAT_MCP. */
  get address(): string {
    const a = this.server.address();
    if (a === null || typeof a === "string") throw new Error("relay not listening");
    return `127.0.0.1:${a.port}`;
  }

  /** A new token whose connections are served by `serve()` (one MCP server per connection). */
  grant(serve: () => RelayedServer): string {
    const token = randomBytes(32).toString("base64url");
    this.grants.push({ digest: digestOf(token), serve });
    return token;
  }

  private find(token: string): Grant | null {
    const d = digestOf(token);
    let found: Grant | null = null;
    for (const g of this.grants) if (timingSafeEqual(g.digest, d)) found = g; // no early exit
    return found;
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    readHead(socket, 1, MAX_AUTH_LINE, AUTH_TIMEOUT_MS, ([line = ""]) => {
      const token = line.trim().startsWith(`${RELAY_GREETING} `) ? line.trim().slice(RELAY_GREETING.length + 1) : "";
      const grant = token.length > 0 ? this.find(token) : null;
      if (grant === null) {
        socket.end("ERR unknown token\n");
        return;
      }
      socket.write("OK\n");
      void this.serve(socket, grant);
    });
  }

  private async serve(socket: Socket, grant: Grant): Promise<void> {
    const server = grant.serve();
    this.servers.add(server);
    const transport = new StdioLineTransport(socket, socket, { log: (l) => process.stderr.write(`${l}\n`) });
    transport.onclose = () => {
      this.servers.delete(server);
      socket.end();
    };
    await server.connect(transport);
    socket.resume();
  }

  async close(): Promise<void> {
    await Promise.all([...this.servers].map((s) => s.close().catch(() => undefined)));
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
