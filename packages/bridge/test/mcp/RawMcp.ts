import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { cli, root } from "../support.js";

export type Frame = { jsonrpc?: string; id?: unknown; result?: any; error?: { code: number; message: string; data?: any }; method?: string };

/**
 * `mcb mcp` driven over its real stdio pipes with raw bytes, as a hostile or sloppy client would:
 * no SDK in between, every response line parsed and kept.
 */
export class RawMcp {
  readonly frames: Frame[] = [];
  readonly stderr: string[] = [];
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private waiters: (() => void)[] = [];
  readonly exited: Promise<number | null>;

  constructor(state: string) {
    this.child = spawn(process.execPath, [cli, "mcp", "--state", state], { cwd: root, stdio: "pipe" });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (s: string) => {
      this.buffer += s;
      let nl: number;
      while ((nl = this.buffer.indexOf("\n")) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.frames.push(JSON.parse(line) as Frame); // stdout must carry only JSON-RPC lines
        for (const w of this.waiters.splice(0)) w();
      }
    });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (s: string) => this.stderr.push(s));
    this.exited = new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }

  get pid(): number {
    return this.child.pid!;
  }

  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.child.stdin.write(data, (e) => (e ? reject(e) : resolve())));
  }

  send(message: object): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  end(): void {
    this.child.stdin.end();
  }

  kill(): void {
    this.child.kill("SIGKILL");
  }

  /** The first frame (from now on, or already received) that matches; fails after `ms`. */
  async next(match: (f: Frame) => boolean, ms = 20_000): Promise<Frame> {
    const deadline = Date.now() + ms;
    for (;;) {
      const f = this.frames.find(match);
      if (f !== undefined) return f;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no matching frame within ${ms} ms; got ${JSON.stringify(this.frames.slice(-3)).slice(0, 500)}; stderr ${this.stderr.join("").slice(-500)}`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** The response to request `id`. */
  reply(id: string | number, ms?: number): Promise<Frame> {
    return this.next((f) => f.id === id && (f.result !== undefined || f.error !== undefined), ms);
  }

  async request(id: string | number, method: string, params?: object, ms?: number): Promise<Frame> {
    await this.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    return this.reply(id, ms);
  }

  /** The MCP handshake: initialize, then the initialized notification. */
  async initialize(): Promise<Frame> {
    const r = await this.request("init", "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
    await this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return r;
  }
}
