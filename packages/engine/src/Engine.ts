import { randomBytes } from "node:crypto";
import { type Box3, createMaterialCatalog, fail, type MaterialCatalog, mcbError, ok, type Result } from "@mcb/blocks";
import { createRecipeCompiler, type RecipeCompiler } from "@mcb/recipe";
import type { ApplyInput } from "./apply/ApplyAdmission.js";
import { OperationDesk } from "./apply/OperationDesk.js";
import { PlanCache } from "./plan/PlanCache.js";
import { OperationQueue } from "./apply/OperationQueue.js";
import { ConnectionRules } from "./plan/ConnectionRules.js";
import { ChangeFeed, type ChangePage, type ChangeSource } from "./project/ChangeFeed.js";
import { EventSync } from "./merge/EventSync.js";
import type { RegionInspectInput, RegionInspectView } from "./world/Inspect.js";
import type { OperationListInput, OperationListView } from "./project/OperationList.js";
import type { SurfaceInput, SurfaceView } from "./world/Surface.js";
import type { RegionSlab } from "./world/RegionSlabs.js";
import { operationPlans } from "./merge/Ownership.js";
import type { PartDiffView } from "./parts/PartDiff.js";
import { PartDesk } from "./parts/PartDesk.js";
import { ReadDesk } from "./project/ReadDesk.js";
import type { PlanWrites } from "./project/PlanWrites.js";
import { partView, partsAfterUndo, type PartDetailView, type PartView } from "./parts/Parts.js";
import type { BuildPrepareInput } from "./plan/Prepare.js";
import type { PreparedPlan } from "./core/PreparedPlan.js";
import {
  DEFAULT_ENGINE_LIMITS,
  denied,
  validateLimits,
  type EngineLimits,
  type ProjectAccess,
  type ProjectConfig,
  type RequestContext,
} from "./core/Project.js";
import { ProjectRegistry } from "./project/ProjectRegistry.js";
import type { RecoveryReview } from "./recovery/Recovery.js";
import { StandingIndex } from "./merge/StandingIndex.js";
import type { OperationStatusView, PrepareView, UndoPrepareView } from "./project/Views.js";
import type { RegionRead, WorldInfo } from "./world/WorldAdapter.js";
import type { ProjectContextView } from "./project/ProjectContext.js";
import { guardWorld } from "./world/WorldGuard.js";
import { HostWatch } from "./recovery/HostWatch.js";
import { HostDesk, type FlushView } from "./recovery/HostDesk.js";
import { PrepareDesk } from "./plan/PrepareDesk.js";
import { settleUnfinished } from "./recovery/HostStart.js";
import { BridgeClaims } from "./recovery/BridgeClaims.js";
import { nameEndedPart, nameMissedParts, type NamedPartDeps } from "./parts/NamedParts.js";
import type { PartDiffInput } from "./parts/PartDesk.js";
import { checkUnsavedWrites, type SavedWritesCheck } from "./apply/SavedWrites.js";
import type { EngineOptions } from "./EngineOptions.js";

export type { EngineOptions };

/**
 * The world engine: checked preparation, sliced compare-and-set application with a write-ahead
 * journal, cancellation, checked undo, parts, crash recovery and change cursors, over any
 * `WorldAdapter`. Every method validates its untrusted input and returns a `Result`; operations run
 * one at a time in the background (`settle()` waits for the queue).
 */
export class Engine {
  private readonly projects: ProjectRegistry;
  private readonly limits: EngineLimits;
  private readonly clock: () => number;
  private readonly newId: (prefix: string) => string;
  private readonly compiler: RecipeCompiler;
  private readonly catalog: MaterialCatalog;
  private readonly connections: ConnectionRules;
  private readonly feed: ChangeFeed;
  private readonly events: EventSync;
  private readonly index: StandingIndex;
  private readonly planCache = new PlanCache();
  private readonly ops: OperationQueue;
  /** This bridge's claims in the journal (operations, region leases); no-ops for an exclusive journal. */
  private readonly claims: BridgeClaims;
  private readonly parts: PartDesk;
  private readonly reads: ReadDesk;
  private readonly host: HostWatch;
  private readonly hostDesk: HostDesk;
  private readonly prep: PrepareDesk;
  private readonly opsDesk: OperationDesk;
  private readonly named: NamedPartDeps;

  private constructor(private readonly o: EngineOptions) {
    this.limits = { ...DEFAULT_ENGINE_LIMITS, ...o.limits };
    validateLimits(this.limits);
    this.clock = o.clock ?? Date.now;
    this.newId = o.newId ?? ((prefix) => `${prefix}_${randomBytes(12).toString("hex")}`);
    this.compiler = createRecipeCompiler(o.registry);
    this.catalog = createMaterialCatalog(o.registry);
    this.connections = new ConnectionRules(o.registry);
    this.claims = new BridgeClaims(o.journal, {
      shared: o.shared !== undefined,
      ...(o.shared?.holder === undefined ? {} : { holder: o.shared.holder }),
      ...(o.shared?.claimTtlMs === undefined ? {} : { ttlMs: o.shared.claimTtlMs }),
    });
    // A bridge that died leaves its operations to whichever live bridge claims them first.
    this.claims.watchOrphans(() => {
      if (this.host.refusal() === null && this.ops.stoppedBy === null) settleUnfinished(o.journal, this.clock(), this.claims, { skipOwn: true });
    });
    this.feed = new ChangeFeed(
      o.journal,
      operationPlans(o.journal, (id) => this.plan(id)),
    );
    this.events = new EventSync(o.adapter, o.journal);
    this.index = new StandingIndex(o.journal, (id) => this.plan(id));
    const log = o.log ?? (() => {});
    this.host = new HostWatch({
      adapter: o.adapter,
      log,
      restarted: (info) => this.hostStarted(info, true).then(() => undefined),
      ...(o.reconnectDelaysMs === undefined ? {} : { delaysMs: o.reconnectDelaysMs }),
    });
    this.opsDesk = new OperationDesk({
      journal: o.journal,
      limits: this.limits,
      clock: this.clock,
      newId: this.newId,
      claims: this.claims,
      queue: () => this.ops,
      scope: (ctx) => this.scope(ctx),
      guard: (run) => this.guard(run),
      world: () => this.host.check(),
      findPlan: (id) => this.findPlan(id),
    });
    ({ reads: this.reads, prep: this.prep, hostDesk: this.hostDesk, parts: this.parts } = this.desks(o));
    this.projects = new ProjectRegistry(o.projects, o.journal, (id) => this.plan(id));
    this.named = { journal: o.journal, plan: (id) => this.plan(id), newId: this.newId, clock: this.clock };
    this.ops = new OperationQueue(
      {
        adapter: o.adapter,
        journal: o.journal,
        limits: this.limits,
        clock: this.clock,
        plans: (id) => this.plan(id),
        syncEvents: () => this.syncEvents(),
        mayWrite: (op) => this.projects.mayWrite(op),
        fence: (id) => this.claims.fence(id),
      },
      this.claims,
      (id) => this.finished(id),
      log,
      (error) => this.host.lost(error),
    );
  }

  /** The desks the requests go to (reads, preparing, the host's state, parts), over what they share. */
  private desks(o: EngineOptions): { reads: ReadDesk; prep: PrepareDesk; hostDesk: HostDesk; parts: PartDesk } {
    const desk = {
      adapter: o.adapter,
      journal: o.journal,
      limits: this.limits,
      clock: this.clock,
      scope: (ctx: RequestContext) => this.scope(ctx),
      syncEvents: () => this.syncEvents(),
      guard: <T>(run: () => Promise<Result<T>>) => this.guard(run),
    };
    const reads = new ReadDesk({ ...desk, catalog: this.catalog, feed: this.feed, findPlan: (id) => this.findPlan(id) });
    const prep = new PrepareDesk({
      ...desk,
      registry: o.registry,
      compiler: this.compiler,
      connections: this.connections,
      index: this.index,
      newId: this.newId,
      plan: (id) => this.plan(id),
      ownOperation: (ctx, id) => this.opsDesk.own(ctx, id),
      cache: (plan) => this.planCache.put(plan),
    });
    const hostDesk = new HostDesk({
      ...desk,
      host: this.host,
      plan: (id) => this.plan(id),
      view: (op) => this.opsDesk.view(op),
      ownOperation: (ctx, id) => this.opsDesk.own(ctx, id),
    });
    const parts = new PartDesk({
      ...desk,
      index: this.index,
      newId: this.newId,
      plan: (id) => this.plan(id),
      planPositions: (id) => this.planCache.get(id)?.pos ?? this.o.journal.getPlanPositions(id) ?? this.plan(id).pos,
      ownOperation: (ctx, id) => this.opsDesk.own(ctx, id),
    });
    return { reads, prep, hostDesk, parts };
  }

  /**
   * Opens the engine: unfinished operations found in the journal become `recovery_required` (a
   * queued one that never started becomes `cancelled`), the external edits the world observed
   * since the journal's saved event cursor are pulled in (a new journal starts at the world's head),
   * and writes of earlier host sessions not known saved are checked against the world.
   */
  static async open(options: EngineOptions): Promise<Engine> {
    const engine = new Engine(options);
    nameMissedParts(
      engine.named,
      options.projects.map((p) => p.projectId),
    );
    const info = await options.adapter.info();
    engine.host.known(info);
    engine.lastCheck = await engine.hostStarted(info, false);
    return engine;
  }

  /** What the newest saved-writes check found (at open, or after the host came back). */
  lastCheck: SavedWritesCheck = { slices: 0, positions: 0, lost: [] };

  /** A new engine, or the host back after it was down: the steps of docs/DESIGN.md "Saved writes". */
  private async hostStarted(info: WorldInfo, reconnected: boolean): Promise<SavedWritesCheck> {
    if (reconnected) await this.ops.settle(); // the queue stopped at the crash; nothing runs now
    settleUnfinished(this.o.journal, this.clock(), this.claims);
    await this.events.start();
    const check = await checkUnsavedWrites(this.o.journal, this.o.adapter, (id) => this.plan(id), info, this.clock());
    for (const l of check.lost)
      this.o.log?.(
        `mcb: operation ${l.operationId}: ${l.count} blocks it wrote were lost when the world's server stopped before saving them; it needs a recovery review`,
      );
    this.lastCheck = check;
    if (reconnected) this.ops.resume();
    return check;
  }

  /**
   * Runs a request that talks to the world, after checking its host is the one the engine knows: a
   * vanished or restarted host answers busy (host_down) and the engine reconnects and checks.
   */
  private guard<T>(run: () => Promise<Result<T>>): Promise<Result<T>> {
    return guardWorld(
      async () => {
        await this.host.check();
        return run();
      },
      (error) => this.host.lost(error),
    );
  }

  // ---- access ---------------------------------------------------------------------------

  private scope(ctx: RequestContext): Result<ProjectAccess> {
    const down = this.host.refusal();
    if (down !== null) return fail(down);
    const stopped = this.ops.stoppedBy;
    if (stopped !== null) return fail(mcbError("busy", `this engine stopped (${stopped.message}); restart the process`, { reason: "engine_stopped" }));
    const p = this.projects.get(ctx.projectId);
    if (p === undefined || !p.permits(ctx.principal)) return fail(denied(ctx.projectId));
    return ok(p);
  }

  /** The material catalog of the engine's registry (material_search, material_describe, project_context). */
  get materials(): MaterialCatalog {
    return this.catalog;
  }

  /** The caller's project scope now (revocation is immediate): its area, or permission_denied / busy. */
  projectScope(ctx: RequestContext): Result<{ readonly projectId: string; readonly area: Box3 }> {
    const s = this.scope(ctx);
    return s.ok ? ok({ projectId: s.value.config.projectId, area: s.value.config.area }) : s;
  }

  /**
   * Host control: creates a project or redefines one (area, owner, members; protections are kept).
   * A smaller area stops running operations whose plan leaves it before their next slice. Errors:
   * `invalid_request` (id, area, owner).
   */
  defineProject(config: ProjectConfig): Result<void> {
    return this.projects.define(config);
  }

  /**
   * `/ai protect`: while protected, no plan (build or undo) that writes a block of the part's mask
   * is prepared or admitted, and a running one stops before its next slice. Errors: not_found.
   */
  protectPart(ctx: RequestContext, partId: string, on: boolean): Result<PartView> {
    const scope = this.scope(ctx);
    if (!scope.ok) return scope;
    const part = this.parts.own(ctx, partId);
    if (!part.ok) return part;
    scope.value.protect(part.value.partId, on);
    return ok(partView(part.value));
  }

  /** The project's protected part ids (for hosts that persist them). */
  protectedParts(projectId: string): readonly string[] {
    return [...(this.projects.get(projectId)?.protectedParts ?? [])].sort();
  }

  /** Administrator control: grant or revoke a player's access (takes effect before the next slice). */
  setAccess(projectId: string, playerId: string, allowed: boolean): void {
    const p = this.projects.get(projectId);
    if (p === undefined) throw new Error(`unknown project ${projectId}`);
    p.set(playerId, allowed);
  }

  private plan(planId: string): PreparedPlan {
    const p = this.findPlan(planId);
    if (p === null) throw new Error(`plan ${planId} missing from the journal`);
    return p;
  }

  /** A plan from the cache, else the journal (then cached); null when no such plan was prepared. */
  private findPlan(planId: string): PreparedPlan | null {
    const cached = this.planCache.get(planId);
    if (cached !== undefined) return cached;
    const p = this.o.journal.getPlan(planId);
    if (p !== null) this.planCache.put(p);
    return p;
  }

  /** Pulls external events into the journal (undo ownership, manual edits, region_changes). Serialized. */
  private async syncEvents(): Promise<WorldInfo> {
    // The same host session (else HostCrash: the engine reconnects and checks) and its events, asked
    // at once: a restarted host's log answers a gap, which the journal records either way.
    const [info] = await Promise.all([this.host.check(), this.events.sync()]);
    return info;
  }

  /**
   * Host control: pulls the external edits the world observed into the journal now (a host that
   * just made a person's edit, e.g. `mcb edit`, calls it so the edit is on record at once).
   */
  async sync(): Promise<Result<void>> {
    return this.guard(async () => {
      await this.syncEvents();
      return ok(undefined);
    });
  }

  /**
   * Host control (an interrupted command): asks every queued or running operation to stop before
   * its next slice, as operation_cancel does; with `client`, only the operations that front end
   * applied (`Principal.client`). Returns the operations asked.
   */
  cancelAll(client?: string): string[] {
    return this.opsDesk.cancelAll(client);
  }

  // ---- reads (see ReadDesk) ------------------------------------------------------------------

  projectContext(ctx: RequestContext): Promise<Result<ProjectContextView>> {
    return this.reads.projectContext(ctx);
  }

  regionInspect(ctx: RequestContext, input: RegionInspectInput): Promise<Result<RegionInspectView>> {
    return this.reads.regionInspect(ctx, input);
  }

  /** What a prepared plan will write, for a preview (see `planWrites`): nothing is read from or written to the world. */
  planWrites(ctx: RequestContext, input: { plan_id: unknown }): Result<PlanWrites> {
    return this.reads.planWrites(ctx, input);
  }

  /** Every block of a region as dense arrays, under region_inspect's checks (scans by other tools). */
  regionBlocks(ctx: RequestContext, input: { min: unknown; max: unknown }): Promise<Result<RegionRead>> {
    return this.reads.regionBlocks(ctx, input);
  }

  /** A region of up to `maxPositions`, slab by slab with block-entity data, for exports (see `readRegionSlabs`). */
  regionSlabs(
    ctx: RequestContext,
    input: { readonly min: unknown; readonly max: unknown; readonly maxPositions: number },
    each: (slab: RegionSlab) => Promise<Result<null>> | Result<null>,
  ): Promise<Result<{ readonly box: Box3; readonly positions: number }>> {
    return this.reads.regionSlabs(ctx, input, each);
  }

  /** A heightmap sample: the top non-air block of each sampled column (see `surfaceSample`). */
  regionSurface(ctx: RequestContext, input: SurfaceInput): Promise<Result<SurfaceView>> {
    return this.reads.regionSurface(ctx, input);
  }

  /** The project's operations, newest first, filtered and paged (see `listOperations`). */
  operationList(ctx: RequestContext, input: OperationListInput): Promise<Result<OperationListView>> {
    return this.reads.operationList(ctx, input);
  }

  /** Changes since a cursor inside a region; without a cursor, returns the current cursor. */
  regionChanges(
    ctx: RequestContext,
    input: { min: unknown; max: unknown; since_cursor?: string; limit?: number; source?: ChangeSource },
  ): Promise<Result<ChangePage>> {
    return this.reads.regionChanges(ctx, input);
  }

  // ---- preparation (see PrepareDesk) -------------------------------------------------------

  buildPrepare(ctx: RequestContext, input: BuildPrepareInput): Promise<Result<PrepareView>> {
    return this.prep.buildPrepare(ctx, input);
  }

  operationUndoPrepare(ctx: RequestContext, input: { operation_id: string }): Promise<Result<UndoPrepareView>> {
    return this.prep.undoPrepare(ctx, input);
  }

  // ---- application (see OperationDesk) ---------------------------------------------------------

  /** build_apply (see `applyPlan`); a vanished host answers busy (host_down), never an exception. */
  buildApply(ctx: RequestContext, input: ApplyInput): Promise<Result<OperationStatusView>> {
    return this.opsDesk.apply(ctx, input);
  }

  operationStatus(ctx: RequestContext, input: { operation_id: string }): Promise<Result<OperationStatusView>> {
    return this.opsDesk.status(ctx, input);
  }

  /** Stops further slices; completed slices stay written (and in history). Idempotent. */
  operationCancel(ctx: RequestContext, input: { operation_id: string }): Promise<Result<OperationStatusView>> {
    return this.opsDesk.cancel(ctx, input);
  }

  /** Stops reconnecting to a vanished host (the process is closing the engine's journal). */
  close(): void {
    this.host.stop();
    this.claims.close();
  }

  /** After an operation ends: an undo takes its restored blocks out of the undone operation's parts. */
  private finished(operationId: string): void {
    this.projects.finished(operationId);
    const ended = this.o.journal.getOperation(operationId);
    const done = ended === null ? null : nameEndedPart(this.named, ended);
    if (done === null || done.kind !== "undo" || done.undoOf === null) return;
    partsAfterUndo(this.o.journal, (id) => this.plan(id), done);
    if (done.status !== "applied") return;
    const original = this.o.journal.getOperation(done.undoOf);
    if (original !== null) this.o.journal.commit({ ...original, undoneBy: done.operationId, updatedAt: this.clock() }, [], []);
  }

  // ---- parts (see PartDesk) -----------------------------------------------------------------

  /** part_define: from `operation_id`, or from `operation_ids` (a batch; 1..1024 distinct), not both. */
  partDefine(ctx: RequestContext, input: { name: string; operation_id?: string; operation_ids?: readonly string[] }): Promise<Result<PartView>> {
    return this.parts.define(ctx, input);
  }

  partGet(ctx: RequestContext, input: { part_id: string }): Promise<Result<PartDetailView>> {
    return this.parts.get(ctx, input);
  }

  /** part_rename: a new name, unique among the project's active parts. */
  partRename(ctx: RequestContext, input: { part_id: string; name: string }): Promise<Result<PartView>> {
    return this.parts.rename(ctx, input);
  }

  /** part_delete: forgets the part; blocks and history stay. A protected part is refused. */
  partDelete(ctx: RequestContext, input: { part_id: string }): Promise<Result<PartView>> {
    return this.parts.delete(ctx, input);
  }

  /** part_diff: where the world no longer holds what we wrote (a part's mask or an operation's writes). */
  partDiff(ctx: RequestContext, input: PartDiffInput): Promise<Result<PartDiffView>> {
    return this.parts.diff(ctx, input);
  }

  // ---- recovery (administrator) ----------------------------------------------------------------

  /** Compares the uncertain mask with before/after now; returns a digest of what was seen (see HostDesk). */
  recoveryReview(ctx: RequestContext, input: { operation_id: string }): Promise<Result<RecoveryReview>> {
    return this.hostDesk.review(ctx, input);
  }

  /** Leaves every block as it is and ends the operation `failed` (see `abandonRecovery`). */
  recoveryAbandon(ctx: RequestContext, input: { operation_id: string; expected_digest: string }): Promise<Result<OperationStatusView>> {
    return this.hostDesk.abandon(ctx, input);
  }

  /**
   * Asks the world to save every block written so far (capability "saved_writes") and resolves
   * when it has (see HostDesk).
   */
  flush(ctx: RequestContext): Promise<Result<FlushView>> {
    return this.hostDesk.flush(ctx);
  }

  /** Resolves when no operation is queued or running. */
  async settle(): Promise<void> {
    await this.ops.settle();
  }

  /** True once the engine stopped (host crash or journal failure); open a new one to recover. */
  get stopped(): boolean {
    return this.ops.stoppedBy !== null;
  }
}
