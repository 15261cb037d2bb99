import type { Invocation } from "./Invocation.js";

/**
 * One command of the `mcb` command line: `usage` lists its forms (each line starting `  mcb`),
 * `run` parses its arguments into a typed request, runs it through the workspace and formats the
 * answer. Exit status: 0 success, 1 a structured error (JSON on stderr), 2 a usage error, 3 an
 * operation that ended other than applied, 130 / 143 interrupted by SIGINT / SIGTERM.
 */
export interface Command {
  readonly name: string;
  readonly usage: string;
  run(c: Invocation): Promise<number>;
}
