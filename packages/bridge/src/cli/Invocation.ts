import type { Result } from "@mcb/blocks";
import type { EngineLimits } from "@mcb/engine";
import { openWorkspace } from "../workspace/world/OpenWorkspace.js";
import { stateDirectory, type Workspace, type WorldLocation } from "../workspace/world/Workspace.js";
import type { Values } from "./Args.js";
import { sameWorldCommand } from "./Again.js";
import type { CliIo } from "./Io.js";

/** One run of one command: its arguments, options, streams and helpers. */
export interface Invocation {
  /** The command's name (e.g. "build", "schem"). */
  readonly name: string;
  /** Positionals after the command name. */
  readonly args: readonly string[];
  readonly values: Values;
  readonly io: CliIo;
  readonly json: boolean;
  readonly location: WorldLocation;
  /** A usage error: says what was wrong, then this command's usage; returns 2. */
  usage(problem: string): number;
  /** Prints a result: the value on stdout (JSON with --json, else `text`), or the error as JSON on stderr (1). */
  emit<T>(r: Result<T>, text: (v: T) => string): number;
  /**
   * Opens the world for the command and closes it after. `create`: the command may create the
   * state directory (the first build; any command with --init); otherwise a missing one is
   * `not_found`. `writes`: Ctrl-C and SIGTERM stop its operations after their current slice and
   * the exit status is 130 / 143, with what was stopped on stderr.
   */
  withWorkspace(
    run: (w: Workspace) => Promise<number>,
    options?: { readonly create?: boolean; readonly writes?: boolean; readonly limits?: Partial<EngineLimits> },
  ): Promise<number>;
  /** The state directory for commands that use it without opening the world (cameras); same rule as `withWorkspace`. */
  stateDir(create?: boolean): Result<string>;
}

export function invocation(name: string, args: readonly string[], values: Values, io: CliIo, location: WorldLocation, usageText: string): Invocation {
  const json = values.json === true;
  const emit = <T>(r: Result<T>, text: (v: T) => string): number => {
    if (!r.ok) {
      io.stderr.write(`${JSON.stringify({ error: r.error })}\n`);
      return 1;
    }
    io.stdout.write(json ? `${JSON.stringify(r.value)}\n` : `${text(r.value)}\n`);
    return 0;
  };
  return {
    name,
    args,
    values,
    io,
    json,
    location,
    usage: (problem) => {
      io.stderr.write(`mcb ${name}: ${problem}\nusage:\n${usageText}\n`);
      return 2;
    },
    emit,
    stateDir: (create = false) => stateDirectory(location.dir, create || values.init === true, (line) => void io.stderr.write(`${line}\n`)),
    withWorkspace: async (run, options = {}) => {
      const opened = await openWorkspace(location, {
        create: options.create === true || values.init === true,
        log: (line) => void io.stderr.write(`${line}\n`),
        ...(options.limits === undefined ? {} : { limits: options.limits }),
      });
      if (!opened.ok) return emit(opened, () => "");
      const w = opened.value;
      if (options.writes === true) w.interrupt.install();
      try {
        const code = await run(w);
        if (!w.interrupt.requested) return code;
        const stopped: string[] = [];
        for (const id of w.interrupt.operations) {
          const st = await w.engine.operationStatus(w.ctx, { operation_id: id });
          if (st.ok)
            stopped.push(
              `operation ${id} ${st.value.status}: ${st.value.counters.written} of ${st.value.counters.total} blocks written${st.value.counters.written > 0 ? `; undo with: ${sameWorldCommand(["undo", id], location)}` : ""}`,
            );
        }
        io.stderr.write(`mcb: interrupted: ${stopped.length === 0 ? "stopped before writing anything" : stopped.join("; ")}\n`);
        return w.interrupt.exitCode;
      } finally {
        await w.close();
      }
    },
  };
}
