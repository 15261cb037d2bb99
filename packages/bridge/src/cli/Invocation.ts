import { isAbsolute, relative, resolve } from "node:path";
import type { Result } from "@mcb/blocks";
import type { EngineLimits } from "@mcb/engine";
import { openWorkspace } from "../workspace/world/OpenWorkspace.js";
import { stateDirectory, type Workspace, type WorldLocation, type WorldService } from "../workspace/world/Workspace.js";
import { actingThrough, heldView } from "../workspace/holder/HeldWorld.js";
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
  /** A file name the person gave, as this process reads it: from their working directory (the same one, run on its own). */
  file(name: string): string;
  /**
   * When `r` is the refusal of a world another process took after this command looked for a
   * holder (a holder starting up), throws `HolderAppeared`: the command line goes to it instead.
   */
  checkHolderAppeared(r: Result<unknown>): void;
}

/** Thrown by `withWorkspace` when a holder appeared after the command looked for one: the command line goes to it. */
export class HolderAppeared extends Error {
  constructor() {
    super("a holder appeared");
  }
}

export function invocation(
  name: string,
  args: readonly string[],
  values: Values,
  io: CliIo,
  location: WorldLocation,
  usageText: string,
  service?: WorldService,
  lastTry = false,
): Invocation {
  const json = values.json === true;
  const held = io.held;
  const emit = <T>(r: Result<T>, text: (v: T) => string): number => {
    if (!r.ok) {
      io.stderr.write(`${JSON.stringify({ error: r.error })}\n`);
      return 1;
    }
    io.stdout.write(json ? `${JSON.stringify(r.value)}\n` : `${text(r.value)}\n`);
    return 0;
  };
  const checkHolderAppeared = (r: Result<unknown>): void => {
    if (!r.ok && held === undefined && service !== undefined && !lastTry && r.error.details?.reason === "state_locked") throw new HolderAppeared();
  };
  return {
    name,
    args,
    values,
    io,
    json,
    location,
    checkHolderAppeared,
    usage: (problem) => {
      io.stderr.write(`mcb ${name}: ${problem}\nusage:\n${usageText}\n`);
      return 2;
    },
    emit,
    stateDir: (create = false) =>
      held !== undefined
        ? { ok: true, value: held.workspace.dir }
        : stateDirectory(location.dir, create || values.init === true, (line) => void io.stderr.write(`${line}\n`)),
    file: (file) => {
      if (io.cwd === undefined || isAbsolute(file)) return file;
      const full = resolve(io.cwd, file);
      // The same name as on its own when the holder runs from the caller's directory.
      return io.cwd === process.cwd() ? relative(process.cwd(), full) || "." : full;
    },
    withWorkspace: async (run, options = {}) => {
      const log = (line: string): void => void io.stderr.write(`${line}\n`);
      // Its operations are attributed to the command (a caller's in the holder: with the caller's pid).
      const client = held === undefined ? `mcb ${name}` : `mcb ${name} (pid ${held.command.request.pid})`;
      const opened =
        held !== undefined
          ? { ok: true as const, value: heldView(held, client, log) }
          : await openWorkspace(location, {
              create: options.create === true || values.init === true,
              log,
              ...(options.limits === undefined ? {} : { limits: options.limits }),
              ...(service === undefined ? {} : { serve: { service, command: `mcb ${name}`, commandsOnly: true } }),
            });
      // Another process took the world between this command's look for a holder and its own opening
      // (a holder starting up): the command line goes to it (see `HolderAppeared`), unless this is the last try.
      checkHolderAppeared(opened);
      if (!opened.ok) return emit(opened, () => "");
      const w =
        held !== undefined ? opened.value : { ...opened.value, ctx: actingThrough(opened.value.ctx, client), admin: actingThrough(opened.value.admin, client) };
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
