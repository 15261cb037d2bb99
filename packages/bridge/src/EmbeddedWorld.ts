import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { MemoryWorld } from "@mcb/adapter-memory";
import { blockEntityPredicate, createBlockRegistry, ok, type BlockRegistry, type Result } from "@mcb/blocks";
import { Engine, SqliteJournal, type RequestContext } from "@mcb/engine";
import { acquireStateLock } from "./StateLock.js";

/** The embedded default world's project: one local owner, a 8192 × 8192 area around the origin. */
export const EMBEDDED_PROJECT = "default";
export const EMBEDDED_OWNER = "local";
export const EMBEDDED_AREA = { minX: -4096, minY: -64, minZ: -4096, maxX: 4095, maxY: 319, maxZ: 4095 };
export const DEFAULT_STATE_DIR = ".state";

export interface EmbeddedWorld {
  /** Absolute state directory. */
  readonly dir: string;
  readonly registry: BlockRegistry;
  readonly engine: Engine;
  readonly world: MemoryWorld;
  readonly ctx: RequestContext;
  /** The same project with the administrator role (recovery review/abandon). */
  readonly admin: RequestContext;
  /** Waits for running operations, then closes the journal. */
  close(): Promise<void>;
}

/**
 * Opens the embedded world persisted under `stateDir`: voxels in `world/`, the durable journal in
 * `journal.db`. An operation left unfinished by a previous process comes back as recovery_required.
 * One process at a time: a directory locked by a live process is `busy` (see `acquireStateLock`).
 */
export async function openEmbeddedWorld(stateDir: string = DEFAULT_STATE_DIR): Promise<Result<EmbeddedWorld>> {
  const dir = resolve(stateDir);
  mkdirSync(dir, { recursive: true });
  const registry = createBlockRegistry();
  if (!registry.ok) return registry;
  const lock = acquireStateLock(dir);
  if (!lock.ok) return lock;
  let journal: SqliteJournal | undefined;
  let engine: Engine;
  let world: MemoryWorld;
  try {
    world = new MemoryWorld({ dir: join(dir, "world"), hasBlockEntity: blockEntityPredicate(registry.value) });
    journal = new SqliteJournal(join(dir, "journal.db"));
    engine = await Engine.open({
      adapter: world,
      journal,
      registry: registry.value,
      projects: [{ projectId: EMBEDDED_PROJECT, ownerId: EMBEDDED_OWNER, area: EMBEDDED_AREA, description: "embedded default world" }],
    });
  } catch (e) {
    journal?.close();
    lock.value.release();
    throw e;
  }
  return ok({
    dir,
    registry: registry.value,
    engine,
    world,
    ctx: { principal: { playerId: EMBEDDED_OWNER, role: "agent" }, projectId: EMBEDDED_PROJECT },
    admin: { principal: { playerId: EMBEDDED_OWNER, role: "admin" }, projectId: EMBEDDED_PROJECT },
    close: async () => {
      try {
        await engine.settle();
        journal.close();
        await world.close();
      } finally {
        lock.value.release();
      }
    },
  });
}
