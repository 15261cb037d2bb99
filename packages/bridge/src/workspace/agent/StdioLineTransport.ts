import type { Readable } from "node:stream";
import type { TextOut } from "../holder/Forwarding.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { classifyLine, frameError, type FrameError } from "./JsonRpcFrames.js";
import { TopLevelId } from "./TopLevelId.js";

/** Largest line (one JSON-RPC message) accepted; longer ones are refused and skipped. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;
/** After the client closed its input, how long owed answers are awaited before closing anyway. */
const UNANSWERED_GRACE_MS = 120_000;

export interface StdioLineTransportOptions {
  readonly maxLineBytes?: number;
  /** Diagnostics (never the protocol stream). Default: process.stderr. */
  readonly log?: (line: string) => void;
}

/**
 * The MCP stdio transport of `mcb mcp`, replacing the SDK's for the frames it gets wrong: a line
 * over `maxLineBytes` (or endless input without a newline) is skipped in constant memory while its
 * top-level id is found, answered with a JSON-RPC error once its newline arrives, and the server
 * keeps serving; text that is not JSON gets -32700, JSON that is not JSON-RPC 2.0 gets -32600
 * (with its id when it has one), a known request with bad params gets -32602 carrying our
 * structured error (see `classifyLine`). Lines are split without re-copying the buffered input.
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private readonly max: number;
  private readonly log: (line: string) => void;
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** Set while skipping an oversize line. */
  private skipping: { readonly id: TopLevelId; bytes: number } | null = null;
  private closed = false;
  /** Requests handed to the server and not answered yet: stdin closing does not drop them. */
  private readonly unanswered = new Set<string | number>();
  private inputEnded = false;

  constructor(
    private readonly input: Readable,
    private readonly output: TextOut & { once?(event: "drain", listener: () => void): unknown },
    options: StdioLineTransportOptions = {},
  ) {
    this.max = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  private readonly onData = (chunk: Buffer): void => {
    let at = 0;
    while (at < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, at);
      const end = nl < 0 ? chunk.length : nl;
      this.take(chunk.subarray(at, end));
      if (nl < 0) break;
      this.endLine();
      at = nl + 1;
    }
  };

  private readonly onEnd = (): void => {
    if (this.skipping !== null || this.partBytes > 0) this.endLine();
    this.inputEnded = true;
    if (this.unanswered.size === 0) void this.close();
    else {
      // Answers still owed: wait for them, but not forever.
      setTimeout(() => {
        if (this.closed) return;
        this.log(`mcb mcp: input closed; ${this.unanswered.size} requests still unanswered after ${UNANSWERED_GRACE_MS} ms, closing`);
        void this.close();
      }, UNANSWERED_GRACE_MS).unref();
    }
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onStreamError);
  }

  /** Appends bytes of the current line, switching to skipping when it grows past the limit. */
  private take(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (this.skipping !== null) {
      this.skipping.id.feed(bytes);
      this.skipping.bytes += bytes.length;
      return;
    }
    if (this.partBytes + bytes.length <= this.max) {
      this.parts.push(bytes);
      this.partBytes += bytes.length;
      return;
    }
    const id = new TopLevelId();
    for (const p of this.parts) id.feed(p);
    id.feed(bytes);
    this.skipping = { id, bytes: this.partBytes + bytes.length };
    this.parts = [];
    this.partBytes = 0;
    this.log(`mcb mcp: a message longer than ${this.max} bytes is being skipped; it will be refused when its line ends`);
  }

  private endLine(): void {
    if (this.skipping !== null) {
      const { id, bytes } = this.skipping;
      this.skipping = null;
      const requestId = id.result();
      this.log(`mcb mcp: refused a ${bytes}-byte message (limit ${this.max})${requestId === null ? "" : ` with id ${JSON.stringify(requestId)}`}`);
      const data = {
        code: "budget_exceeded",
        message: `a message may be at most ${this.max} bytes`,
        retryable: false,
        details: { reason: "message_size", limit: this.max, bytes },
      };
      this.reply(frameError(requestId, ErrorCode.InvalidRequest, `Invalid Request: message of ${bytes} bytes exceeds the ${this.max}-byte limit`, data));
      return;
    }
    const line = this.parts.length === 1 ? this.parts[0]!.toString("utf8") : Buffer.concat(this.parts, this.partBytes).toString("utf8");
    this.parts = [];
    this.partBytes = 0;
    const c = classifyLine(line.endsWith("\r") ? line.slice(0, -1) : line);
    if (c.kind === "message") {
      if ("method" in c.message && "id" in c.message) this.unanswered.add(c.message.id);
      this.onmessage?.(c.message);
    } else if (c.kind === "error") this.reply(c.response);
  }

  private reply(response: FrameError): void {
    this.send(response as JSONRPCMessage).catch((e: unknown) => this.onerror?.(e instanceof Error ? e : new Error(String(e))));
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    const answers = !("method" in message) && "id" in message && message.id !== undefined && this.unanswered.delete(message.id);
    return new Promise<void>((resolve) => {
      // A stream that is not a Writable (a caller's, relayed by the holder) takes every write at once.
      if (this.output.write(`${JSON.stringify(message)}\n`) !== false || this.output.once === undefined) resolve();
      else this.output.once("drain", resolve);
    }).then(() => {
      // The client closed its input: we close once every request it sent has its answer.
      if (answers && this.inputEnded && this.unanswered.size === 0) void this.close();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.input.off("error", this.onStreamError);
    this.input.pause();
    this.parts = [];
    this.onclose?.();
  }
}
