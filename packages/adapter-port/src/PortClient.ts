import { Agent, request, type IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { HostCrash } from "@mcb/engine";

export interface PortClientOptions {
  /** `http://127.0.0.1:PORT` (or `port://127.0.0.1:PORT`); loopback hosts only. */
  readonly url: string;
  /** The port's per-install secret; sent as a bearer token, never logged or echoed. */
  readonly token: string;
  /** Per-call limit; default 15 s (the port drops game-thread jobs it could not start in 10 s). */
  readonly timeoutMs?: number;
  /** Retries of idempotent calls answered `busy` (retryable); default 3. */
  readonly retries?: number;
}

/** A structured refusal from the port: `{code, message, retryable, details}` (java/PROTOCOL.md). */
export class PortCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable: boolean,
    readonly details: Readonly<Record<string, unknown>>,
    readonly status: number,
  ) {
    super(message);
    this.name = "PortCallError";
  }
}

/** The outcome of a write is unknown (timeout): the engine leaves the slice to recovery review. */
export class PortTimeout extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PortTimeout";
  }
}

const MAX_RESPONSE = 64 * 1024 * 1024;

/** Parses and checks a port URL: http (or port) scheme, a loopback host, an explicit port. */
export function parsePortUrl(url: string): { host: string; port: number } {
  let u: URL;
  try {
    u = new URL(url.replace(/^port:\/\//, "http://"));
  } catch {
    throw new RangeError(`not a URL: ${url.slice(0, 80)}`);
  }
  if (u.protocol !== "http:") throw new RangeError(`the world port speaks plain HTTP on loopback (got ${u.protocol})`);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const loopback = host === "localhost" || host === "::1" || (isIP(host) === 4 && host.startsWith("127."));
  if (!loopback) throw new RangeError(`the world port is reached on loopback only (got ${host}); use an SSH tunnel for a remote server`);
  if (u.port === "") throw new RangeError("the world port URL needs an explicit port");
  if (u.pathname !== "/" || u.search !== "" || u.username !== "" || u.password !== "") throw new RangeError("the world port URL is scheme://host:port only");
  return { host, port: Number(u.port) };
}

/**
 * Keep-alive JSON calls to the world port. Connection-level failures (refused, reset, hang-up) mean
 * the server vanished: `HostCrash`. Idempotent calls are retried on `busy`; writes never are.
 */
export class PortClient {
  private readonly host: string;
  private readonly port: number;
  private readonly auth: string;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly agent: Agent;

  constructor(options: PortClientOptions) {
    ({ host: this.host, port: this.port } = parsePortUrl(options.url));
    if (options.token.length < 16) throw new RangeError("the port token must have at least 16 characters");
    this.auth = `Bearer ${options.token}`;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.retries = options.retries ?? 3;
    // Idle sockets close after 5 s, well before the JDK server's 30 s idle limit, so a request is
    // never sent on a socket the server is closing.
    this.agent = new Agent({ keepAlive: true, maxSockets: 4, timeout: 5_000 });
  }

  async call(method: string, params: unknown, idempotent: boolean): Promise<Record<string, unknown>> {
    return this.post(method, JSON.stringify(params), idempotent);
  }

  /** A write with a binary body (`cas_batch`): never retried, except refused unread (too_many_connections). */
  async callBinary(method: string, body: Buffer): Promise<Record<string, unknown>> {
    return this.post(method, body, false);
  }

  private async post(method: string, body: string | Buffer, idempotent: boolean): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(`/v1/${method}`, "POST", body);
      } catch (error) {
        // A connection refused over the port's cap was never read: retrying is safe for any call.
        const unread = error instanceof PortCallError && error.details.reason === "too_many_connections";
        const again = (idempotent || unread) && attempt < this.retries && error instanceof PortCallError && error.retryable && error.code === "busy";
        if (!again) throw error;
        const hinted = Number((error as PortCallError).details.retry_after_ms);
        await new Promise((r) => setTimeout(r, Number.isFinite(hinted) && hinted > 0 ? Math.min(hinted, 2_000) : 50 * 2 ** attempt));
      }
    }
  }

  async health(): Promise<Record<string, unknown>> {
    return this.once("/health", "GET", null);
  }

  close(): void {
    this.agent.destroy();
  }

  private once(path: string, method: "GET" | "POST", body: string | Buffer | null): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { accept: "application/json" };
      if (body !== null) {
        headers["content-type"] = typeof body === "string" ? "application/json" : "application/octet-stream";
        headers["content-length"] = Buffer.byteLength(body);
        headers.authorization = this.auth;
      }
      const req = request({ host: this.host, port: this.port, path, method, headers, agent: this.agent }, (res) => {
        collect(res).then(
          (text) => {
            let parsed: unknown;
            try {
              parsed = JSON.parse(text);
            } catch {
              reject(new PortCallError("busy", `the port answered ${res.statusCode} with a body that is not JSON`, false, {}, res.statusCode ?? 0));
              return;
            }
            const o = parsed as { ok?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown; retryable?: unknown; details?: unknown } };
            if (o.ok === true && typeof o.result === "object" && o.result !== null) resolve(o.result as Record<string, unknown>);
            else {
              const e = o.error ?? {};
              reject(
                new PortCallError(
                  String(e.code ?? "busy"),
                  String(e.message ?? `HTTP ${res.statusCode}`),
                  e.retryable === true,
                  (e.details ?? {}) as Record<string, unknown>,
                  res.statusCode ?? 0,
                ),
              );
            }
          },
          (error: Error) => reject(vanished(error)),
        );
      });
      req.setTimeout(this.timeoutMs, () => req.destroy(new PortTimeout(`the world port did not answer ${path} within ${this.timeoutMs} ms`)));
      req.on("error", (error) => reject(error instanceof PortTimeout ? error : vanished(error)));
      req.end(body ?? undefined);
    });
  }
}

function vanished(error: Error): Error {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  return new HostCrash(`the world port vanished (${code || error.message})`);
}

function collect(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_RESPONSE) res.destroy(new Error(`response over ${MAX_RESPONSE} bytes`));
      else chunks.push(c);
    });
    res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    res.on("error", reject);
    res.on("aborted", () => reject(new Error("response aborted")));
  });
}
