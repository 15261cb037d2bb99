import { operationKind } from "../core/OperationStatus.js";
import { boxJson, type CatalogSummary, type Vec3 } from "@mcb/blocks";
import type { OperationJournal, PartJournal } from "../store/Journal.js";
import type { EngineLimits, ProjectConfig } from "../core/Project.js";
import type { WorldInfo } from "../world/WorldAdapter.js";
import { maskCount } from "../core/PackedMask.js";

export interface ProjectContextView {
  readonly schema_version: 1;
  readonly project_id: string;
  readonly description: string;
  readonly world: {
    readonly id: string;
    readonly epoch: number;
    readonly minecraft_version: string;
    readonly data_version: number;
    readonly min_y: number;
    readonly max_y: number;
    readonly capabilities: readonly string[];
    /** A save's own version (level.dat), which may be older or newer than the blocks' (`minecraft_version`). */
    readonly saved_by?: { readonly data_version: number; readonly release: string };
    /** Present when every write is refused: why, and what to do. */
    readonly read_only?: string;
  };
  readonly area: { readonly min: Vec3; readonly max: Vec3 };
  readonly limits: Readonly<Record<string, number>>;
  readonly capabilities: Readonly<Record<string, boolean>>;
  readonly material_catalog: CatalogSummary;
  /** Active parts first, then retired ones (emptied by undo), each in creation order; at most 32. */
  readonly parts: readonly { readonly part_id: string; readonly name: string; readonly count: number; readonly retired: boolean }[];
  readonly parts_truncated: boolean;
  readonly recent_operations: readonly {
    readonly operation_id: string;
    readonly kind: string;
    readonly status: string;
    readonly written: number;
    readonly total: number;
    readonly undone_by: string | null;
    /** The front end that made it, when recorded (`Principal.client`). */
    readonly client?: string;
  }[];
  /** Operations awaiting administrator recovery: no new writes start until they are decided. */
  readonly recovery_required: readonly string[];
  /** Start cursor for region_changes. */
  readonly change_cursor: string;
}

const PARTS = 32;
const RECENT = 10;

/** project_context: scope, world, limits, capabilities, parts and recent operations (bounded). */
export function projectContext(
  project: ProjectConfig,
  world: WorldInfo,
  limits: EngineLimits,
  catalog: CatalogSummary,
  journal: OperationJournal & PartJournal,
  cursor: string,
): ProjectContextView {
  const all = journal.listParts(project.projectId);
  const parts = [...all.filter((p) => p.retired !== true), ...all.filter((p) => p.retired === true)];
  return {
    schema_version: 1,
    project_id: project.projectId,
    description: project.description ?? "",
    world: {
      id: world.worldId,
      epoch: world.epoch,
      minecraft_version: world.minecraftVersion,
      data_version: world.dataVersion,
      min_y: world.minY,
      max_y: world.maxY,
      capabilities: world.capabilities,
      ...(world.savedBy === undefined ? {} : { saved_by: { data_version: world.savedBy.dataVersion, release: world.savedBy.release } }),
      ...(world.readOnly === undefined ? {} : { read_only: world.readOnly.message }),
    },
    area: boxJson(project.area),
    limits: {
      max_plan_blocks: limits.maxPlanBlocks,
      max_prepare_positions: limits.maxPreparePositions,
      max_inspect_positions: limits.maxInspectPositions,
      max_expected_blocks: limits.maxExpectedBlocks,
      max_dependencies: limits.maxDependencies,
      slice_size: limits.sliceSize,
      plan_ttl_seconds: Math.floor(limits.planTtlMs / 1000),
      change_page_limit: limits.changePageLimit,
      max_surface_columns: limits.maxSurfaceColumns,
      operation_page_limit: limits.operationPageLimit,
    },
    capabilities: {
      checked_expected_blocks: true,
      dependencies: true,
      parts: true,
      checked_undo: true,
      region_changes: true,
      region_surface: true,
      operation_list: true,
      crash_recovery: true,
      manual_edit_merge: true,
      part_diff: true,
    },
    material_catalog: catalog,
    parts: parts.slice(0, PARTS).map((p) => ({ part_id: p.partId, name: p.name, count: maskCount(p), retired: p.retired === true })),
    parts_truncated: parts.length > PARTS,
    recent_operations: journal.listOperations(project.projectId, {}, RECENT).map((o) => ({
      operation_id: o.operationId,
      kind: operationKind(o),
      status: o.status,
      written: o.counters.written,
      total: o.counters.total,
      undone_by: o.undoneBy,
      ...(o.initiator.client === undefined ? {} : { client: o.initiator.client }),
    })),
    recovery_required: journal
      .unfinishedOperations()
      .filter((o) => o.status === "recovery_required" && o.projectId === project.projectId)
      .map((o) => o.operationId),
    change_cursor: cursor,
  };
}
