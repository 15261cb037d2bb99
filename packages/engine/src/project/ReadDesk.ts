import { createHash } from "node:crypto";
import { fail, mcbError, ok, type MaterialCatalog, type Result } from "@mcb/blocks";
import { CHANGE_SOURCES, type ChangeFeed, type ChangePage, type ChangeSource } from "./ChangeFeed.js";
import { inspectRegion, readRegion, regionOf, type RegionInspectInput, type RegionInspectView } from "../world/Inspect.js";
import type { Journal } from "../store/Journal.js";
import { listOperations, type OperationListInput, type OperationListView } from "./OperationList.js";
import type { EngineLimits, ProjectAccess, RequestContext } from "./Project.js";
import { projectContext, type ProjectContextView } from "./ProjectContext.js";
import { surfaceSample, type SurfaceInput, type SurfaceView } from "../world/Surface.js";
import type { RegionRead, WorldAdapter } from "../world/WorldAdapter.js";

/** What the read requests need of the engine. */
export interface ReadDeskDeps {
  readonly adapter: WorldAdapter;
  readonly journal: Journal;
  readonly limits: EngineLimits;
  readonly clock: () => number;
  readonly catalog: MaterialCatalog;
  readonly feed: ChangeFeed;
  scope(ctx: RequestContext): Result<ProjectAccess>;
  syncEvents(): Promise<unknown>;
  /** Runs a request that talks to the world (see `guardWorld`), telling the engine when its host is gone. */
  guard<T>(run: () => Promise<Result<T>>): Promise<Result<T>>;
}

/** The engine's read requests: nothing here writes to the world. Each validates its untrusted input. */
export class ReadDesk {
  constructor(private readonly d: ReadDeskDeps) {}

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
   * project scope, area, at most `maxInspectPositions`. For exports and scans by other tools.
   */
  async regionBlocks(
    ctx: RequestContext,
    input: { min: unknown; max: unknown; entityData?: boolean },
  ): Promise<Result<RegionRead & { readonly entityData?: ReadonlyMap<number, Uint8Array> }>> {
    return this.d.guard(async () => {
      const scope = this.d.scope(ctx);
      if (!scope.ok) return scope;
      const r = await readRegion(this.d.adapter, scope.value.config, input?.min, input?.max, this.d.limits.maxInspectPositions);
      if (!r.ok || input.entityData !== true || r.value.digests.size === 0 || this.d.adapter.readBlockEntities === undefined) return r;
      const entityData = await this.d.adapter.readBlockEntities(r.value.box);
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
      if (input.since_cursor === undefined) return ok({ changes: [], next_cursor: this.d.feed.cursor(), complete: true });
      if (typeof input.since_cursor !== "string") return fail(mcbError("invalid_request", "since_cursor must be a string"));
      return this.d.feed.page(input.since_cursor, region.value, limit, source);
    });
  }
}
