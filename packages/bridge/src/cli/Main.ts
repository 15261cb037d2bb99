import { thrownError } from "../workspace/world/ThrownError.js";
import { DEFAULT_STATE_DIR, journalProblem, worldTargetOf, type WorldService } from "../workspace/world/Workspace.js";
import { areaOption, closest, parse } from "./Args.js";
import { cameraCommand } from "./CameraCli.js";
import { previewCommand } from "./PreviewCli.js";
import type { Command } from "./Command.js";
import { editCommand } from "./EditCli.js";
import { HolderAppeared, invocation } from "./Invocation.js";
import { throughHolder } from "./ThroughHolder.js";
import { forwardOf } from "./Forwarded.js";
import { sameWorld } from "../workspace/holder/HeldWorld.js";
import type { CliIo } from "./Io.js";
import { partCommand } from "./PartCli.js";
import { recipeCommand } from "./RecipeCli.js";
import { roomCommands, type Rooms } from "./RoomCli.js";
import { schemCommand } from "./SchemCli.js";
import { terrainCommand } from "./TerrainCli.js";
import { buildCommand, inspectCommand, recoveryCommand, statusCommand, undoCommand } from "./WorldCli.js";

const OPTIONS_USAGE = `options: --state <dir> (the world and journal directory, default ${DEFAULT_STATE_DIR}; only build,
  schem import, terrain batch, mcp, chat and serve create it, or any command with --init), --json,
  --max-rate N (commands that write: at most N blocks per second, e.g. to spare a busy server),
  --world port://127.0.0.1:PORT (a running server's world port instead of the embedded world;
  its token from the MCB_PORT_TOKEN environment variable; give each server its own --state),
  --world save:PATH (a Minecraft save on disk, closed in the game, edited offline; its own --state),
  --mc-version V (the blocks of Minecraft V: a new embedded world is made in it, an older or newer
  save is read with it; default 26.2, the newest; a save mcb edits keeps its own, 26.1 or 26.2),
  --area minX,minZ,maxX,maxZ (the project area; default: a save's generated chunks, else ±4096),
  --journal postgres://user@host:port/db (with --world port://…: one journal shared by several
  bridges on that server, e.g. two mcb mcp and an mcb chat; each its own --state; the password
  from PGPASSWORD; default <state>/journal.db, one bridge),
  <command> --help (that command's usage)

Exit status: 0 success, 1 structured error (JSON on stderr), 2 usage error,
3 an operation that ended other than "applied" (conflict, cancelled, failed),
130 / 143 interrupted by Ctrl-C / SIGTERM: the running operation stopped after its current slice
(cancelled, exact counts, undoable); build, undo, schem import and terrain batch.`;

export type Main = (argv: readonly string[], io: CliIo) => Promise<number>;

/**
 * The `mcb` command line as a function (a two-line bin calls it; tests call it in process): parses
 * argv, runs one command through the workspace, writes to `io`, returns the exit status. A usage
 * error names the mistake first (`unknown command "biuld" (did you mean "build"?)`), then only
 * that command's usage.
 */
export function createMain(rooms: Rooms, service?: WorldService): Main {
  const commands: Command[] = [
    recipeCommand,
    buildCommand,
    undoCommand,
    statusCommand,
    inspectCommand,
    recoveryCommand,
    editCommand,
    partCommand,
    schemCommand,
    terrainCommand,
    cameraCommand,
    previewCommand,
    ...roomCommands(rooms),
  ];
  const byName = new Map(commands.map((c) => [c.name, c]));
  const fullUsage = `usage:\n${commands.map((c) => c.usage).join("\n")}\n${OPTIONS_USAGE}`;
  const names = `commands: ${commands.map((c) => c.name).join(", ")} (mcb --help for all of them)`;
  return async (argv, io) => {
    const parsed = parse(argv);
    if (!parsed.ok) {
      const cmd = byName.get(argv.find((a) => !a.startsWith("-")) ?? "");
      io.stderr.write(`mcb${cmd === undefined ? "" : ` ${cmd.name}`}: ${parsed.problem}\n${cmd === undefined ? names : `usage:\n${cmd.usage}`}\n`);
      return 2;
    }
    const [name, ...args] = parsed.positionals;
    const help = parsed.values.help === true;
    if (name === undefined) {
      if (help) {
        io.stdout.write(`${fullUsage}\n`);
        return 0;
      }
      io.stderr.write(`mcb: missing a command\n${names}\n`);
      return 2;
    }
    const command = byName.get(name);
    if (command === undefined) {
      const near = closest(name, [...byName.keys()]);
      io.stderr.write(`mcb: unknown command ${JSON.stringify(name)}${near === null ? "" : ` (did you mean "${near}"?)`}\n${names}\n`);
      return 2;
    }
    if (help) {
      io.stdout.write(`usage:\n${command.usage}\n`);
      return 0;
    }
    const state = typeof parsed.values.state === "string" ? parsed.values.state : DEFAULT_STATE_DIR;
    const world = typeof parsed.values.world === "string" ? parsed.values.world : undefined;
    const area = areaOption(parsed.values.area);
    if (area === null) {
      io.stderr.write(`mcb ${command.name}: --area must be minX,minZ,maxX,maxZ or minX,minY,minZ,maxX,maxY,maxZ (integers)\nusage:\n${command.usage}\n`);
      return 2;
    }
    const mcVersion = typeof parsed.values["mc-version"] === "string" ? parsed.values["mc-version"] : undefined;
    const journal = typeof parsed.values.journal === "string" ? parsed.values.journal : undefined;
    const target = {
      ...worldTargetOf(world, io.env),
      ...(area === undefined ? {} : { area }),
      ...(mcVersion === undefined ? {} : { minecraftVersion: mcVersion }),
    };
    const problem = journalProblem(journal, target);
    if (problem !== null) {
      io.stderr.write(`mcb ${command.name}: ${problem}\nusage:\n${command.usage}\n`);
      return 2;
    }
    const location = { dir: state, target: { ...target, ...(journal === undefined ? {} : { journal }) } };
    const forward = forwardOf(command.name, args, parsed.values);
    if (io.held !== undefined) {
      // A caller's command in the holder: only what a caller may forward, on the world held here.
      if (forward === null) return (io.stderr.write(`mcb ${command.name}: runs in its own process, not through the holder\n`), 2);
      const same = sameWorld(io.held.workspace, location.target, io.cwd ?? process.cwd());
      if (!same.ok) return (io.stderr.write(`${JSON.stringify({ error: same.error })}\n`), 1);
      // Chosen when a world is opened: the holder's stand, and the person is told so.
      const opening = ["max-rate", "area", "mc-version", "journal"].filter((o) => parsed.values[o] !== undefined).map((o) => `--${o}`);
      if (opening.length > 0)
        io.stderr.write(
          `mcb ${command.name}: run in the process holding the world (pid ${process.pid}), whose ${opening.join(", ")} apply, not this command's\n`,
        );
    } else if (forward !== null) {
      const code = await throughHolder(argv, state, forward, io);
      if (code !== null) return code;
    }
    try {
      // Another process may take the world between our look for a holder and our opening (a holder
      // starting up, or a command that runs on its own): through it when it serves, else on our own
      // again, for up to 10 s; then its busy.
      const until = Date.now() + 10_000;
      for (;;) {
        try {
          return await command.run(invocation(name, args, parsed.values, io, location, command.usage, service, Date.now() > until));
        } catch (e) {
          if (!(e instanceof HolderAppeared) || forward === null) throw e;
          const code = await throughHolder(argv, state, forward, io);
          if (code !== null) return code;
          await new Promise((r) => setTimeout(r, 20 + Math.random() * 80));
        }
      }
    } catch (e) {
      // A failure no command turned into a result (a save that cannot be written at close, a bug):
      // the structured error, never a stack trace.
      io.stderr.write(`${JSON.stringify({ error: thrownError(e, `mcb ${command.name}`) })}\n`);
      return 1;
    }
  };
}
