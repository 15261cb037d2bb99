import type { ForwardedCommand } from "../holder/Forwarding.js";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { AnvilWorld } from "@mcb/adapter-anvil";
import { fail, mcbError, ok, type BlockRegistry, type Box3, type Result } from "@mcb/blocks";
import type { Engine, EngineLimits, RequestContext, WorldAdapter } from "@mcb/engine";
import type { Interrupt } from "../jobs/Interrupt.js";

/**
 * The project of a workspace: one local owner. Its area: `--area` when given; for a person's save,
 * the box of the chunks it has (`AnvilWorld.generatedArea`); else (mcb's own world, which makes
 * its ground as it builds, and a server) 8192 × 8192 around the origin.
 */
export const EMBEDDED_PROJECT = "default";
export const EMBEDDED_OWNER = "local";
export const EMBEDDED_AREA = { minX: -4096, minY: -64, minZ: -4096, maxX: 4095, maxY: 319, maxZ: 4095 };
export const DEFAULT_STATE_DIR = ".state";
/** The file that marks a directory as an mcb state directory (a journal marks one made before it). */
export const STATE_MARKER = "mcb-state";

/** Whether a directory is an mcb state directory (its marker, or the journal of one made before the marker). */
export function isStateDirectory(dir: string): boolean {
  return existsSync(join(dir, STATE_MARKER)) || existsSync(join(dir, "journal.db"));
}

export interface Workspace {
  /** Absolute state directory. */
  readonly dir: string;
  readonly registry: BlockRegistry;
  readonly engine: Engine;
  /** The embedded world, a save on disk (`--world save:PATH`) or a live server through the world port (`--world port://…`). */
  readonly world: WorldAdapter;
  /** The same world when it is the embedded one (mcb's own save under the state directory), else null. */
  readonly embedded: AnvilWorld | null;
  /** The same world when it is a save on disk (the embedded one or `--world save:PATH`), else null. */
  readonly save: AnvilWorld | null;
  /** The project area, and where it comes from. */
  readonly area: { readonly box: Box3; readonly source: AreaSource };
  readonly ctx: RequestContext;
  /** The same project with the administrator role (recovery review/abandon). */
  readonly admin: RequestContext;
  /** Ctrl-C / SIGTERM handling for commands that write (see `Interrupt`); idle until installed. */
  readonly interrupt: Interrupt;
  /** Where diagnostics and progress lines go (one line each, no newline). */
  readonly log: (line: string) => void;
  /** The world it opened (a save's path made absolute); the port token left out. */
  readonly target: WorldTarget;
  /** Waits for running operations, then closes the journal. */
  close(): Promise<void>;
}

/** Where a project area comes from: `--area`, the chunks a person's save has, or the default around the origin. */
export type AreaSource = "option" | "save_chunks" | "default";

/** Where the world lives: the embedded world (default), a save on disk, or a world port on loopback. */
export interface WorldTarget {
  /** `port://127.0.0.1:PORT` (or http://): the Java world port of a running server. */
  readonly portUrl?: string;
  /** `save:PATH`: a Minecraft Java save (the folder holding level.dat), edited offline. */
  readonly savePath?: string;
  /** The port's token; from the MCB_PORT_TOKEN environment variable, never from argv. */
  readonly portToken?: string;
  /** `--mc-version`: the registry a new or read-only save uses; a save mcb edits, or a server, must be of it. */
  readonly minecraftVersion?: string;
  /** `--area`: the project area (x and z; y the world's height unless given). */
  readonly area?: AreaOption;
  /**
   * `--journal postgres://user@host:port/db`: a journal shared with other bridges on the same
   * server world (its password from PGPASSWORD, never from argv); absent: `<state>/journal.db`.
   */
  readonly journal?: string;
}

/**
 * Checks `--journal`: a PostgreSQL URL without a password (command lines are visible to every
 * user of the machine; the password comes from PGPASSWORD), for a server's world port only (a
 * save on disk, the embedded world included, has one writer). A problem, or null.
 */
export function journalProblem(journal: string | undefined, target: WorldTarget): string | null {
  if (journal === undefined) return null;
  let url: URL;
  try {
    url = new URL(journal);
  } catch {
    return "--journal must be a postgres://user@host:port/database URL";
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:")
    return "--journal must be a postgres://user@host:port/database URL (the default journal is <state>/journal.db)";
  if (url.password !== "") return "--journal must not carry a password (every user of the machine can read a command line): set PGPASSWORD instead";
  if (target.portUrl === undefined)
    return "--journal (a journal shared by several bridges) needs --world port://…: a save on disk, the embedded world included, has one writer";
  return null;
}

/** A project area as given: x and z, and y when given. */
export interface AreaOption {
  readonly minX: number;
  readonly minZ: number;
  readonly maxX: number;
  readonly maxZ: number;
  readonly minY?: number;
  readonly maxY?: number;
}

/** A state directory and the world it journals for. */
export interface WorldLocation {
  readonly dir: string;
  readonly target: WorldTarget;
}

export function locationOf(where: string | WorldLocation): WorldLocation {
  return typeof where === "string" ? { dir: where, target: {} } : where;
}

/** The world target of the CLI: `--world save:PATH` names a save, anything else a port (its token from MCB_PORT_TOKEN). */
export function worldTargetOf(world: string | undefined, env: NodeJS.ProcessEnv = process.env): WorldTarget {
  if (world === undefined) return {};
  if (world.startsWith("save:")) return { savePath: resolve(world.slice("save:".length)) };
  return { portUrl: world, ...(env.MCB_PORT_TOKEN === undefined ? {} : { portToken: env.MCB_PORT_TOKEN }) };
}

/** What kind of world a target names. */
export function worldKindOf(target: WorldTarget): "embedded" | "save" | "port" {
  return target.portUrl !== undefined ? "port" : target.savePath !== undefined ? "save" : "embedded";
}

/**
 * The absolute state directory; with `create`, made (and marked with `mcb-state`) when missing.
 * Without, a directory that is not one (no marker, no journal) is `not_found` (reason
 * `state_missing`): a mistyped `--state`, or a command run from another directory, never makes a
 * new empty world.
 */
export function stateDirectory(stateDir: string, create: boolean, log?: (line: string) => void): Result<string> {
  const dir = resolve(stateDir);
  const marker = join(dir, STATE_MARKER);
  const exists = isStateDirectory(dir);
  if (!create && !exists)
    return fail(
      mcbError(
        "not_found",
        `no mcb state directory at ${dir}: build something first (mcb build <recipe.json> creates it), pass --init to create it here, or --state <dir> for another`,
        {
          reason: "state_missing",
          path: dir,
        },
      ),
    );
  mkdirSync(dir, { recursive: true });
  if (!exists) {
    writeFileSync(marker, "an mcb state directory: the world, its journal, cameras and schematics\n");
    log?.(`mcb: a new state directory (world and journal) in ${dir}`);
  }
  return ok(dir);
}

export interface OpenOptions {
  readonly limits?: Partial<EngineLimits>;
  /**
   * Create the state directory when it holds no journal yet (default true). Commands that only look
   * or change what exists pass false: a mistyped `--state` is then `not_found`, not a new empty world.
   */
  readonly create?: boolean;
  /** The front end is an agent's (MCP, chat): refusals say what an agent can do, not which command-line option to pass. */
  readonly agent?: boolean;
  /** Diagnostics and progress lines (default: stderr). */
  readonly log?: (line: string) => void;
  /**
   * Wraps the world before the engine and the workspace use it (instrumentation; the tests' crash
   * points). `embedded` and `save` stay the world itself.
   */
  readonly decorateWorld?: (world: WorldAdapter) => WorldAdapter;
  /**
   * Serve the other mcb processes on this state directory while it is held (`<state>/holder.json`,
   * see `startHolderEndpoint`): `command` names this holder, `commandsOnly` for a holder that runs
   * one command and ends, `service` runs a caller's command on this workspace.
   */
  readonly serve?: {
    readonly command: string;
    readonly commandsOnly: boolean;
    readonly service: WorldService;
  };
}

/** What runs a caller's command on the world this process holds (the composition root's `main`). */
export type WorldService = (w: Workspace, command: ForwardedCommand) => Promise<number>;
