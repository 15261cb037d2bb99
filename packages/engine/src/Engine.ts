import { randomBytes } from "node:crypto";
import { type Box3, createMaterialCatalog, fail, type MaterialCatalog, mcbError, ok, type Result } from "@mcb/blocks";
import { createRecipeCompiler, type RecipeCompiler } from "@mcb/recipe";
import { admitPlan, alreadyApplied, checkApplyInput, newOperation, type ApplyInput } from "./ApplyAdmission.js";
import { OperationQueue } from "./OperationQueue.js";
import { ConnectionRules } from "./ConnectionRules.js";
import { ChangeFeed, type ChangePage } from "./ChangeFeed.js";
import { EventSync } from "./EventSync.js";
import type { RegionInspectInput, RegionInspectView } from "./Inspect.js";
import type { OperationListInput, OperationListView } from "./OperationList.js";
import type { SurfaceInput, SurfaceView } from "./Surface.js";
import type { OperationRecord } from "./Journal.js";
import { NO_MANUAL_EDITS } from "./ManualEdits.js";
import { operationPlans } from "./Ownership.js";
import type { PartDiffView } from "./PartDiff.js";
import { PartDesk } from "./PartDesk.js";
import { ReadDesk } from "./ReadDesk.js";
import { partView, partsAfterUndo, type PartView } from "./Parts.js";
import { prepareContent, type BuildPrepareInput } from "./Prepare.js";
import { preparedPlanHash, type PlanContent, type PreparedPlan } from "./PreparedPlan.js";
import { DEFAULT_ENGINE_LIMITS, denied, validateLimits, type EngineLimits, type ProjectAccess, type ProjectConfig, type RequestContext } from "./Project.js";
import { ProjectRegistry } from "./ProjectRegistry.js";
import { checkProtectedParts } from "./ProtectedParts.js";
import { abandonRecovery, reviewRecovery, type RecoveryReview } from "./Recovery.js";
import { StandingIndex } from "./StandingIndex.js";
import { prepareUndoContent } from "./UndoPrepare.js";
import { conflictView, operationView, prepareView, type OperationStatusView, type PrepareView, type UndoPrepareView } from "./Views.js";
import type { RegionRead } from "./WorldAdapter.js";
import type { ProjectContextView } from "./ProjectContext.js";
import { planWarnings } from "./Warnings.js";
import { guardWorld } from "./WorldGuard.js";
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
  private readonly planCache = new Map<string, PreparedPlan>();
  private readonly ops: OperationQueue;
  private readonly parts: PartDesk;
  private readonly reads: ReadDesk;

  private constructor(private readonly o: EngineOptions) {
    this.limits = { ...DEFAULT_ENGINE_LIMITS, ...o.limits };
    validateLimits(this.limits);
    this.clock = o.clock ?? Date.now;
    this.newId = o.newId ?? ((prefix) => `${prefix}_${randomBytes(12).toString("hex")}`);
    this.compiler = createRecipeCompiler(o.registry);
    this.catalog = createMaterialCatalog(o.registry);
    this.connections = new ConnectionRules(o.registry);
    this.feed = new ChangeFeed(o.journal, operationPlans(o.journal, (id) => this.plan(id)));
    this.events = new EventSync(o.adapter, o.journal);
    this.index = new StandingIndex(o.journal, (id) => this.plan(id));
    const desk = { adapter: o.adapter, journal: o.journal, limits: this.limits, clock: this.clock, scope: (ctx: RequestContext) => this.scope(ctx), syncEvents: () => this.syncEvents() };
    this.reads = new ReadDesk({ ...desk, catalog: this.catalog, feed: this.feed });
    this.parts = new PartDesk({ ...desk, index: this.index, newId: this.newId, plan: (id) => this.plan(id), ownOperation: (ctx, id) => this.ownOperation(ctx, id) });
    this.projects = new ProjectRegistry(o.projects, o.journal, (id) => this.plan(id));
    this.ops = new OperationQueue(
      {
        adapter: o.adapter,
        journal: o.journal,
        limits: this.limits,
        clock: this.clock,
        plans: (id) => this.plan(id),
        syncEvents: () => this.syncEvents(),
        mayWrite: (op) => this.projects.mayWrite(op),
      },
      (id) => this.finished(id),
      o.log ?? (() => {}),
    );
  }

  /**
   * Opens the engine: unfinished operations found in the journal become `recovery_required` (a
   * queued one that never started becomes `cancelled`), and the external edits the world observed
   * since the journal's saved event cursor are pulled in (a new journal starts at the world's head).
   */
  static async open(options: EngineOptions): Promise<Engine> {
    const engine = new Engine(options);
    for (const op of options.journal.unfinishedOperations()) {
      if (op.status === "recovery_required") continue;
      const started = options.journal.slices(op.operationId).length > 0;
      const status = started ? "recovery_required" : "cancelled";
      const message = started ? "the process stopped during this operation; review it before new writes" : "the process stopped before this operation started";
      options.journal.commit({ ...op, status, updatedAt: engine.clock(), error: { code: status === "cancelled" ? "cancelled" : "recovery_required", message } }, null, null);
    }
    await engine.events.start();
    return engine;
  }

  // ---- access ---------------------------------------------------------------------------

  private scope(ctx: RequestContext): Result<ProjectAccess> {
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
    let p = this.planCache.get(planId);
    if (p === undefined) {
      p = this.o.journal.getPlan(planId) ?? undefined;
      if (p === undefined) throw new Error(`plan ${planId} missing from the journal`);
      this.planCache.set(planId, p);
    }
    return p;
  }

  /** Pulls external events into the journal (undo ownership, manual edits, region_changes). Serialized. */
  private syncEvents(): Promise<void> {
    return this.events.sync();
  }

  /**
   * Host control: pulls the external edits the world observed into the journal now (a host that
   * just made a person's edit, e.g. `mcb edit`, calls it so the edit is on record at once).
   */
  async sync(): Promise<Result<void>> {
    return guardWorld(async () => {
      await this.syncEvents();
      return ok(undefined);
    });
  }

  /**
   * Host control (an interrupted command): asks every queued or running operation to stop before
   * its next slice, as operation_cancel does. Returns the operations asked.
   */
  cancelAll(): string[] {
    const ids = this.o.journal.unfinishedOperations().filter((o) => o.status === "queued" || o.status === "applying").map((o) => o.operationId);
    for (const id of ids) this.ops.cancel(id);
    return ids;
  }

  // ---- reads (see ReadDesk) ------------------------------------------------------------------

  projectContext(ctx: RequestContext): Promise<Result<ProjectContextView>> {
    return this.reads.projectContext(ctx);
  }

  regionInspect(ctx: RequestContext, input: RegionInspectInput): Promise<Result<RegionInspectView>> {
    return this.reads.regionInspect(ctx, input);
  }

  /** Every block of a region as dense arrays, under region_inspect's checks (exports, scans). */
  regionBlocks(ctx: RequestContext, input: { min: unknown; max: unknown; entityData?: boolean }): Promise<Result<RegionRead & { readonly entityData?: ReadonlyMap<number, Uint8Array> }>> {
    return this.reads.regionBlocks(ctx, input);
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
  regionChanges(ctx: RequestContext, input: { min: unknown; max: unknown; since_cursor?: string; limit?: number }): Promise<Result<ChangePage>> {
    return this.reads.regionChanges(ctx, input);
  }

  // ---- preparation --------------------------------------------------------------------------

  /** `preparedSeq`: the journal head taken after the event sync and before the base reads. */
  private store(content: PlanContent, preparedSeq: number): PreparedPlan {
    const now = this.clock();
    const plan: PreparedPlan = { ...content, planId: this.newId("plan"), planHash: preparedPlanHash(content), createdAt: now, expiresAt: now + this.limits.planTtlMs, preparedSeq };
    this.o.journal.putPlan(plan);
    this.planCache.set(plan.planId, plan);
    return plan;
  }

  async buildPrepare(ctx: RequestContext, input: BuildPrepareInput): Promise<Result<PrepareView>> {
    return guardWorld(async () => {
      const scope = this.scope(ctx);
      if (!scope.ok) return scope;
      if (typeof input !== "object" || input === null) return fail(mcbError("invalid_request", "build_prepare needs an object"));
      const world = await this.o.adapter.info();
      await this.syncEvents();
      const seq = this.o.journal.headSeq();
      this.index.catchUp();
      const deps = { registry: this.o.registry, compiler: this.compiler, adapter: this.o.adapter, journal: this.o.journal, limits: this.limits, connections: this.connections, index: this.index };
      const prepared = await prepareContent(deps, scope.value.config, world, input);
      if (!prepared.ok) return prepared;
      const guarded = checkProtectedParts(this.o.journal, scope.value.protectedParts, prepared.value.content);
      if (!guarded.ok) return guarded;
      const plan = this.store(prepared.value.content, seq);
      return ok(prepareView(plan, [...prepared.value.notes, ...planWarnings(this.o.registry, plan)], prepared.value.manualEdits));
    });
  }

  async operationUndoPrepare(ctx: RequestContext, input: { operation_id: string }): Promise<Result<UndoPrepareView>> {
    return guardWorld(async () => {
      const scope = this.scope(ctx);
      if (!scope.ok) return scope;
      const op = this.ownOperation(ctx, input?.operation_id);
      if (!op.ok) return op;
      const world = await this.o.adapter.info();
      await this.syncEvents();
      const seq = this.o.journal.headSeq();
      const undo = await prepareUndoContent(this.o.journal, this.o.adapter, (id) => this.plan(id), op.value, world, this.limits.conflictSampleSize);
      if (!undo.ok) return undo;
      const guarded = checkProtectedParts(this.o.journal, scope.value.protectedParts, undo.value.content);
      if (!guarded.ok) return guarded;
      const plan = this.store(undo.value.content, seq);
      const { count, sample } = undo.value.conflicts;
      return ok({
        ...prepareView(plan, planWarnings(this.o.registry, plan), NO_MANUAL_EDITS),
        undo_of: op.value.operationId,
        conflicts: { count, sample: sample.map(conflictView) },
        uncertain_blocks: undo.value.uncertain,
      });
    });
  }

  // ---- application ----------------------------------------------------------------------------

  async buildApply(ctx: RequestContext, input: ApplyInput): Promise<Result<OperationStatusView>> {
    const scope = this.scope(ctx);
    if (!scope.ok) return scope;
    const checked = checkApplyInput(input);
    if (!checked.ok) return checked;
    const { plan_id, plan_hash, idempotency_key } = checked.value;
    const journal = this.o.journal;
    const existing = journal.findOperationByKey(ctx.projectId, idempotency_key);
    if (existing !== null) {
      if (existing.planId === plan_id && existing.planHash === plan_hash) return ok(this.view(existing));
      return fail(mcbError("invalid_request", "this idempotency_key was used for a different plan; use a new key for a new plan", { reason: "idempotency_key_reused", operation_id: existing.operationId }));
    }
    const admitted = admitPlan(journal, this.limits, this.clock(), ctx.projectId, plan_id, plan_hash);
    if (!admitted.ok) return admitted;
    const plan = admitted.value;
    const guarded = checkProtectedParts(journal, scope.value.protectedParts, plan);
    if (!guarded.ok) return guarded;
    const world = await this.o.adapter.info();
    if (world.worldId !== plan.worldId || world.epoch !== plan.epoch) return fail(mcbError("stale_snapshot", "the world was restored or replaced since preparation", { reason: "epoch" }));
    const op = newOperation(journal, plan, ctx, idempotency_key, this.newId("op"), this.clock(), this.limits.sliceSize);
    // The checks above are advisory (they ran before an await); this one is atomic in the journal.
    const created = journal.createOperation(op);
    if (created === "duplicate_key") return this.buildApply(ctx, input);
    if (created === "duplicate_plan") return fail(alreadyApplied(journal.findOperationByPlan(plan_id)?.operationId ?? null));
    this.ops.submit(op.operationId);
    return ok(this.view(op));
  }

  async operationStatus(ctx: RequestContext, input: { operation_id: string }): Promise<Result<OperationStatusView>> {
    const scope = this.scope(ctx);
    if (!scope.ok) return scope;
    const op = this.ownOperation(ctx, input?.operation_id);
    return op.ok ? ok(this.view(op.value)) : op;
  }

  /** Stops further slices; completed slices stay written (and in history). Idempotent. */
  async operationCancel(ctx: RequestContext, input: { operation_id: string }): Promise<Result<OperationStatusView>> {
    const scope = this.scope(ctx);
    if (!scope.ok) return scope;
    const op = this.ownOperation(ctx, input?.operation_id);
    if (!op.ok) return op;
    if (op.value.status === "queued" || op.value.status === "applying") this.ops.cancel(op.value.operationId);
    return ok(this.view(op.value));
  }

  private ownOperation(ctx: RequestContext, id: unknown): Result<OperationRecord> {
    if (typeof id !== "string") return fail(mcbError("invalid_request", "operation_id is required"));
    const op = this.o.journal.getOperation(id);
    if (op === null || op.projectId !== ctx.projectId) return fail(mcbError("not_found", `no operation ${JSON.stringify(id)} in this project`));
    return ok(op);
  }

  private view(op: OperationRecord): OperationStatusView {
    return operationView(op, this.ops.cancelRequested(op.operationId));
  }

  /** After an operation ends: an undo takes its restored blocks out of the undone operation's parts. */
  private finished(operationId: string): void {
    this.projects.finished(operationId);
    const done = this.o.journal.getOperation(operationId);
    if (done === null || done.kind !== "undo" || done.undoOf === null) return;
    partsAfterUndo(this.o.journal, (id) => this.plan(id), done);
    if (done.status !== "applied") return;
    const original = this.o.journal.getOperation(done.undoOf);
    if (original !== null) this.o.journal.commit({ ...original, undoneBy: done.operationId, updatedAt: this.clock() }, null, null);
  }

  // ---- parts (see PartDesk) -----------------------------------------------------------------

  /** part_define: from `operation_id`, or from `operation_ids` (a batch; 1..1024 distinct), not both. */
  partDefine(ctx: RequestContext, input: { name: string; operation_id?: string; operation_ids?: readonly string[] }): Promise<Result<PartView>> {
    return this.parts.define(ctx, input);
  }

  partGet(ctx: RequestContext, input: { part_id: string }): Promise<Result<PartView>> {
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
  partDiff(ctx: RequestContext, input: { part_id?: string; operation_id?: string }): Promise<Result<PartDiffView>> {
    return this.parts.diff(ctx, input);
  }

  // ---- recovery (administrator) ----------------------------------------------------------------

  private recoveryTarget(ctx: RequestContext, id: unknown): Result<OperationRecord> {
    const scope = this.scope(ctx);
    if (!scope.ok) return scope;
    if (ctx.principal.role !== "admin") return fail(mcbError("permission_denied", "recovery requires the administrator key"));
    const op = this.ownOperation(ctx, id);
    if (!op.ok) return op;
    if (op.value.status !== "recovery_required")
      return fail(mcbError("invalid_request", `operation ${op.value.operationId} is ${op.value.status}, not awaiting recovery`, { reason: "not_in_recovery" }));
    return op;
  }

  /** Compares the uncertain mask with before/after now; returns a digest of what was seen. */
  async recoveryReview(ctx: RequestContext, input: { operation_id: string }): Promise<Result<RecoveryReview>> {
    return guardWorld(async () => {
      const op = this.recoveryTarget(ctx, input?.operation_id);
      if (!op.ok) return op;
      const { review } = await reviewRecovery(this.o.journal, this.o.adapter, this.plan(op.value.planId), op.value, this.clock());
      return ok(review);
    });
  }

  /** Leaves every block as it is and ends the operation `failed` (see `abandonRecovery`). */
  async recoveryAbandon(ctx: RequestContext, input: { operation_id: string; expected_digest: string }): Promise<Result<OperationStatusView>> {
    return guardWorld(async () => {
      const op = this.recoveryTarget(ctx, input?.operation_id);
      if (!op.ok) return op;
      const done = await abandonRecovery(this.o.journal, this.o.adapter, this.plan(op.value.planId), op.value, input.expected_digest, this.clock());
      if (!done.ok) return done;
      partsAfterUndo(this.o.journal, (id) => this.plan(id), done.value); // an abandoned undo's confirmed writes leave their parts too
      return ok(this.view(done.value));
    });
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
