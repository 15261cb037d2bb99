import { existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { AnvilWorld, inspectSave, isSaveError } from "@mcb/adapter-anvil";
import { PortWorld } from "@mcb/adapter-port";
import { createBlockRegistry, fail, mcbError, ok, type BlockRegistry, type Result } from "@mcb/blocks";
import { Engine, StoreFailure, openJournal, type Journal, type WorldAdapter, type WorldInfo } from "@mcb/engine";
import { openEmbeddedWorld } from "./EmbeddedWorld.js";
import { Interrupt } from "../jobs/Interrupt.js";
import { acquireStateLock } from "./StateLock.js";
import { startHolderEndpoint, type HolderEndpoint } from "../holder/HolderEndpoint.js";
import { bindSave, embeddedRefusal } from "./SaveBinding.js";
import {
  EMBEDDED_AREA,
  EMBEDDED_OWNER,
  EMBEDDED_PROJECT,
  STATE_MARKER,
  isStateDirectory,
  locationOf,
  stateDirectory,
  worldKindOf,
  type AreaSource,
  type OpenOptions,
  type Workspace,
  type WorldLocation,
  type WorldTarget,
} from "./Workspace.js";

/** Opens a save (a person's, or the embedded one); its refusals become structured errors. */
async function openSave<T>(open: () => Promise<T>): Promise<Result<T>> {
  try {
    return ok(await open());
  } catch (e) {
    if (!isSaveError(e)) throw e;
    return fail({ ...mcbError(e.refusal.code, e.message, e.refusal.details), retryable: e.refusal.retryable });
  }
}

/** A person's save, with the identity its state directory records for it (`bindSave`). */
async function openPersonSave(dir: string, savePath: string, asked: BlockRegistry | undefined, log: (line: string) => void): Promise<Result<AnvilWorld>> {
  const summary = await openSave(async () => inspectSave(savePath));
  if (!summary.ok) return summary;
  for (const w of summary.value.warnings) log(`mcb: warning: ${w}`);
  const bound = bindSave(dir, summary.value, log);
  if (!bound.ok) return bound;
  return openSave(() => AnvilWorld.open({ dir: savePath, ...bound.value, ...(asked === undefined ? {} : { registry: asked }) }, summary.value));
}

async function connectPort(target: WorldTarget, asked: BlockRegistry | undefined): Promise<Result<{ world: WorldAdapter; registry: BlockRegistry }>> {
  if (target.portToken === undefined || target.portToken.length === 0)
    return fail(mcbError("permission_denied", "set MCB_PORT_TOKEN to the world port's token (it is never taken from the command line)"));
  let world: PortWorld;
  try {
    world = await PortWorld.connect({ url: target.portUrl!, token: target.portToken });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const known =
      typeof code === "string" && ["permission_denied", "version_mismatch", "invalid_request"].includes(code) ? (code as "permission_denied") : "busy";
    return fail(mcbError(known, `cannot use the world port at ${target.portUrl!.slice(0, 80)}: ${(e as Error).message}`, { reason: "world_port" }));
  }
  const info = await world.info();
  const registry = createBlockRegistry({ version: info.minecraftVersion });
  if (!registry.ok || (asked !== undefined && asked.releases[info.minecraftVersion] === undefined)) {
    await world.close();
    return registry.ok
      ? fail(
          mcbError("version_mismatch", `the server is Minecraft ${info.minecraftVersion}: leave out --mc-version ${asked!.minecraftVersion}`, {
            reason: "server_version",
          }),
        )
      : fail(
          mcbError(
            "version_mismatch",
            `the server runs Minecraft ${info.minecraftVersion.slice(0, 40)} (DataVersion ${info.dataVersion}); ${registry.error.message}`,
            { reason: "server_version" },
          ),
        );
  }
  return ok({ world, registry: registry.value });
}

/** A PostgreSQL journal several bridges share; an unreachable or newer-schema store is a structured error. */
function openSharedJournal(url: string): Result<Journal> {
  try {
    return ok(openJournal(url));
  } catch (e) {
    if (!(e instanceof StoreFailure)) throw e;
    return fail({ ...mcbError(e.code === "store_schema" ? "version_mismatch" : "busy", e.message, { reason: e.code }), retryable: e.code !== "store_schema" });
  }
}

/**
 * A shared journal's claims: how long a bridge's claims outlive it (`MCB_CLAIM_TTL_MS`, 1 s to
 * 10 min; default 15 s): a dead bridge's operation is recovered that long after it died.
 */
function sharedOptions(env: NodeJS.ProcessEnv): { readonly claimTtlMs?: number } {
  const ttl = Number(env.MCB_CLAIM_TTL_MS);
  return Number.isInteger(ttl) && ttl >= 1000 && ttl <= 600_000 ? { claimTtlMs: ttl } : {};
}

/** How to widen the area, by where it came from (the engine appends it to out_of_bounds refusals). */
/** How an out-of-area refusal says to widen the area: to a person at the command line, or to an agent (MCP, chat), who cannot. */
const AREA_HINTS: Readonly<Record<"person" | "agent", Readonly<Record<AreaSource, string>>>> = {
  person: {
    option: "it is the --area given: pass a larger --area minX,minZ,maxX,maxZ",
    save_chunks:
      "it is the box of the chunks this save has: pass --area minX,minZ,maxX,maxZ to choose another (mcb never generates chunks in a person's save: visit the area in the game first)",
    default: "pass --area minX,minZ,maxX,maxZ to choose another",
  },
  agent: {
    option: "the person chose it when starting mcb: build inside it, or ask them for a larger area",
    save_chunks:
      "it is the box of the chunks this save has: build inside it, or ask the person to visit the area in the game first (mcb never generates chunks in a person's save)",
    default: "build inside it, or ask the person who started mcb for another area",
  },
};

/** The project area: `--area` (y the world's height unless given), a person's save's chunks, else the default. */
function projectArea(target: WorldTarget, personSave: AnvilWorld | null, world: WorldInfo): Workspace["area"] {
  const a = target.area;
  if (a !== undefined)
    return { box: { minX: a.minX, minZ: a.minZ, maxX: a.maxX, maxZ: a.maxZ, minY: a.minY ?? world.minY, maxY: a.maxY ?? world.maxY }, source: "option" };
  const chunks = personSave?.generatedArea() ?? null;
  return chunks === null ? { box: EMBEDDED_AREA, source: "default" } : { box: chunks, source: "save_chunks" };
}

/**
 * Opens the world: the embedded one persisted under the state directory (voxels in `world/`), or a
 * running server through its world port; the durable journal is `<state>/journal.db`, or with a
 * port world a PostgreSQL journal (`--journal`) that several bridges share, each with its own
 * state directory (docs/DESIGN.md "Several bridges"). An operation left unfinished by a process
 * that died comes back as recovery_required. One process per state directory: a directory locked by a live process is `busy` (see
 * `acquireStateLock`); with `serve`, the holder runs the other processes' commands on it (see
 * `startHolderEndpoint`). Errors: not_found (no state directory and `create: false`), busy, and the port's.
 */
export async function openWorkspace(where: string | WorldLocation, options: OpenOptions = {}): Promise<Result<Workspace>> {
  const { dir: stateDir, target } = locationOf(where);
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const before = { dir: existsSync(resolve(stateDir)), marked: isStateDirectory(resolve(stateDir)) };
  const located = stateDirectory(stateDir, options.create !== false, options.log);
  if (!located.ok) return located;
  const dir = located.value;
  // A state directory made for a world that then did not open is taken away again: nothing is left behind.
  const undoCreate = (): void => {
    if (!before.dir) rmSync(dir, { recursive: true, force: true });
    else if (!before.marked) rmSync(join(dir, STATE_MARKER), { force: true });
  };
  // The lock first: nothing of the world or the journal is read while another process holds them.
  const lock = acquireStateLock(dir);
  if (!lock.ok) return lock;
  let parts: Result<OpenedParts>;
  try {
    parts = await openParts(dir, target, options, log);
  } catch (e) {
    lock.value.release();
    undoCreate();
    throw e;
  }
  if (!parts.ok) {
    lock.value.release();
    undoCreate();
    return parts;
  }
  let endpoint: HolderEndpoint | null = null;
  const w = workspaceOf(dir, target, parts.value, lock.value, log, async () => endpoint?.stop());
  const serve = options.serve;
  if (serve !== undefined) {
    try {
      endpoint = await startHolderEndpoint(dir, serve.command, serve.commandsOnly, (c) => serve.service(w, c), log);
    } catch (e) {
      await w.close();
      throw e;
    }
  }
  return ok(w);
}

/** What a workspace is made of, opened in order: the world, the journal, the engine over both. */
interface OpenedParts {
  readonly world: WorldAdapter;
  readonly journal: Journal;
  readonly engine: Engine;
  readonly embedded: AnvilWorld | null;
  readonly save: AnvilWorld | null;
  readonly registry: BlockRegistry;
  readonly area: Workspace["area"];
}

/** The world of the target (a server's port, a save, or the embedded world) with its registry. */
async function openTargetWorld(
  dir: string,
  target: WorldTarget,
  asked: BlockRegistry | undefined,
  log: (line: string) => void,
): Promise<Result<{ world: WorldAdapter; registry: BlockRegistry; embedded: AnvilWorld | null; save: AnvilWorld | null }>> {
  if (target.portUrl !== undefined) {
    const port = await connectPort(target, asked);
    return port.ok ? ok({ ...port.value, embedded: null, save: null }) : port;
  }
  const savePath = target.savePath;
  // One state directory journals for one world: the embedded one, or the save it recorded (SaveBinding).
  let opened: Result<AnvilWorld>;
  if (savePath === undefined) {
    const taken = embeddedRefusal(dir);
    if (!taken.ok) return taken;
    opened = await openSave(() => openEmbeddedWorld(dir, asked, log));
  } else opened = await openPersonSave(dir, savePath, asked, log);
  if (!opened.ok) return opened;
  const save = opened.value;
  return ok({ world: save, registry: save.version.registry, embedded: savePath === undefined ? save : null, save });
}

/** Opens the world, then the journal, then the engine; what was opened is closed again when a later step fails. */
async function openParts(dir: string, target: WorldTarget, options: OpenOptions, log: (line: string) => void): Promise<Result<OpenedParts>> {
  const asked = target.minecraftVersion === undefined ? undefined : createBlockRegistry({ version: target.minecraftVersion });
  if (asked !== undefined && !asked.ok) return asked;
  const opened = await openTargetWorld(dir, target, asked?.value, log);
  if (!opened.ok) return opened;
  const { registry, embedded, save } = opened.value;
  let world = opened.value.world;
  let journal: Journal | undefined;
  try {
    const area = projectArea(target, save !== null && embedded === null ? save : null, await world.info());
    if (options.decorateWorld !== undefined) world = options.decorateWorld(world);
    if (target.journal !== undefined) {
      const shared = openSharedJournal(target.journal);
      if (!shared.ok) {
        await world.close();
        return shared;
      }
      journal = shared.value;
    } else journal = openJournal(join(dir, "journal.db"));
    const engine = await Engine.open({
      adapter: world,
      journal,
      registry,
      limits: options.limits ?? {},
      log,
      ...(target.journal === undefined ? {} : { shared: sharedOptions(process.env) }),
      projects: [
        {
          projectId: EMBEDDED_PROJECT,
          ownerId: EMBEDDED_OWNER,
          area: area.box,
          areaHint: AREA_HINTS[options.agent === true ? "agent" : "person"][area.source],
          description: { embedded: "embedded default world", save: "world save on disk", port: "server world through the world port" }[worldKindOf(target)],
        },
      ],
    });
    return ok({ world, journal, engine, embedded, save, registry, area });
  } catch (e) {
    journal?.close();
    await world.close();
    throw e;
  }
}

/**
 * The workspace over its parts: closing it first stops serving other processes (`stopServing`:
 * their commands end), then settles the engine, closes the parts and gives the lock up.
 */
function workspaceOf(
  dir: string,
  target: WorldTarget,
  p: OpenedParts,
  lock: { release(): void },
  log: (line: string) => void,
  stopServing: () => Promise<void>,
): Workspace {
  const { engine, journal, world } = p;
  const { portToken: _token, ...kept } = target;
  const opened: Workspace = {
    dir,
    registry: p.registry,
    engine,
    world,
    embedded: p.embedded,
    save: p.save,
    area: p.area,
    ctx: { principal: { playerId: EMBEDDED_OWNER, role: "agent" }, projectId: EMBEDDED_PROJECT },
    admin: { principal: { playerId: EMBEDDED_OWNER, role: "admin" }, projectId: EMBEDDED_PROJECT },
    interrupt: new Interrupt(engine, log),
    log,
    target: kept.savePath === undefined ? kept : { ...kept, savePath: resolve(kept.savePath) },
    close: async () => {
      try {
        await stopServing();
        opened.interrupt.dispose();
        await engine.settle();
        engine.close();
        journal.close();
        await world.close();
      } finally {
        lock.release();
      }
    },
  };
  return opened;
}
