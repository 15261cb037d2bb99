import type { ConflictSample, OperationRecord, SavedState } from "../store/Journal.js";
import type { ManualEditsView } from "../merge/ManualEdits.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import { boundsOf, type Box3, boxJson, type Vec3 } from "@mcb/blocks";
import { hasEnded, isUndoable, operationKind, type OperationKind, type OperationStatus } from "../core/OperationStatus.js";

/** Wire shapes (snake_case, as in docs/PROTOCOL.md) of engine responses. */

export interface ConflictView {
  readonly pos: Vec3;
  readonly kind: "write" | "dependency";
  readonly expected: string;
  readonly actual: string;
  /** Only the block-entity data differs. */
  readonly data_changed: boolean;
  /** Back at the plan's base, but something else was there since preparation: not overwritten. */
  readonly changed_since_prepare: boolean;
}

export interface OperationStatusView {
  readonly operation_id: string;
  readonly plan_id: string;
  readonly kind: OperationKind;
  readonly undo_of: string | null;
  readonly status: OperationStatus;
  readonly counters: {
    readonly total: number;
    readonly written: number;
    readonly skipped: number;
    readonly conflicts: number;
    readonly slices_done: number;
    readonly slices_total: number;
    /** recovery_required: blocks in flight when it stopped (outcome unknown); abandoned: those found at the desired state. */
    readonly unconfirmed: number;
    /** Confirmed writes the world lost when its server stopped before saving them (docs/DESIGN.md "Saved writes"). */
    readonly lost: number;
  };
  /**
   * Whether every write of the operation is in the world's files: true, false (not yet, or some
   * were lost: see `status` and `error`), or null when the world does not say (no saved_writes).
   */
  readonly saved: boolean | null;
  /** Bounded sample; `counters.conflicts` is the exact count. */
  readonly conflicts: readonly ConflictView[];
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly undoable: boolean;
  readonly undone_by: string | null;
  /** build_apply's part_name: null when none was asked; part_id and error both null while pending. */
  readonly part: { readonly name: string; readonly part_id: string | null; readonly error: { readonly code: string; readonly message: string } | null } | null;
  readonly cancel_requested: boolean;
  /** The front end that applied it (an MCP client's name, an mcb command), when it was recorded. */
  readonly client?: string;
  readonly created_at: string;
  readonly updated_at: string;
}

export function conflictView(c: ConflictSample): ConflictView {
  return {
    pos: c.pos,
    kind: c.kind,
    expected: c.expected,
    actual: c.actual,
    data_changed: c.dataChanged,
    changed_since_prepare: c.changedSincePrepare === true,
  };
}

/** The part build_apply's part_name asked for: pending (both null), named, or not named and why. */
function partOf(op: OperationRecord): OperationStatusView["part"] {
  if (op.partName === undefined || op.partName === null) return null;
  const o = op.partOutcome;
  return { name: op.partName, part_id: o !== undefined && "partId" in o ? o.partId : null, error: o !== undefined && "error" in o ? o.error : null };
}

export function operationView(op: OperationRecord, cancelRequested: boolean, saved: SavedState, lost: number): OperationStatusView {
  const c = op.counters;
  return {
    operation_id: op.operationId,
    plan_id: op.planId,
    kind: operationKind(op),
    undo_of: op.undoOf,
    status: op.status,
    counters: {
      total: c.total,
      written: c.written,
      skipped: c.skipped,
      conflicts: c.conflicts,
      slices_done: c.slicesDone,
      slices_total: c.slicesTotal,
      unconfirmed: c.unconfirmed ?? 0,
      lost,
    },
    saved: saved === null ? (c.written === 0 && hasEnded(op.status) ? true : null) : saved === "saved",
    conflicts: op.conflictSample.map(conflictView),
    error: op.error,
    undoable: isUndoable(op),
    undone_by: op.undoneBy,
    part: partOf(op),
    cancel_requested: cancelRequested,
    ...(op.initiator.client === undefined ? {} : { client: op.initiator.client }),
    created_at: new Date(op.createdAt).toISOString(),
    updated_at: new Date(op.updatedAt).toISOString(),
  };
}

export interface PrepareView {
  readonly plan_id: string;
  readonly plan_hash: string;
  readonly kind: "build" | "undo";
  /** Blocks the plan will write. */
  readonly changed_blocks: number;
  /** Desired positions already in the desired state (not written, not ours). */
  readonly unchanged_blocks: number;
  /** Positions a `replace` filter excluded. */
  readonly filtered_blocks: number;
  readonly dependencies: number;
  readonly region: { readonly min: Vec3; readonly max: Vec3 } | null;
  readonly expires_at: string;
  /** Desired states with counts, largest first, at most 32. */
  readonly materials: readonly { readonly state: string; readonly count: number }[];
  readonly materials_truncated: boolean;
  readonly warnings: readonly string[];
  /** The three-way merge with people's edits (see `ManualEdits`). */
  readonly manual_edits: ManualEditsView;
}

/** operation_undo_prepare's answer. */
export type UndoPrepareView = PrepareView & {
  readonly undo_of: string;
  readonly conflicts: { readonly count: number; readonly sample: readonly ConflictView[] };
  /** Positions of a slice never confirmed (an abandoned recovery): left as they are, never written blindly. */
  readonly uncertain_blocks: number;
};

const MATERIALS = 32;

export function prepareView(plan: PreparedPlan, warnings: readonly string[], manualEdits: ManualEditsView): PrepareView {
  const counts = new Map<number, number>();
  for (const a of plan.after) counts.set(a, (counts.get(a) ?? 0) + 1);
  const materials = [...counts].map(([s, count]) => ({ state: plan.states[s]!, count })).sort((a, b) => b.count - a.count || (a.state < b.state ? -1 : 1));
  const bounds: Box3 | null = boundsOf(plan.pos);
  return {
    plan_id: plan.planId,
    plan_hash: plan.planHash,
    kind: plan.kind,
    changed_blocks: plan.pos.length / 3,
    unchanged_blocks: plan.unchanged,
    filtered_blocks: plan.filtered,
    dependencies: plan.depPos.length / 3,
    region: bounds === null ? null : boxJson(bounds),
    expires_at: new Date(plan.expiresAt).toISOString(),
    materials: materials.slice(0, MATERIALS),
    materials_truncated: materials.length > MATERIALS,
    warnings,
    manual_edits: manualEdits,
  };
}
