import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryWorld, type MemoryWorldOptions } from "@mcb/adapter-memory";
import { blockEntityPredicate, type BlockRegistry, type Box3, createBlockRegistry } from "@mcb/blocks";
import { CrashingWorld } from "./CrashingWorld.js";
import type { Faults } from "./Faults.js";
import { KillableSave } from "./KillableSave.js";
import { BatchingWorld } from "./BatchingWorld.js";
import { freshPostgresJournal } from "./postgres/TestPostgres.js";
import {
  Engine,
  SqlJournal,
  openSqlDb,
  type EngineLimits,
  type SqlDb,
  type Journal,
  type OperationStatusView,
  type RequestContext,
  type WorldAdapter,
} from "@mcb/engine";

/**
 * A world the suites drive from outside as well: the memory world, or a real save on disk
 * (AnvilWorld, in the tests' `KillableSave`), with a person's edits; the harness wraps it in crash points (`Harness.faults`).
 */
export type TwinWorld = WorldAdapter & {
  kill(): void;
  readonly hostDown: boolean;
  stateAt(x: number, y: number, z: number): string;
  digestAt(x: number, y: number, z: number): string | null;
  externalEdit(x: number, y: number, z: number, state: string, options?: { readonly emitEvent?: boolean }): void;
  restart(): void | Promise<void>;
  /** Compare-and-set calls served (slices). */
  readonly compareAndSetCalls: number;
};

let cachedRegistry: BlockRegistry | undefined;

/** One registry per process (building it reads minecraft-data). */
export function sharedRegistry(): BlockRegistry {
  if (cachedRegistry === undefined) {
    const r = createBlockRegistry();
    if (!r.ok) throw new Error(r.error.message);
    cachedRegistry = r.value;
  }
  return cachedRegistry;
}

export interface HarnessOptions {
  /** The journal's store: SQLite in memory (default), a SQLite file, or a fresh PostgreSQL journal on the test server. */
  readonly journal?: JournalKind;
  readonly limits?: Partial<EngineLimits>;
  readonly area?: Box3;
  readonly clock?: () => number;
  readonly world?: MemoryWorldOptions;
  /** The world is a Minecraft save in a temporary folder (AnvilWorld, flat ground, write-through) instead of memory. */
  readonly anvil?: boolean;
  /** A custom journal on the harness's store (planted-bug variants); opened again on every restart. */
  readonly journalFactory?: (db: SqlDb) => Journal;
  /** The engine's log (default: silent). */
  readonly log?: (line: string) => void;
  /** The engine's waits between reconnection attempts (default: its own, from 250 ms). */
  readonly reconnectDelaysMs?: readonly number[];
  /** The world takes slices in batches, as the world port does (`BatchingWorld`): the engine applies in windows. */
  readonly batches?: boolean;
  /** The engine shares its journal with other bridges (claims, leases, fencing), as `mcb` does on a PostgreSQL journal. */
  readonly shared?: { readonly holder?: string; readonly claimTtlMs?: number };
}

export type JournalKind = "memory" | "sqlite" | "postgres";

export const DEFAULT_AREA: Box3 = { minX: -256, minY: -64, minZ: -256, maxX: 256, maxY: 319, maxZ: 256 };
export const PROJECT = "default";
export const OWNER = "00000000-0000-4000-8000-000000000001";

/**
 * A real engine over a real memory world and a real journal (SQLite in memory or in a temp
 * directory, or PostgreSQL). `restart()` simulates the process dying and coming back: the world
 * host restarts if it crashed, a file or PostgreSQL journal is closed and reopened, and a new engine opens.
 */
export class Harness<W extends TwinWorld = TwinWorld> {
  readonly agent: RequestContext = { principal: { playerId: OWNER, role: "agent" }, projectId: PROJECT };
  readonly admin: RequestContext = { principal: { playerId: "admin", role: "admin" }, projectId: PROJECT };
  private dir: string | null = null;
  /** Where the journal reopens from after a restart (null: in memory, the same journal lives on). */
  private journalTarget: string | null = null;
  private saveDir: string | null = null;

  /** The world as the engine sees it: `world` with crash points. */
  readonly crashing: CrashingWorld<W>;

  private constructor(
    readonly registry: BlockRegistry,
    readonly world: W,
    public journal: Journal,
    public engine: Engine,
    private readonly options: HarnessOptions,
  ) {
    this.crashing = new CrashingWorld(world);
  }

  /** The crash points of the world the engine uses (and the hook before each compare-and-set). */
  get faults(): Faults {
    return this.crashing.faults;
  }

  /** A harness over the memory world (with its extra abilities), or over a save with `anvil: true`. */
  static async create(options?: HarnessOptions & { readonly anvil?: false }): Promise<Harness<MemoryWorld>>;
  static async create(options: HarnessOptions): Promise<Harness>;
  static async create(options: HarnessOptions = {}): Promise<Harness> {
    const registry = sharedRegistry();
    let world: TwinWorld;
    let saveDir: string | null = null;
    if (options.anvil === true) {
      saveDir = mkdtempSync(join(tmpdir(), "mcb-save-"));
      world = await KillableSave.open({
        dir: saveDir,
        registry,
        flatGround: true,
        maxUnsavedChunks: 0,
        idleSaveMs: 0,
      });
    } else world = new MemoryWorld({ hasBlockEntity: blockEntityPredicate(registry), ...options.world });
    const h = new Harness(registry, world, undefined as unknown as Journal, undefined as unknown as Engine, options);
    h.saveDir = saveDir;
    if (options.journal === "sqlite") {
      h.dir = mkdtempSync(join(tmpdir(), "mcb-journal-"));
      h.journalTarget = join(h.dir, "journal.db");
    } else if (options.journal === "postgres") h.journalTarget = freshPostgresJournal();
    h.journal = h.openJournal(h.journalTarget ?? ":memory:");
    h.engine = await h.openEngine();
    return h;
  }

  private openJournal(target: string): Journal {
    const db = openSqlDb(target);
    return this.options.journalFactory?.(db) ?? new SqlJournal(db);
  }

  private openEngine(): Promise<Engine> {
    return Engine.open({
      adapter: this.options.batches === true ? new BatchingWorld(this.crashing) : this.crashing,
      journal: this.journal,
      registry: this.registry,
      projects: [{ projectId: PROJECT, ownerId: OWNER, area: this.options.area ?? DEFAULT_AREA }],
      ...(this.options.limits === undefined ? {} : { limits: this.options.limits }),
      ...(this.options.clock === undefined ? {} : { clock: this.options.clock }),
      ...(this.options.log === undefined ? {} : { log: this.options.log }),
      ...(this.options.reconnectDelaysMs === undefined ? {} : { reconnectDelaysMs: this.options.reconnectDelaysMs }),
      ...(this.options.shared === undefined ? {} : { shared: this.options.shared }),
    });
  }

  /** The host and the process restart: the world comes back with a new event session (events not pulled are lost). */
  async restart(): Promise<void> {
    await this.crashing.restart();
    await this.reopen();
  }

  /** Only the engine's process restarts: the world keeps running, with its event log. */
  async reopen(): Promise<void> {
    this.engine.close(); // the old process is gone: it reconnects to nothing
    if (this.journalTarget !== null) {
      this.journal.close();
      this.journal = this.openJournal(this.journalTarget);
    }
    this.engine = await this.openEngine();
  }

  /** Prepares and applies a recipe, waits for the operation, returns its final status. */
  async build(recipe: unknown, key = `k-${Math.random().toString(36).slice(2)}`): Promise<OperationStatusView> {
    const plan = unwrap(await this.engine.buildPrepare(this.agent, { recipe }));
    const op = unwrap(await this.engine.buildApply(this.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: key }));
    await this.engine.settle();
    return unwrap(await this.engine.operationStatus(this.agent, { operation_id: op.operation_id }));
  }

  close(): void {
    this.engine.close();
    this.journal.close();
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
    if (this.saveDir !== null) {
      void this.world.close(); // synchronous for a save: saved, lock released
      rmSync(this.saveDir, { recursive: true, force: true });
    }
  }
}

export function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** A one-box recipe. */
export function boxRecipe(min: { x: number; y: number; z: number }, max: { x: number; y: number; z: number }, block: string, hollow = false): unknown {
  return { version: 1, operations: [{ type: "box", min, max, block, hollow }] };
}
