import { type Box3, boxJson, mcbError, type McbError } from "@mcb/blocks";

/** Budgets (docs/DESIGN.md "Limits and budgets"), enforced by the engine (the server side of every boundary). */
export interface EngineLimits {
  /** Changed blocks in one plan. */
  readonly maxPlanBlocks: number;
  /** Positions inspected by one preparation (targets, filters, dependencies). */
  readonly maxPreparePositions: number;
  /** Positions in one region_inspect. */
  readonly maxInspectPositions: number;
  /** Writes per slice (one compare-and-set, one journal intent). */
  readonly sliceSize: number;
  /**
   * Slices per batch where the world takes batches (`compareAndSetBatch`): their intents are
   * journalled in one commit, sent in one call and run in order, the batch stopping at the first
   * slice that meets a conflict. Other worlds take one slice at a time. At most 64.
   */
  readonly sliceWindow: number;
  readonly maxDependencies: number;
  readonly maxExpectedBlocks: number;
  readonly planTtlMs: number;
  readonly conflictSampleSize: number;
  /** Entries per region_changes page. */
  readonly changePageLimit: number;
  /** Journal size above which build_apply refuses new operations (disk quota). */
  readonly maxJournalBytes: number;
  /** Sampled columns in one region_surface. */
  readonly maxSurfaceColumns: number;
  /** Entries per operation_list page. */
  readonly operationPageLimit: number;
  /**
   * Write pacing: slices of one operation are spaced so it writes at most this many blocks per
   * second (Infinity: as fast as the world accepts). Protects a busy server; a cancel still lands
   * between slices.
   */
  readonly maxBlocksPerSecond: number;
}

/** Most slices in one `compareAndSetBatch` (the world port's `cas_batch` limit). */
export const MAX_SLICE_WINDOW = 64;

export const DEFAULT_ENGINE_LIMITS: EngineLimits = {
  maxPlanBlocks: 100_000,
  maxPreparePositions: 2_000_000,
  maxInspectPositions: 4096,
  sliceSize: 512,
  sliceWindow: 32,
  maxDependencies: 4096,
  maxExpectedBlocks: 4096,
  planTtlMs: 10 * 60 * 1000,
  conflictSampleSize: 16,
  changePageLimit: 100,
  maxJournalBytes: 8 * 1024 ** 3,
  maxSurfaceColumns: 4096,
  operationPageLimit: 50,
  maxBlocksPerSecond: Infinity,
};

/** Project ids: what `/ai project create` and the MCP scope accept. */
export const PROJECT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** A building project: who may act, and the permitted area (inclusive). */
export interface ProjectConfig {
  readonly projectId: string;
  readonly ownerId: string;
  readonly members?: readonly string[];
  readonly area: Box3;
  /** How a person widens the area (the host's words: "pass --area …"), appended to every out_of_bounds refusal. */
  readonly areaHint?: string;
  readonly description?: string;
  /** Parts the agent may not write (docs/DESIGN.md "Parts", `/ai protect`): every plan touching their mask is refused. */
  readonly protectedParts?: readonly string[];
}

/** The verified caller. `admin` may run recovery; `agent` acts within its projects only. */
export interface Principal {
  readonly playerId: string;
  readonly role: "agent" | "admin";
  /**
   * The front end it acted through ("claude-code" over MCP, "mcb build (pid 4242)" from the
   * command line): recorded on its operations for attribution only; access is by `playerId`.
   */
  readonly client?: string;
}

export interface RequestContext {
  readonly principal: Principal;
  readonly projectId: string;
}

/** Mutable access list of one project (revocation takes effect before the next slice). */
export class ProjectAccess {
  private readonly allowed: Set<string>;
  /** Protected part ids; `protectionVersion` counts changes so running operations recheck. */
  readonly protectedParts: Set<string>;
  protectionVersion = 0;

  constructor(public config: ProjectConfig) {
    this.allowed = new Set([config.ownerId, ...(config.members ?? [])]);
    this.protectedParts = new Set(config.protectedParts ?? []);
  }

  /** A new area, owner or member list (from the host); protections are kept. */
  redefine(config: ProjectConfig): void {
    for (const id of [this.config.ownerId, ...(this.config.members ?? [])]) this.allowed.delete(id);
    for (const id of [config.ownerId, ...(config.members ?? [])]) this.allowed.add(id);
    this.config = config;
    for (const id of config.protectedParts ?? []) this.protectedParts.add(id);
    this.protectionVersion++;
  }

  protect(partId: string, on: boolean): void {
    if (on) this.protectedParts.add(partId);
    else this.protectedParts.delete(partId);
    this.protectionVersion++;
  }

  set(playerId: string, allowed: boolean): void {
    if (allowed) this.allowed.add(playerId);
    else this.allowed.delete(playerId);
  }

  permits(p: Principal): boolean {
    return p.role === "admin" || this.allowed.has(p.playerId);
  }
}

/** The project's area and how to widen it: what every request outside it is refused with. */
export type AreaScope = Pick<ProjectConfig, "area" | "areaHint">;

/** The out_of_bounds refusal of a request that reaches outside the project area. */
export function outsideArea(what: string, scope: AreaScope, details: Readonly<Record<string, unknown>> = {}): McbError {
  return mcbError(
    "out_of_bounds",
    `${what} outside the project area (x ${scope.area.minX}..${scope.area.maxX}, y ${scope.area.minY}..${scope.area.maxY}, z ${scope.area.minZ}..${scope.area.maxZ})${scope.areaHint === undefined ? "" : `; ${scope.areaHint}`}`,
    { area: boxJson(scope.area), ...details },
  );
}

export function denied(projectId: string): McbError {
  // Same message whether the project exists or not: no probing of other projects.
  return mcbError("permission_denied", `no access to project ${JSON.stringify(projectId)}`);
}

export function validateLimits(l: EngineLimits): void {
  for (const [k, v] of Object.entries(l)) {
    if (k === "maxBlocksPerSecond" && v === Infinity) continue;
    if (!Number.isInteger(v) || v <= 0) throw new RangeError(`engine limit ${k} must be a positive integer, got ${String(v)}`);
  }
  if (l.sliceSize > 512) throw new RangeError("sliceSize is at most 512");
  if (l.sliceSize < 2) throw new RangeError("sliceSize is at least 2 (a multi-block pair is never split)");
  if (l.sliceWindow > MAX_SLICE_WINDOW) throw new RangeError(`sliceWindow is at most ${MAX_SLICE_WINDOW}`);
}
