import type { Readable } from "node:stream";
import type { TextOut } from "../workspace/holder/Forwarding.js";
import type { HeldWorld } from "../workspace/holder/HeldWorld.js";

/** Where the CLI writes: stdout for results, stderr for errors and progress. */
export type CliOut = TextOut;

/** The streams and environment a command runs with: its process's, or a caller's inside the holder. */
export interface CliIo {
  readonly stdout: CliOut;
  readonly stderr: CliOut;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** What sessions (mcb mcp, mcb chat --console) read; default: the process's stdin. */
  readonly stdin?: Readable;
  /** Where relative file names are from; default: the process's working directory. */
  readonly cwd?: string;
  /** Set when this command is a caller's, run inside the process holding the world (`mcb serve`, …). */
  readonly held?: HeldWorld;
}

/** The process's own streams and environment (the bin's). */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}
