import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PortWorld } from "@mcb/adapter-port";
import { type BlockRegistry, type Box3, createBlockRegistry } from "@mcb/blocks";
import {
  Engine,
  openJournal,
  type CasBatchResult,
  type CasResult,
  type CasSlice,
  type EngineLimits,
  type Journal,
  type RequestContext,
  type SavedMarks,
  type WorldAdapter,
} from "@mcb/engine";
import type { MinestomHost } from "./MinestomHost.js";

/**
 * Delegates to another adapter and lets a test act between compare-and-set calls (a player
 * editing "between slices"). `beforeCompareAndSet(call)` is awaited before call `call` (0-based).
 */
export class HookedAdapter implements WorldAdapter {
  beforeCompareAndSet: ((call: number) => Promise<void>) | null = null;
  calls = 0;
  readonly flush?: () => Promise<SavedMarks>;
  constructor(readonly inner: WorldAdapter) {
    if (inner.flush !== undefined) this.flush = () => inner.flush!();
  }
  info() {
    return this.inner.info();
  }
  read(box: Box3) {
    return this.inner.read(box);
  }
  readBlockEntities(box: Box3) {
    return this.inner.readBlockEntities!(box);
  }
  async compareAndSet(slice: CasSlice): Promise<CasResult> {
    const call = this.calls++;
    if (this.beforeCompareAndSet !== null) await this.beforeCompareAndSet(call);
    return this.inner.compareAndSet(slice);
  }
  /** A batch is one call of the hook, numbered by its first slice (`calls` counts slices). */
  async compareAndSetBatch(slices: readonly CasSlice[]): Promise<CasBatchResult> {
    const call = this.calls;
    this.calls += slices.length;
    if (this.beforeCompareAndSet !== null) await this.beforeCompareAndSet(call);
    return this.inner.compareAndSetBatch!(slices);
  }
  events(cursor: string | null) {
    return this.inner.events(cursor);
  }
  close() {
    return this.inner.close();
  }
}

export const LIVE_PROJECT = "live";
export const LIVE_OWNER = "00000000-0000-4000-8000-0000000000aa";
export const LIVE_AREA: Box3 = { minX: -64, minY: -64, minZ: -64, maxX: 63, maxY: 319, maxZ: 63 };

/** The real engine with a durable SQLite journal, over a live world port. `reopen()` is a bridge restart. */
export class LiveEngine {
  readonly agent: RequestContext = { principal: { playerId: LIVE_OWNER, role: "agent" }, projectId: LIVE_PROJECT };
  readonly admin: RequestContext = { principal: { playerId: "admin", role: "admin" }, projectId: LIVE_PROJECT };
  private constructor(
    readonly dir: string,
    readonly registry: BlockRegistry,
    public port: PortWorld,
    public world: HookedAdapter,
    public journal: Journal,
    public engine: Engine,
    private readonly limits: Partial<EngineLimits>,
  ) {}

  static async open(host: MinestomHost, limits: Partial<EngineLimits> = {}): Promise<LiveEngine> {
    const dir = mkdtempSync(join(tmpdir(), "mcb-live-journal-"));
    const port = await PortWorld.connect({ url: host.url, token: host.token });
    const info = await port.info();
    const registry = createBlockRegistry({ version: info.minecraftVersion });
    if (!registry.ok) throw new Error(registry.error.message);
    const world = new HookedAdapter(port);
    const journal = openJournal(join(dir, "journal.db"));
    const engine = await LiveEngine.engineOn(world, journal, registry.value, limits);
    return new LiveEngine(dir, registry.value, port, world, journal, engine, limits);
  }

  private static engineOn(world: WorldAdapter, journal: Journal, registry: BlockRegistry, limits: Partial<EngineLimits>): Promise<Engine> {
    return Engine.open({ adapter: world, journal, registry, limits, projects: [{ projectId: LIVE_PROJECT, ownerId: LIVE_OWNER, area: LIVE_AREA }] });
  }

  /** A new bridge process against a (possibly restarted) host: new adapter, the journal reopened from its file. */
  async reopen(host: MinestomHost): Promise<void> {
    await this.engine.settle().catch(() => undefined);
    this.engine.close();
    this.journal.close();
    await this.port.close();
    this.port = await PortWorld.connect({ url: host.url, token: host.token });
    this.world = new HookedAdapter(this.port);
    this.journal = openJournal(join(this.dir, "journal.db"));
    this.engine = await LiveEngine.engineOn(this.world, this.journal, this.registry, this.limits);
  }

  async close(): Promise<void> {
    await this.engine.settle().catch(() => undefined);
    this.engine.close();
    this.journal.close();
    await this.port.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
