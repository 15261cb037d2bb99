import { connect } from "node:net";
import type { Readable } from "node:stream";
import { mcbError, type McbError } from "@mcb/blocks";
import { FrameReader } from "./FrameReader.js";
import { HOLD_GREETING, type ForwardRequest, type Signal, type TextOut } from "./Forwarding.js";
import { readHolderFile } from "./HolderFile.js";
import { processAlive } from "../world/StateLock.js";

/** How long a holder has to take a caller (connect, token, request) before it counts as not answering. */
const ANSWER_TIMEOUT_MS = 5_000;
/** The holder's frames: at most a few MiB each (a chunk of stdout, an MCP answer with an image). */
const MAX_FRAME = 64 * 1024 * 1024;
/** Stdin travels in pieces this large. */
const STDIN_PIECE = 256 * 1024;

/** What calling the holder came to: no holder (run it yourself), a refusal, or the command's exit status. */
export type HolderCall = { readonly kind: "none" } | { readonly kind: "refused"; readonly error: McbError } | { readonly kind: "done"; readonly code: number };

/**
 * The caller's side: when another live process holds the state directory `dir` and serves it
 * (holder.json), runs `request` there and relays the command's output, stdin (a session's) and
 * signals, so the command behaves as if it ran here. `none` when nobody serves (no holder.json, or
 * its process is dead: a holder killed with -9, whose lock the next opener takes over). A holder
 * that does not answer within 5 s is `busy` (`holder_not_answering`).
 */
export async function callHolder(
  dir: string,
  request: ForwardRequest,
  io: { readonly stdin?: Readable; readonly stdout: TextOut; readonly stderr: TextOut },
): Promise<HolderCall> {
  const record = readHolderFile(dir);
  if (record === null || record.pid === process.pid || !processAlive(record.pid)) return { kind: "none" };
  const socket = connect({ port: record.port, host: "127.0.0.1", allowHalfOpen: true });
  const send = (frame: object): void => {
    if (!socket.destroyed && socket.writable) socket.write(`${JSON.stringify(frame)}\n`);
  };
  const onInt = (): void => send({ sig: "SIGINT" satisfies Signal });
  const onTerm = (): void => send({ sig: "SIGTERM" satisfies Signal });
  const stdin = request.session ? io.stdin : undefined;
  const onStdin = (chunk: Buffer): void => {
    for (let i = 0; i < chunk.length; i += STDIN_PIECE) send({ i: chunk.subarray(i, i + STDIN_PIECE).toString("base64") });
  };
  const onStdinEnd = (): void => send({ i_end: true });
  // One listener from the first byte to the close: the holder may answer, run and end before a later listener would be attached.
  const ended = await new Promise<{ answer: string; exit: number | null }>((resolve) => {
    let answer: string | null = null;
    let head = Buffer.alloc(0);
    let exit: number | null = null;
    const timer = setTimeout(() => {
      if (answer === null) {
        answer = "TIMEOUT";
        socket.destroy();
      }
    }, ANSWER_TIMEOUT_MS);
    const reader = new FrameReader(MAX_FRAME, (f) => {
      if (typeof f.o === "string") io.stdout.write(Buffer.from(f.o, "base64").toString("utf8"));
      else if (typeof f.e === "string") io.stderr.write(Buffer.from(f.e, "base64").toString("utf8"));
      else if (typeof f.x === "number" && Number.isInteger(f.x)) exit = f.x;
    });
    socket.on("data", (chunk: Buffer) => {
      if (answer !== null) {
        if (!reader.push(chunk)) socket.destroy();
        return;
      }
      head = Buffer.concat([head, chunk]);
      const nl = head.indexOf(0x0a);
      if (nl < 0) {
        if (head.length > 64 * 1024) ((answer = "ERR oversize answer"), socket.destroy());
        return;
      }
      clearTimeout(timer);
      answer = head.subarray(0, nl).toString("utf8");
      if (answer !== "OK") return void socket.destroy();
      process.on("SIGINT", onInt);
      process.on("SIGTERM", onTerm);
      if (stdin !== undefined) {
        stdin.on("data", onStdin);
        stdin.once("end", onStdinEnd);
      }
      const rest = head.subarray(nl + 1);
      if (rest.length > 0 && !reader.push(rest)) socket.destroy();
    });
    socket.on("error", (e) => {
      if (answer === null) answer = `DOWN ${(e as NodeJS.ErrnoException).code ?? e.message}`;
    });
    socket.on("end", () => socket.end()); // the holder is done: so are we (the socket is half-open until then)
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ answer: answer ?? (head.length > 0 ? head.toString("utf8").trim() : "DOWN closed"), exit });
    });
    socket.write(`${HOLD_GREETING} ${record.token}\n${JSON.stringify(request)}\n`);
  });
  process.off("SIGINT", onInt);
  process.off("SIGTERM", onTerm);
  const { answer, exit } = ended;
  // Only a stream we read is paused again (pausing one we never read would keep its next reader from flowing).
  if (stdin !== undefined && answer === "OK") {
    stdin.off("data", onStdin);
    stdin.off("end", onStdinEnd);
    stdin.pause();
  }
  if (answer === "OK")
    return exit !== null
      ? { kind: "done", code: exit }
      : {
          kind: "refused",
          error: mcbError(
            "busy",
            `the holder ${record.command} (pid ${record.pid}) went away before the command ended; what it reported done is in its journal (mcb status)`,
            {
              reason: "holder_gone",
              pid: record.pid,
            },
          ),
        };
  if (answer.startsWith("ERR {")) {
    try {
      return { kind: "refused", error: JSON.parse(answer.slice(4)) as McbError };
    } catch {
      /* fall through */
    }
  }
  // Its pid went away meanwhile (a holder that just died, whose lock the next opener takes over), or
  // it took its port down (a holder closing: the caller waits for the lock): nobody serves.
  if (!processAlive(record.pid) || readHolderFile(dir)?.token !== record.token) return { kind: "none" };
  return {
    kind: "refused",
    error: {
      ...mcbError(
        "busy",
        `the state directory ${dir} is held by ${record.command} (pid ${record.pid}), which does not answer (${answer.slice(0, 40)}); stop it or use another --state`,
        {
          reason: "holder_not_answering",
          pid: record.pid,
        },
      ),
      retryable: true,
    },
  };
}
