import { randomBytes } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import { PassThrough } from "node:stream";
import { mcbError, type McbError } from "@mcb/blocks";
import { removeHolderFile, writeHolderFile } from "./HolderFile.js";
import { HOLD_GREETING, parseForwardRequest, type ForwardedCommand, type HolderService, type Signal } from "./Forwarding.js";
import { FrameReader } from "./FrameReader.js";
import { digestOf, matches } from "./Secret.js";
import { readHead } from "./SocketHead.js";
import { thrownError } from "../world/ThrownError.js";

const AUTH_TIMEOUT_MS = 5_000;
/** The greeting and the request line; stdin frames are at most `MAX_FRAME`. */
const MAX_HEAD_BYTES = 256 * 1024;
const MAX_FRAME = 1024 * 1024;
/** Callers served at once; more are refused (`busy`, retryable). */
const MAX_CALLERS = 64;
/** On close, how long running commands get after being asked to stop. */
const CLOSE_GRACE_MS = 30_000;

export interface HolderEndpoint {
  readonly port: number;
  /** Callers being served now. */
  readonly callers: number;
  /** Stops taking callers, asks running ones to stop (unless `commandsOnly`: they finish), waits for them, removes holder.json. */
  stop(): Promise<void>;
}

/**
 * The holder's side of "one world, every front end": a TCP listener on 127.0.0.1 only, announced
 * in `<state>/holder.json` (0600) with a fresh random token. A caller (another mcb process on this
 * state directory) sends `MCB-HOLD <token>`, then one request line (argv, cwd, its MCB_ variables),
 * and is then served as if it ran the command itself: `service` runs it on this process's world and
 * its stdout, stderr and exit status travel back as frames, its stdin and signals forward. Tokens
 * are compared in constant time and never echoed; a wrong one gets the same one-line refusal as a
 * malformed greeting. `commandsOnly`: this holder runs one command and will exit (mcb build): it
 * serves commands that end, and refuses sessions (mcp, chat) with `busy` (`held_by_command`).
 */
export async function startHolderEndpoint(
  dir: string,
  command: string,
  commandsOnly: boolean,
  service: HolderService,
  log: (line: string) => void,
): Promise<HolderEndpoint> {
  const token = randomBytes(32).toString("base64url");
  const digest = digestOf(token);
  const running = new Set<{ readonly signal: (s: Signal) => void; readonly done: Promise<void> }>();
  const sockets = new Set<Socket>();
  let closing = false;
  const server: Server = createServer({ allowHalfOpen: true });
  // Read on (and drop) what a refused caller still sends, so its close is seen and the socket freed.
  const refuse = (socket: Socket, error: McbError): void => void socket.resume().end(`ERR ${JSON.stringify(error)}\n`);

  const serve = (socket: Socket, greeting: string, requestLine: string): void => {
    const presented = greeting.startsWith(`${HOLD_GREETING} `) ? greeting.slice(HOLD_GREETING.length + 1).trim() : "";
    if (presented.length === 0 || !matches(presented, digest)) return refuse(socket, mcbError("permission_denied", "wrong holder token"));
    const request = parseForwardRequest(requestLine);
    if (!request.ok) return refuse(socket, request.error);
    if (closing) return refuse(socket, { ...mcbError("busy", "the holder is closing; try again", { reason: "holder_closing" }), retryable: true });
    if (running.size >= MAX_CALLERS)
      return refuse(socket, { ...mcbError("busy", `the holder serves ${MAX_CALLERS} callers already`, { reason: "holder_full" }), retryable: true });
    if (commandsOnly && request.value.session)
      return refuse(socket, {
        ...mcbError("busy", `the world is held by ${command} (pid ${process.pid}), which serves commands only until it ends`, {
          reason: "held_by_command",
          pid: process.pid,
        }),
        retryable: true,
      });
    socket.write("OK\n");
    const stdin = new PassThrough();
    const handlers = new Set<(s: Signal) => void>();
    let stdinEnded = false;
    const endStdin = (): void => {
      if (!stdinEnded) ((stdinEnded = true), stdin.end());
    };
    const signal = (s: Signal): void => {
      for (const h of [...handlers]) h(s);
    };
    const frame = (key: "o" | "e", chunk: string): void => {
      if (!socket.destroyed && socket.writable) socket.write(`${JSON.stringify({ [key]: Buffer.from(chunk, "utf8").toString("base64") })}\n`);
    };
    const reader = new FrameReader(MAX_FRAME, (f) => {
      if (typeof f.i === "string") stdin.write(Buffer.from(f.i, "base64"));
      else if (f.i_end === true) endStdin();
      else if (f.sig === "SIGINT" || f.sig === "SIGTERM") signal(f.sig);
    });
    socket.on("data", (chunk: Buffer) => {
      if (!reader.push(chunk)) socket.destroy(); // a frame over the limit: the caller is not ours
    });
    socket.resume();
    // A caller gone before its command ended (killed, its terminal closed) is a SIGTERM: its operations stop after their slice.
    let finished = false;
    socket.on("close", () => {
      if (!finished) signal("SIGTERM");
      endStdin();
    });
    const forwarded: ForwardedCommand = {
      request: request.value,
      stdin,
      stdout: { write: (c: string) => frame("o", c), isTTY: request.value.tty.stdout },
      stderr: { write: (c: string) => frame("e", c), isTTY: request.value.tty.stderr },
      onSignal: (h) => {
        handlers.add(h);
        return () => void handlers.delete(h);
      },
    };
    const entry = {
      signal,
      done: service(forwarded)
        .catch((e: unknown) => {
          frame("e", `${JSON.stringify({ error: thrownError(e, "mcb (holder)") })}\n`);
          return 1;
        })
        .then((code) => {
          finished = true;
          if (!socket.destroyed) socket.end(`${JSON.stringify({ x: code })}\n`);
        }),
    };
    running.add(entry);
    void entry.done.finally(() => running.delete(entry));
  };

  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    readHead(socket, 2, MAX_HEAD_BYTES, AUTH_TIMEOUT_MS, ([greeting = "", requestLine = ""]) => serve(socket, greeting, requestLine));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("holder endpoint not listening");
  writeHolderFile(dir, { pid: process.pid, port: address.port, token, command, commandsOnly });
  return {
    port: address.port,
    get callers() {
      return running.size;
    },
    stop: async () => {
      closing = true;
      removeHolderFile(dir, token);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if (!commandsOnly) for (const r of running) r.signal("SIGTERM");
      const all = Promise.all([...running].map((r) => r.done));
      const grace = commandsOnly ? null : new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
      await (grace === null ? all : Promise.race([all, grace]));
      if (running.size > 0) log(`mcb: closing with ${running.size} caller(s) still running; they were cut off`);
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
