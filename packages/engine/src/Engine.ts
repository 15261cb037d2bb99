import { createHash, randomBytes } from "node:crypto";
import { createMaterialCatalog, fail, mcbError, ok, type BlockRegistry, type MaterialCatalog, type Result } from "@mcb/blocks";
import { createRecipeCompiler, type Box3, type RecipeCompiler } from "@mcb/recipe";
import { admitPlan, alreadyApplied, newOperation } from "./ApplyAdmission.js";
import { OperationQueue } from "./OperationQueue.js";
import { ConnectionRules } from "./ConnectionRules.js";
import { ChangeFeed, type ChangePage } from "./ChangeFeed.js";
import { boxJson } from "./Geometry.js";
import { inspectRegion, readRegion, regionOf, type RegionInspectInput, type RegionInspectView } from "./Inspect.js";
import { listOperations, type OperationListInput, type OperationListView } from "./OperationList.js";
import { surfaceSample, type SurfaceInput, type SurfaceView } from "./Surface.js";
import type { Journal, OperationRecord, PartRecord } from "./Journal.js";
import { MAX_PART_OPERATIONS, definePart, partView, type PartView } from "./Parts.js";
import { prepareContent, type BuildPrepareInput } from "./Prepare.js";
import { preparedPlanHash, type PlanContent, type PreparedPlan } from "./PreparedPlan.js";
import { DEFAULT_ENGINE_LIMITS, denied, validateLimits, type EngineLimits, type ProjectAccess, type ProjectConfig, type RequestContext } from "./Project.js";
import { ProjectRegistry } from "./ProjectRegistry.js";
import { checkProtectedParts } from "./ProtectedParts.js";
import { reviewRecovery, type RecoveryReview } from "./Recovery.js";
import { prepareUndoContent } from "./UndoPrepare.js";
import { conflictView, operationView, prepareView, type ConflictView, type OperationStatusView, type PrepareView } from "./Views.js";
import type { RegionRead, WorldAdapter } from "./WorldAdapter.js";
import { projectContext, type ProjectContextView } from "./ProjectContext.js";
import { planWarnings } from "./Warnings.js";
import { guardWorld } from "./WorldGuard.js";

export interface EngineOptions {
  readonly adapter: WorldAdapter;
  readonly journal: Journal;
  readonly registry: BlockRegistry;
  readonly projects: readonly ProjectConfig[];
  readonly limits?: Partial<EngineLimits>;
  /** Epoch milliseconds; injectable for expiry tests. */
  readonly clock?: () => number;
  /** Id generator (prefix "plan", "op", "part"); default random. */
  readonly newId?: (prefix: string) => string;
}

export interface ApplyInput {
  readonly plan_id: string;
  readonly plan_hash: string;
  readonly idempotency_key: string;
}

export type UndoPrepareView = PrepareView & { readonly undo_of: string; readonly conflicts: { readonly count: number; readonly sample: readonly ConflictView[] } };

const KEY = /^[\x21-\x7e]{1,128}$/;

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
  private readonly planCache = new Map<string, PreparedPlan>();
  private readonly ops: OperationQueue;
  private eventCursor: string | null = null;
  private syncing: Promise<void> = Promise.resolve();

  private constructor(private readonly o: EngineOptions) {
    this.limits = { ...DEFAULT_ENGINE_LIMITS, ...o.limits };
    validateLimits(this.limits);
    this.clock = o.clock ?? Date.now;
    this.newId = o.newId ?? ((prefix) => `${prefix}_${randomBytes(12).toString("hex")}`);
    this.compiler = createRecipeCompiler(o.registry);
    this.catalog = createMaterialCatalog(o.registry);
    this.connections = new ConnectionRules(o.registry);
    this.feed = new ChangeFeed(this.limits.changeFeedCapacity);
    this.projects = new ProjectRegistry(o.projects, o.journal, (id) => this.plan(id));
    this.ops = new OperationQueue(
      {
        adapter: o.adapter,
        journal: o.journal,
        feed: this.feed,
        limits: this.limits,
        clock: this.clock,
        plans: (id) => this.plan(id),
        syncEvents: () => this.syncEvents(),
        mayWrite: (op) => this.projects.mayWrite(op),
      },
      (id) => this.finished(id),
    );
  }

  /**
   * Opens the engine: unfinished operations found in the journal become `recovery_required` (a
   * queued one that never started becomes `cancelled`), and the event cursor starts at the head.
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
    engine.eventCursor = (await options.adapter.events(null)).cursor;
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
    const part = this.ownPart(ctx, partId);
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

  /** Pulls external events into the journal (undo ownership) and the change feed. Serialized. */
  private syncEvents(): Promise<void> {
    const run = async (): Promise<void> => {
      for (let round = 0; round < 1000; round++) {
        const page = await this.o.adapter.events(this.eventCursor);
        if (page.gap) this.feed.markGap();
        this.eventCursor = page.cursor;
        if (page.events.length === 0) return;
        const touched = new Int32Array(page.events.length * 3);
        page.events.forEach((e, i) => {
          touched.set([e.x, e.y, e.z], i * 3);
          this.feed.push(e.x, e.y, e.z, e.state, null);
        });
        this.o.journal.addTouches(touched, page.events.map((e) => e.state));
      }
    };
    const next = this.syncing.then(run, run);
    this.syncing = next.catch(() => undefined);
    return next;
  }

  // ---- reads ------------------------------------------------------------------------------

  async projectContext(ctx: RequestContext): Promise<Result<ProjectContextView>> {
    return guardWorld(async () => {
      const scope = this.scope(ctx);
      if (!scope.ok) return scope;
      const world = await this.o.adapter.info();
      return ok(projectContext(scope.value.config, world, this.limits, this.catalog.summary, this.o.journal, this.feed.cursor()));
    });
  }

  async regionInspect(ctx: RequestContext, input: RegionInspectInput): Promise<Result<RegionInspectView>> {
    return guardWorld(async () => {
      const scope = this.scope(ctx);
      if (!scope.ok) return scope;
      return inspectRegion(this.o.adapter, await this.o.adapter.info(), scope.value.config.area, input, this.limits.maxInspectPositions, this.clock());
    });
  }

  /**
   * Every block of a region as dense arrays (one adapter read), under region_inspect's checks:
   * project scope, area, at most `maxInspectPositions`. For exports and scans by other tools.
   */
  async regionBlocks(ctx: RequestContext, input: { min: unknown; max: unknown; entityData?: boolean }): Promise<Result<RegionRead & { readonly entityData?: ReadonlyMap<number, Uint8Array> }>> {
    return guardWorld(async () => {
      const scope = this.scope(ctx);
      if (!scope.ok) return scope;
      const r = await readRegion(this.o.adapter, scope.value.config.area, input?.min, input?.max, this.limits.maxInspectPositions);
      if (!r.ok || input.entityData !== true || r.value.digests.size === 0 || this.o.adapter.readBlockEntities === undefined) return r;
      const entityData = await this.o.adapter.readBlockEntities(r.value.box);
      // Two reads, not one moment: the data must be what the first read's digests describe.
      for (const [i, digest] of r.value.digests) {
        const d = entityData.get(i);
        if (d === undefined || createHash("sha256").update(d).digest("hex") !== digest)
          return fail(mcbError("busy", "a block entity changed while the region was read; read again", { reason: "changed_during_read" }));
      }
      return ok({ ...r.value, entityData });
    });
  }

  /** A heightmap sample: the top non-air block of each sampled column (see `surfaceSample`). */
  async regionSurface(ctx: RequestContext, input: SurfaceInput): Promise<Result<SurfaceView>> {
    return guardWorld(async () => {
      const scope = this.scope(ctx);
      if (!scope.ok) return scope;
      if (typeof input !== "object" || input === null) return fail(mcbError("invalid_request", "region_surface needs an object"));
      return surfaceSample(this.o.adapter, await this.o.adapter.info(), scope.value.config.area, input, this.limits.maxSurfaceColumns, this.clock());
    });
  }

  /** The project's operations, newest first, filtered and paged (see `listOperations`). */
  async operationList(ctx: RequestContext, input: OperationListInput): Promise<Result<OperationListView>> {
    const scope = this.scope(ctx);
    if (!scope.ok) return scope;
    return listOperations(this.o.journal, ctx.projectId, input ?? {}, this.limits.operationPageLimit);
  }

  /** Changes since a cursor inside a region; without a cursor, returns the current cursor. */
  async regionChanges(ctx: RequestContext, input: { min: unknown; max: unknown; since_cursor?: string; limit?: number }): Promise<Result<ChangePage>> {
    return guardWorld(async () => {
      const scope = this.scope(ctx);
      if (!scope.ok) return scope;
      const region = regionOf(input.min, input.max);
      if (!region.ok) return region;
      const limit = input.limit ?? this.limits.changePageLimit;
      if (!Number.isInteger(limit) || limit < 1 || limit > this.limits.changePageLimit)
        return fail(mcbError("invalid_request", `limit must be 1..${this.limits.changePageLimit}`, { reason: "limit" }));
      await this.syncEvents();
      if (input.since_cursor === undefined) return ok({ changes: [], next_cursor: this.feed.cursor(), complete: true });
      if (typeof input.since_cursor !== "string") return fail(mcbError("invalid_request", "since_cursor must be a string"));
      return this.feed.page(input.since_cursor, region.value, limit);
    });
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
      const deps = { registry: this.o.registry, compiler: this.compiler, adapter: this.o.adapter, journal: this.o.journal, limits: this.limits, connections: this.connections };
      const prepared = await prepareContent(deps, scope.value.config, world, input);
      if (!prepared.ok) return prepared;
      const guarded = checkProtectedParts(this.o.journal, scope.value.protectedParts, prepared.value.content);
      if (!guarded.ok) return guarded;
      const plan = this.store(prepared.value.content, seq);
      return ok(prepareView(plan, [...prepared.value.notes, ...planWarnings(this.o.registry, plan)]));
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
      return ok({ ...prepareView(plan, planWarnings(this.o.registry, plan)), undo_of: op.value.operationId, conflicts: { count, sample: sample.map(conflictView) } });
    });
  }

  // ---- application ----------------------------------------------------------------------------

  async buildApply(ctx: RequestContext, input: ApplyInput): Promise<Result<OperationStatusView>> {
    const scope = this.scope(ctx);
    if (!scope.ok) return scope;
    const { plan_id, plan_hash, idempotency_key } = input ?? ({} as ApplyInput);
    if (typeof idempotency_key !== "string" || !KEY.test(idempotency_key))
      return fail(mcbError("invalid_request", "idempotency_key must be 1–128 printable characters without spaces", { reason: "idempotency_key" }));
    if (typeof plan_id !== "string" || typeof plan_hash !== "string") return fail(mcbError("invalid_request", "plan_id and plan_hash are required"));
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

  private finished(operationId: string): void {
    this.projects.finished(operationId);
    const done = this.o.journal.getOperation(operationId);
    if (done === null || done.kind !== "undo" || done.undoOf === null || done.status !== "applied") return;
    const original = this.o.journal.getOperation(done.undoOf);
    if (original !== null) this.o.journal.commit({ ...original, undoneBy: done.operationId, updatedAt: this.clock() }, null, null);
  }

  // ---- parts ---------------------------------------------------------------------------------

  /** part_define: from `operation_id`, or from `operation_ids` (a batch; 1..1024 distinct), not both. */
  async partDefine(ctx: RequestContext, input: { name: string; operation_id?: string; operation_ids?: readonly string[] }): Promise<Result<PartView>> {
    const scope = this.scope(ctx);
    if (!scope.ok) return scope;
    const one = input?.operation_id !== undefined, many = input?.operation_ids !== undefined;
    if (one === many) return fail(mcbError("invalid_request", "give operation_id or operation_ids (one of them)", { reason: "operation_ids" }));
    const ids = one ? [input.operation_id] : input.operation_ids;
    if (!Array.isArray(ids) || ids.length < 1 || ids.length > MAX_PART_OPERATIONS || new Set(ids).size !== ids.length)
      return fail(mcbError("invalid_request", `operation_ids must be 1..${MAX_PART_OPERATIONS} distinct operation ids`, { reason: "operation_ids", limit: MAX_PART_OPERATIONS }));
    const sources: { op: OperationRecord; plan: PreparedPlan }[] = [];
    for (const id of ids) {
      const op = this.ownOperation(ctx, id);
      if (!op.ok) return op;
      sources.push({ op: op.value, plan: this.plan(op.value.planId) });
    }
    const part = definePart(this.o.journal, sources, input.name, this.newId("part"), this.clock());
    if (!part.ok) return part;
    this.o.journal.putPart(part.value);
    return ok(partView(part.value));
  }

  async partGet(ctx: RequestContext, input: { part_id: string }): Promise<Result<PartView>> {
    const scope = this.scope(ctx);
    if (!scope.ok) return scope;
    const part = this.ownPart(ctx, input?.part_id);
    return part.ok ? ok(partView(part.value)) : part;
  }

  private ownPart(ctx: RequestContext, id: unknown): Result<PartRecord> {
    const part = typeof id === "string" ? this.o.journal.getPart(id) : null;
    if (part === null || part.projectId !== ctx.projectId) return fail(mcbError("not_found", `no part ${JSON.stringify(id)} in this project`));
    return ok(part);
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

  /**
   * Leaves every block as it is, marks the operation failed with undo disabled, and revokes
   * earlier undo ownership over the reviewed mask. Refused (invalid_request, stale_digest) when
   * the mask changed since the review that produced `expected_digest`.
   */
  async recoveryAbandon(ctx: RequestContext, input: { operation_id: string; expected_digest: string }): Promise<Result<OperationStatusView>> {
    return guardWorld(async () => {
      const op = this.recoveryTarget(ctx, input?.operation_id);
      if (!op.ok) return op;
      const { review, mask, unconfirmedAfter } = await reviewRecovery(this.o.journal, this.o.adapter, this.plan(op.value.planId), op.value, this.clock());
      if (input.expected_digest !== review.currentDigest)
        return fail(mcbError("invalid_request", "the reviewed blocks changed (or the digest is wrong); review again", { reason: "stale_digest" }));
      if (mask.length > 0) this.o.journal.addTouches(mask);
      const done: OperationRecord = {
        ...op.value,
        status: "failed",
        undoable: false,
        counters: { ...op.value.counters, unconfirmed: unconfirmedAfter },
        updatedAt: this.clock(),
        error: { code: "abandoned", message: `recovery abandoned by an administrator: ${review.matchesAfter} blocks match the plan, ${review.matchesBefore} the original, ${review.foreignStates} neither; world left as is` },
      };
      this.o.journal.commit(done, null, null);
      return ok(this.view(done));
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
