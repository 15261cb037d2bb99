import { fail, mcbError, ok, type Box3, type MaterialCatalog, type Result } from "@mcb/blocks";
import { CHANGE_SOURCES, type ChangeFeed, type ChangePage, type ChangeSource } from "./ChangeFeed.js";
import { inspectRegion, readRegion, regionOf, type RegionInspectInput, type RegionInspectView } from "../world/Inspect.js";
import type { OperationJournal, PartJournal } from "../store/Journal.js";
import { listOperations, type OperationListInput, type OperationListView } from "./OperationList.js";
import type { EngineLimits, ProjectAccess, RequestContext } from "../core/Project.js";
import { projectContext, type ProjectContextView } from "./ProjectContext.js";
import { readRegionSlabs, type RegionSlab } from "../world/RegionSlabs.js";
import { surfaceSample, type SurfaceInput, type SurfaceView } from "../world/Surface.js";
import type { RegionRead, WorldAdapter } from "../world/WorldAdapter.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import { planWrites, type PlanWrites } from "./PlanWrites.js";

/** What the read requests need of the engine. */
export interface ReadDeskDeps {
  readonly adapter: WorldAdapter;
  readonly journal: OperationJournal & PartJournal;
  readonly limits: EngineLimits;
  readonly clock: () => number;
  readonly catalog: MaterialCatalog;
  readonly feed: ChangeFeed;
  scope(ctx: RequestContext): Result<ProjectAccess>;
  syncEvents(): Promise<unknown>;
  /** Runs a request that talks to the world (see `guardWorld`), telling the engine when its host is gone. */
  guard<T>(run: () => Promise<Result<T>>): Promise<Result<T>>;
  /** A prepared plan from the cache or the journal; null when no such plan was prepared. */
  findPlan(planId: string): PreparedPlan | null;
}

/** The engine's read requests: nothing here writes to the world. Each validates its untrusted input. */
export class ReadDesk {
  constructor(private readonly d: ReadDeskDeps) {}

  /** What a prepared plan of the caller's project will write (for previews); nothing is read or written. */
  planWrites(ctx: RequestContext, input: { plan_id: unknown }): Result<PlanWrites> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    if (typeof input?.plan_id !== "string" || input.plan_id.length === 0 || input.plan_id.length > 128)
      return fail(mcbError("invalid_request", "plan_id must be a plan id from build_prepare", { reason: "plan_id" }));
    return planWrites(this.d.findPlan(input.plan_id), ctx.projectId, input.plan_id, this.d.clock());
  }

  async projectContext(ctx: RequestContext): Promise<Result<ProjectContextView>> {
    return this.d.guard(async () => {
      const scope = this.d.scope(ctx);
      if (!scope.ok) return scope;
      const world = await this.d.adapter.info();
      return ok(projectContext(scope.value.config, world, this.d.limits, this.d.catalog.summary, this.d.journal, this.d.feed.cursor()));
    });
  }

  async regionInspect(ctx: RequestContext, input: RegionInspectInput): Promise<Result<RegionInspectView>> {
    return this.d.guard(async () => {
      const scope = this.d.scope(ctx);
      if (!scope.ok) return scope;
      return inspectRegion(
        this.d.adapter,
        await this.d.adapter.info(),
        scope.value.config,
        input,
        this.d.limits.maxInspectPositions,
        this.d.clock(),
        this.d.catalog.registry,
      );
    });
  }

  /**
   * Every block of a region as dense arrays (one adapter read), under region_inspect's checks:
   * project scope, area, at most `maxInspectPositions`. For scans by other tools.
   */
  async regionBlocks(ctx: RequestContext, input: { min: unknown; max: unknown }): Promise<Result<RegionRead>> {
    return this.d.guard(async () => {
      const scope = this.d.scope(ctx);
      if (!scope.ok) return scope;
      return readRegion(this.d.adapter, scope.value.config, input?.min, input?.max, this.d.limits.maxInspectPositions);
    });
  }

  /**
   * Every block of a region of up to `maxPositions` (an export's limit), slab by slab in y, z, x
   * order with the block entities' data (see `readRegionSlabs`), under the project's scope and area.
   */
  async regionSlabs(
    ctx: RequestContext,
    input: { readonly min: unknown; readonly max: unknown; readonly maxPositions: number },
    each: (slab: RegionSlab) => Promise<Result<null>> | Result<null>,
  ): Promise<Result<{ readonly box: Box3; readonly positions: number }>> {
    return this.d.guard(async () => {
      const scope = this.d.scope(ctx);
      if (!scope.ok) return scope;
      return readRegionSlabs(this.d.adapter, scope.value.config, { ...input, entityData: true }, each);
    });
  }

  /** A heightmap sample: the top non-air block of each sampled column (see `surfaceSample`). */
  async regionSurface(ctx: RequestContext, input: SurfaceInput): Promise<Result<SurfaceView>> {
    return this.d.guard(async () => {
      const scope = this.d.scope(ctx);
      if (!scope.ok) return scope;
      if (typeof input !== "object" || input === null) return fail(mcbError("invalid_request", "region_surface needs an object"));
      return surfaceSample(this.d.adapter, await this.d.adapter.info(), scope.value.config, input, this.d.limits.maxSurfaceColumns, this.d.clock());
    });
  }

  /** The project's operations, newest first, filtered and paged (see `listOperations`). */
  async operationList(ctx: RequestContext, input: OperationListInput): Promise<Result<OperationListView>> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    return listOperations(this.d.journal, ctx.projectId, input ?? {}, this.d.limits.operationPageLimit);
  }

  /** Changes since a cursor inside a region; without a cursor, returns the current cursor. */
  async regionChanges(
    ctx: RequestContext,
    input: { min: unknown; max: unknown; since_cursor?: string; limit?: number; source?: ChangeSource },
  ): Promise<Result<ChangePage>> {
    return this.d.guard(async () => {
      const scope = this.d.scope(ctx);
      if (!scope.ok) return scope;
      const region = regionOf(input.min, input.max);
      if (!region.ok) return region;
      const limit = input.limit ?? this.d.limits.changePageLimit;
      if (!Number.isInteger(limit) || limit < 1 || limit > this.d.limits.changePageLimit)
        return fail(mcbError("invalid_request", `limit must be 1..${this.d.limits.changePageLimit}`, { reason: "limit" }));
      const source = input.source ?? "all";
      if (!CHANGE_SOURCES.includes(source)) return fail(mcbError("invalid_request", `source is one of ${CHANGE_SOURCES.join(", ")}`, { reason: "source" }));
      await this.d.syncEvents();
      if (input.since_cursor === undefined)
        return ok({
          changes: [],
          next_cursor: this.d.feed.cursor(),
          complete: true,
          note: "no since_cursor: changes are listed only since a cursor; this is the current one, ask again with it later (project_context gives change_cursor too)",
        });
      if (typeof input.since_cursor !== "string") return fail(mcbError("invalid_request", "since_cursor must be a string"));
      return this.d.feed.page(input.since_cursor, region.value, limit, source);
    });
  }
}
