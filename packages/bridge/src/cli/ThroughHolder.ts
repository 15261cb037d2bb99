import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { callHolder } from "../workspace/holder/HolderClient.js";
import { mcbVariables } from "../workspace/holder/Forwarding.js";
import { lockOwner } from "../workspace/world/StateLock.js";
import type { CliIo } from "./Io.js";

const WAIT_POLL_MS = 500;
const CLOSING_WAIT_MS = 10_000;

/**
 * Runs the command line in the process that holds the state directory, when one serves it: the
 * exit status, or null when nobody does (run it here). A refusal (a holder that does not answer,
 * a wrong token) is printed as the structured error, status 1. A session (mcb mcp, chat) that finds
 * the world held by one running command waits for that command to end, then holds it itself.
 */
export async function throughHolder(argv: readonly string[], state: string, mode: "command" | "session", io: CliIo): Promise<number | null> {
  const dir = resolve(state);
  if (!existsSync(dir)) return null;
  let waiting = false;
  // A holder between taking its port down and giving its lock up is waited for, this long at most.
  const closingUntil = Date.now() + CLOSING_WAIT_MS;
  for (;;) {
    const call = await callHolder(
      dir,
      {
        argv,
        cwd: io.cwd ?? process.cwd(),
        env: mcbVariables(io.env),
        tty: { stdout: io.stdout.isTTY === true, stderr: io.stderr.isTTY === true },
        pid: process.pid,
        session: mode === "session",
      },
      { stdin: io.stdin ?? process.stdin, stdout: io.stdout, stderr: io.stderr },
    );
    if (call.kind === "done") return call.code;
    const reason = call.kind === "refused" ? call.error.details?.reason : undefined;
    const closing = (call.kind === "none" && lockOwner(dir) !== null) || reason === "holder_closing";
    if (closing && Date.now() < closingUntil) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    if (call.kind === "none") return null;
    if (mode === "session" && reason === "held_by_command") {
      if (!waiting) io.stderr.write(`mcb: ${call.error.message}; waiting for it to end\n`);
      waiting = true;
      await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
      continue;
    }
    io.stderr.write(`${JSON.stringify({ error: call.error })}\n`);
    return 1;
  }
}
