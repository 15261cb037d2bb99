import type { Box3 } from "@mcb/recipe";
import { mcbError, type McbError } from "@mcb/blocks";

/** Budgets of DESIGN §17, enforced by the engine (the server side of every boundary). */
export interface EngineLimits {
  /** Changed blocks in one plan. */
  readonly maxPlanBlocks: number;
  /** Positions inspected by one preparation (targets, filters, dependencies). */
  readonly maxPreparePositions: number;
  /** Positions in one region_inspect. */
  readonly maxInspectPositions: number;
  /** Writes per slice (one compare-and-set, one journal intent). */
  readonly sliceSize: number;
  readonly maxDependencies: number;
  readonly maxExpectedBlocks: number;
  readonly planTtlMs: number;
  readonly conflictSampleSize: number;
  /** Entries per region_changes page. */
  readonly changePageLimit: number;
  /** Changes remembered for region_changes before older cursors need a resync. */
  readonly changeFeedCapacity: number;
  /** Journal size above which build_apply refuses new operations (disk quota, DESIGN §15). */
  readonly maxJournalBytes: number;
  /** Sampled columns in one region_surface. */
  readonly maxSurfaceColumns: number;
  /** Entries per operation_list page. */
  readonly operationPageLimit: number;
}

export const DEFAULT_ENGINE_LIMITS: EngineLimits = {
  maxPlanBlocks: 100_000,
  maxPreparePositions: 2_000_000,
  maxInspectPositions: 4096,
  sliceSize: 512,
  maxDependencies: 4096,
  maxExpectedBlocks: 4096,
  planTtlMs: 10 * 60 * 1000,
  conflictSampleSize: 16,
  changePageLimit: 100,
  changeFeedCapacity: 200_000,
  maxJournalBytes: 8 * 1024 ** 3,
  maxSurfaceColumns: 4096,
  operationPageLimit: 50,
};

/** A building project: who may act, and the permitted area (inclusive). */
export interface ProjectConfig {
  readonly projectId: string;
  readonly ownerId: string;
  readonly members?: readonly string[];
  readonly area: Box3;
  readonly description?: string;
}

/** The verified caller. `admin` may run recovery; `agent` acts within its projects only. */
export interface Principal {
  readonly playerId: string;
  readonly role: "agent" | "admin";
}

export interface RequestContext {
  readonly principal: Principal;
  readonly projectId: string;
}

/** Mutable access list of one project (revocation takes effect before the next slice). */
export class ProjectAccess {
  private readonly allowed: Set<string>;

  constructor(readonly config: ProjectConfig) {
    this.allowed = new Set([config.ownerId, ...(config.members ?? [])]);
  }

  set(playerId: string, allowed: boolean): void {
    if (allowed) this.allowed.add(playerId);
    else this.allowed.delete(playerId);
  }

  permits(p: Principal): boolean {
    return p.role === "admin" || this.allowed.has(p.playerId);
  }
}

export function denied(projectId: string): McbError {
  // Same message whether the project exists or not: no probing of other projects.
  return mcbError("permission_denied", `no access to project ${JSON.stringify(projectId)}`);
}

export function validateLimits(l: EngineLimits): void {
  for (const [k, v] of Object.entries(l)) {
    if (!Number.isInteger(v) || v <= 0) throw new RangeError(`engine limit ${k} must be a positive integer, got ${String(v)}`);
  }
  if (l.sliceSize > 512) throw new RangeError("sliceSize is at most 512 (DESIGN §17)");
  if (l.sliceSize < 2) throw new RangeError("sliceSize is at least 2 (a multi-block pair is never split)");
}
