import { DEFAULT_STATE_DIR } from "../workspace/world/Workspace.js";
import { parse } from "./Args.js";
import { forwardOf } from "./Forwarded.js";
import type { CliIo } from "./Io.js";
import { throughHolder } from "./ThroughHolder.js";

/**
 * The bin's first step: when another process holds the state directory and serves it, the command
 * line runs there before this process loads the commands, the engine and the adapters (0.2 s of a
 * start: a command through the holder costs a bare start and one round trip). Null: run it here.
 */
export async function forwardEarly(argv: readonly string[], io: CliIo): Promise<number | null> {
  const parsed = parse(argv);
  if (!parsed.ok || parsed.values.help === true) return null;
  const [name, ...args] = parsed.positionals;
  const mode = name === undefined ? null : forwardOf(name, args, parsed.values);
  if (mode === null) return null;
  return throughHolder(argv, typeof parsed.values.state === "string" ? parsed.values.state : DEFAULT_STATE_DIR, mode, io);
}
