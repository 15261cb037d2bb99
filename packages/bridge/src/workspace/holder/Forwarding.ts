import type { Readable } from "node:stream";
import { fail, mcbError, ok, type Result } from "@mcb/blocks";

/** The first line a caller sends a holder: `MCB-HOLD <token>` (token from holder.json). */
export const HOLD_GREETING = "MCB-HOLD";

export type Signal = "SIGINT" | "SIGTERM";

/** Where a command writes (the process's stdout and stderr, or a caller's through the holder). */
export interface TextOut {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
}

/** What a caller asks of a holder: run its command line as if in its own process. */
export interface ForwardRequest {
  readonly argv: readonly string[];
  /** The caller's working directory: its relative file names are read and written from there. */
  readonly cwd: string;
  /** The caller's MCB_ variables (its agent, port token, …); nothing else of its environment travels. */
  readonly env: Readonly<Record<string, string>>;
  readonly tty: { readonly stdout: boolean; readonly stderr: boolean };
  readonly pid: number;
  /** A session (mcb mcp, mcb chat): it reads stdin and lasts; a holder running one command refuses it. */
  readonly session: boolean;
}

/** One caller's command as the holder runs it. */
export interface ForwardedCommand {
  readonly request: ForwardRequest;
  readonly stdin: Readable;
  readonly stdout: TextOut;
  readonly stderr: TextOut;
  /** The caller's Ctrl-C / SIGTERM (or its going away); returns the unsubscribe. */
  onSignal(handler: (signal: Signal) => void): () => void;
}

/** Runs a caller's command on the held world; resolves to its exit status. */
export type HolderService = (command: ForwardedCommand) => Promise<number>;

const MAX_ARGS = 256;
const MAX_ARG = 8192;
const ENV_NAME = /^MCB_[A-Z0-9_]{1,60}$/;

/** The request line, checked on the holder's side: a bad one is refused and nothing runs. */
export function parseForwardRequest(line: string): Result<ForwardRequest> {
  const bad = (why: string): Result<never> => fail(mcbError("invalid_request", `bad holder request: ${why}`, { reason: "holder_request" }));
  let r: Partial<Record<keyof ForwardRequest, unknown>>;
  try {
    r = JSON.parse(line) as typeof r;
  } catch {
    return bad("not JSON");
  }
  if (r === null || typeof r !== "object") return bad("not an object");
  const argv = r.argv;
  if (!Array.isArray(argv) || argv.length === 0 || argv.length > MAX_ARGS || !argv.every((a) => typeof a === "string" && a.length <= MAX_ARG))
    return bad(`argv must be 1..${MAX_ARGS} strings`);
  if (typeof r.cwd !== "string" || !r.cwd.startsWith("/") || r.cwd.length > 4096) return bad("cwd must be an absolute path");
  const env: Record<string, string> = {};
  if (r.env !== undefined) {
    if (r.env === null || typeof r.env !== "object") return bad("env must be an object");
    for (const [k, v] of Object.entries(r.env as Record<string, unknown>)) {
      if (!ENV_NAME.test(k) || typeof v !== "string" || v.length > MAX_ARG) return bad(`env may hold MCB_ variables only (${k.slice(0, 40)})`);
      env[k] = v;
    }
  }
  const tty = (r.tty ?? {}) as { stdout?: unknown; stderr?: unknown };
  const pid = r.pid;
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0) return bad("pid must be a positive integer");
  return ok({ argv: argv as string[], cwd: r.cwd, env, tty: { stdout: tty.stdout === true, stderr: tty.stderr === true }, pid, session: r.session === true });
}

/** The caller's MCB_ variables (what a request carries). */
export function mcbVariables(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (ENV_NAME.test(k) && v !== undefined && v.length <= MAX_ARG) out[k] = v;
  return out;
}
