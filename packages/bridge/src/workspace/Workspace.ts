import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { AnvilWorld, isSaveError } from "@mcb/adapter-anvil";
import { PortWorld } from "@mcb/adapter-paper";
import { createBlockRegistry, fail, mcbError, ok, type BlockRegistry, type Box3, type Result } from "@mcb/blocks";
import { Engine, SqliteJournal, type EngineLimits, type RequestContext, type WorldAdapter, type WorldInfo } from "@mcb/engine";
import { serveEditInbox } from "./EditInbox.js";
import { openEmbeddedWorld } from "./EmbeddedWorld.js";
import { Interrupt } from "./Interrupt.js";
import { acquireStateLock } from "./StateLock.js";

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
const STATE_MARKER = "mcb-state";

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

/** Opens a save (a person's, or the embedded one); its refusals become structured errors. */
async function openSave(open: () => Promise<AnvilWorld>): Promise<Result<AnvilWorld>> {
  try {
    return ok(await open());
  } catch (e) {
    if (!isSaveError(e)) throw e;
    return fail({ ...mcbError(e.refusal.code, e.message, e.refusal.details), retryable: e.refusal.retryable });
  }
}

async function connectPort(target: WorldTarget, asked: BlockRegistry | undefined): Promise<Result<{ world: WorldAdapter; registry: BlockRegistry }>> {
  if (target.portToken === undefined || target.portToken.length === 0)
    return fail(mcbError("permission_denied", "set MCB_PORT_TOKEN to the world port's token (it is never taken from the command line)"));
  let world: PortWorld;
  try {
    world = await PortWorld.connect({ url: target.portUrl!, token: target.portToken });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const known = typeof code === "string" && ["permission_denied", "version_mismatch", "invalid_request"].includes(code) ? (code as "permission_denied") : "busy";
    return fail(mcbError(known, `cannot use the world port at ${target.portUrl!.slice(0, 80)}: ${(e as Error).message}`, { reason: "world_port" }));
  }
  const info = await world.info();
  const registry = createBlockRegistry({ version: info.minecraftVersion });
  if (!registry.ok || (asked !== undefined && asked.releases[info.minecraftVersion] === undefined)) {
    await world.close();
    return registry.ok
      ? fail(mcbError("version_mismatch", `the server is Minecraft ${info.minecraftVersion}: leave out --mc-version ${asked!.minecraftVersion}`, { reason: "server_version" }))
      : fail(mcbError("version_mismatch", `the server runs Minecraft ${info.minecraftVersion.slice(0, 40)} (DataVersion ${info.dataVersion}); ${registry.error.message}`, { reason: "server_version" }));
  }
  return ok({ world, registry: registry.value });
}

/** How to widen the area, by where it came from (the engine appends it to out_of_bounds refusals). */
const AREA_HINTS: Readonly<Record<AreaSource, string>> = {
  option: "it is the --area given: pass a larger --area minX,minZ,maxX,maxZ",
  save_chunks: "it is the box of the chunks this save has: pass --area minX,minZ,maxX,maxZ to choose another (mcb never generates chunks in a person's save: visit the area in the game first)",
  default: "pass --area minX,minZ,maxX,maxZ to choose another",
};

/** The project area: `--area` (y the world's height unless given), a person's save's chunks, else the default. */
function projectArea(target: WorldTarget, personSave: AnvilWorld | null, world: WorldInfo): Workspace["area"] {
  const a = target.area;
  if (a !== undefined) return { box: { minX: a.minX, minZ: a.minZ, maxX: a.maxX, maxZ: a.maxZ, minY: a.minY ?? world.minY, maxY: a.maxY ?? world.maxY }, source: "option" };
  const chunks = personSave?.generatedArea() ?? null;
  return chunks === null ? { box: EMBEDDED_AREA, source: "default" } : { box: chunks, source: "save_chunks" };
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
  const exists = existsSync(marker) || existsSync(join(dir, "journal.db"));
  if (!create && !exists)
    return fail(
      mcbError("not_found", `no mcb state directory at ${dir}: build something first (mcb build <recipe.json> creates it), pass --init to create it here, or --state <dir> for another`, {
        reason: "state_missing",
        path: dir,
      }),
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
  /** Diagnostics and progress lines (default: stderr). */
  readonly log?: (line: string) => void;
}

/**
 * Opens the world: the embedded one persisted under the state directory (voxels in `world/`), or a
 * running server through its world port; the durable journal is `<state>/journal.db` either way.
 * An operation left unfinished by a previous process comes back as recovery_required. One process
 * at a time: a directory locked by a live process is `busy` (see `acquireStateLock`); an embedded
 * world serves the people's edits other processes post (`mcb edit`, see `serveEditInbox`) while
 * it is open. Errors: not_found (no state directory and `create: false`), busy, and the port's.
 */
export async function openWorkspace(where: string | WorldLocation, options: OpenOptions = {}): Promise<Result<Workspace>> {
  const { dir: stateDir, target } = locationOf(where);
  const limits = options.limits ?? {};
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const located = stateDirectory(stateDir, options.create !== false, options.log);
  if (!located.ok) return located;
  const dir = located.value;
  // The lock first: nothing of the world or the journal is read while another process holds them.
  const lock = acquireStateLock(dir);
  if (!lock.ok) return lock;
  let world: WorldAdapter | undefined;
  let journal: SqliteJournal | undefined;
  let engine: Engine;
  let embedded: AnvilWorld | null = null;
  let save: AnvilWorld | null = null;
  let registry: BlockRegistry;
  let area: Workspace["area"];
  const asked = target.minecraftVersion === undefined ? undefined : createBlockRegistry({ version: target.minecraftVersion });
  if (asked !== undefined && !asked.ok) {
    lock.value.release();
    return asked;
  }
  try {
    if (target.portUrl !== undefined) {
      const port = await connectPort(target, asked?.value);
      if (!port.ok) {
        lock.value.release();
        return port;
      }
      ({ world, registry } = port.value);
    } else {
      const savePath = target.savePath;
      const opened = await openSave(() =>
        savePath === undefined ? openEmbeddedWorld(dir, asked?.value, log) : AnvilWorld.open({ dir: savePath, ...(asked === undefined ? {} : { registry: asked.value }) }),
      );
      if (!opened.ok) {
        lock.value.release();
        return opened;
      }
      world = save = opened.value;
      registry = save.version.registry;
      if (savePath === undefined) embedded = opened.value;
    }
    area = projectArea(target, save !== null && embedded === null ? save : null, await world.info());
    journal = new SqliteJournal(join(dir, "journal.db"));
    engine = await Engine.open({
      adapter: world,
      journal,
      registry,
      limits,
      log,
      projects: [
        {
          projectId: EMBEDDED_PROJECT,
          ownerId: EMBEDDED_OWNER,
          area: area.box,
          areaHint: AREA_HINTS[area.source],
          description: { embedded: "embedded default world", save: "world save on disk", port: "server world through the world port" }[worldKindOf(target)],
        },
      ],
    });
  } catch (e) {
    journal?.close();
    await world?.close();
    lock.value.release();
    throw e;
  }
  const opened: Workspace = {
    dir,
    registry,
    engine,
    world,
    embedded,
    save,
    area,
    ctx: { principal: { playerId: EMBEDDED_OWNER, role: "agent" }, projectId: EMBEDDED_PROJECT },
    admin: { principal: { playerId: EMBEDDED_OWNER, role: "admin" }, projectId: EMBEDDED_PROJECT },
    interrupt: new Interrupt(engine, log),
    log,
    close: async () => {
      try {
        opened.interrupt.dispose();
        await inbox?.stop();
        await engine.settle();
        engine.close();
        journal.close();
        await world.close();
      } finally {
        lock.value.release();
      }
    },
  };
  // People's edits from other processes (mcb edit) land here while this process holds the world.
  const inbox = embedded === null ? null : serveEditInbox(opened);
  return ok(opened);
}
