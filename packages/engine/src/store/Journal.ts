import type { OperationKind, OperationStatus } from "../core/OperationStatus.js";
import type { PlanOrigin, PreparedPlan } from "../core/PreparedPlan.js";
import type { Box3 } from "@mcb/blocks";
import type { SavedMarks } from "../world/WorldAdapter.js";

export interface ConflictSample {
  readonly pos: { readonly x: number; readonly y: number; readonly z: number };
  /** `write`: a target block diverged; `dependency`: a read-set block diverged. */
  readonly kind: "write" | "dependency";
  readonly expected: string;
  readonly actual: string;
  /** True when only the block-entity data differs. */
  readonly dataChanged: boolean;
  /**
   * True when the block changed after the plan was prepared: every conflict an operation meets is
   * such a change (absent in records journalled before 12-06). A block back at the plan's base
   * (`actual` equals `expected`, `dataChanged` false) held something else in between (ours or an
   * observed edit): the base is stale, never written over.
   */
  readonly changedSincePrepare?: boolean;
}

export interface OperationCounters {
  /** Positions in the plan's write set. */
  readonly total: number;
  /** Writes confirmed by the world. */
  readonly written: number;
  /**
   * Writes whose outcome the journal does not know. `recovery_required`: every block of the slices
   * in flight when the process or the server stopped (sent, never confirmed: each may or may not
   * stand in the world). After an abandoned recovery: those of them found at the plan's desired
   * state when the administrator abandoned it (in the world, most likely ours, never confirmed).
   */
  readonly unconfirmed?: number;
  /** Confirmed writes the world lost when its server stopped before saving them (after an abandoned review). */
  readonly lost?: number;
  /** Positions found already at the desired state when their slice ran (not ours). */
  readonly skipped: number;
  readonly conflicts: number;
  readonly slicesDone: number;
  readonly slicesTotal: number;
}

export interface OperationRecord {
  readonly operationId: string;
  readonly projectId: string;
  readonly planId: string;
  readonly planHash: string;
  readonly idempotencyKey: string;
  /** Who applied it; access is rechecked for this principal before every slice. */
  readonly initiator: { readonly playerId: string; readonly role: "agent" | "admin"; readonly client?: string };
  readonly kind: "build" | "undo";
  /** A build's plan origin (terrain, import, brush); absent for recipes and undos. */
  readonly origin?: PlanOrigin;
  readonly undoOf: string | null;
  /** The part the plan was restricted to (undo: the original's), for operation_list filters. */
  readonly partId?: string | null;
  readonly status: OperationStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly counters: OperationCounters;
  readonly conflictSample: readonly ConflictSample[];
  readonly error: { readonly code: string; readonly message: string } | null;
  /** False once history became uncertain (abandoned recovery): undo is refused for good. */
  readonly undoable: boolean;
  /** Operation that undid this one, if any. */
  readonly undoneBy: string | null;
  /** build_apply's part_name: the part to name from this operation's writes when it ends. */
  readonly partName?: string | null;
  /** build_apply's take_over: active parts whose blocks the named part may take (ids). */
  readonly takeOver?: readonly string[];
  /** What naming that part gave: its id, or why it was not named (absent while pending). */
  readonly partOutcome?: { readonly partId: string } | { readonly error: { readonly code: string; readonly message: string } };
}

/** One slice: the intent (positions it will write) and, once confirmed, what was written. */
export interface SliceRecord {
  readonly operationId: string;
  readonly sliceNo: number;
  /** Range [start, end) of the plan's write set. */
  readonly start: number;
  readonly end: number;
  /** Bit i set: write-set position start+i is to be written (others already matched). */
  readonly intent: Uint8Array;
  /** Bit i set: confirmed written. Null while the slice is unfinished (intent only). */
  readonly written: Uint8Array | null;
  /** Journal sequence of the result commit (0 while unfinished). */
  readonly seq: number;
  /** Bounds of the intended positions. */
  readonly bounds: Box3;
  /** Block-entity digests right after our write, by offset within the slice. */
  readonly entityDigests: readonly (readonly [number, string])[];
}

export interface PartRecord {
  readonly partId: string;
  readonly projectId: string;
  readonly name: string;
  /** The first (or only) operation it was defined from. */
  readonly operationId: string;
  /** Every operation it was defined from, in order (absent in records from before: [operationId]). */
  readonly operationIds?: readonly string[];
  readonly createdAt: number;
  readonly bounds: Box3;
  /** Exact mask as (x, y, z) triples sorted by (y, z, x). */
  readonly mask: Int32Array;
  /** Counts changes of name or mask (absent in records from before: 1). */
  readonly revision?: number;
  /** True once undo left the mask empty: kept for history, out of the way of new parts. */
  readonly retired?: boolean;
  /** Blocks this part took over from other parts when it was named (build_apply's take_over), by part. */
  readonly takenFrom?: readonly TakenFrom[];
}

/** The positions a part took over from another part: given back when an undo restores them. */
export interface TakenFrom {
  readonly partId: string;
  /** (x, y, z) triples. */
  readonly mask: readonly number[];
}

/**
 * What a touch records. `external`: an observed change by someone else (a player, another plugin,
 * `mcb edit`): a person's edit. `baseline`: the state an administrator accepted as it is when
 * abandoning a recovery, where it is the plan's base or result (ours or not; nobody edited it at
 * that moment). `accepted`: the same decision where the block holds something else: a person's
 * block from then on (the merge keeps it, a plan prepared before may not write it), but no change
 * event for region_changes.
 */
export type TouchKind = "external" | "baseline" | "accepted";

/** The stored number of a touch kind (`TouchList.kinds`). */
export const TOUCH_KIND_CODES: Readonly<Record<TouchKind, number>> = { external: 0, baseline: 1, accepted: 2 };

/** Observed external changes: (seq, x, y, z) quads and the state after each (null: uncertain). */
export interface TouchList {
  readonly quads: Float64Array;
  readonly states: readonly (string | null)[];
  /** Per touch: 0 external, 1 baseline, 2 accepted (see `TouchKind`). */
  readonly kinds: Uint8Array;
  /** Per touch: its order in the journal (increasing within a sequence; stable across calls). */
  readonly rows: Float64Array;
}

/** Everything the standing-write index holds (see `StandingIndex`); the journal only stores it. */
export interface IndexHead {
  /** Journal sequence folded into the index so far. */
  readonly seq: number;
  /** Interned index entries (id = position + 1). */
  readonly entries: readonly string[];
}

export interface OperationFilter {
  readonly kind?: OperationKind;
  readonly status?: OperationStatus;
  /** Operations prepared inside this part, plus the one it was defined from. */
  readonly part?: { readonly partId: string; readonly operationIds: readonly string[] };
  /** Only operations after this one in list order (created_at descending, then id descending). */
  readonly after?: { readonly createdAt: number; readonly operationId: string };
}

/**
 * Durable store of plans, operations, slices, external touches, parts and claims. Every method
 * that returns is durable (one transaction per call under the store's writer lock: SQLite WAL +
 * synchronous FULL, or PostgreSQL). Several processes may share one journal (PostgreSQL): what one
 * commits, the others read. Records are values: callers never mutate what they passed in or got back.
 * Calls are synchronous on both stores, on purpose (`PostgresDb` says why and how).
 *
 * Each part of the engine sees the roles it uses (below), not the whole journal: the parts desk
 * `PartJournal` and what its undo checks read, the event sync `TouchJournal`, the bridge claims
 * `ClaimJournal`. `SqlJournal` implements them all over one store.
 */
export interface Journal extends OperationJournal, TouchJournal, IndexJournal, PartJournal, SavedWriteJournal, ClaimJournal {
  close(): void;
}

/** Plans, operations and their slices, and the sequence that orders slice results and touches. */
export interface OperationJournal {
  putPlan(plan: PreparedPlan): void;
  getPlan(planId: string): PreparedPlan | null;
  /** Only a plan's write-set positions (x, y, z triples), the rest left undecoded: null when no such plan. */
  getPlanPositions(planId: string): Int32Array | null;
  /**
   * Creates the operation in one atomic step: `duplicate_key` when (project, idempotency key)
   * already exists, `duplicate_plan` when any operation already uses the plan (a plan is applied
   * at most once, whatever the keys and however concurrent the callers).
   */
  createOperation(op: OperationRecord): "ok" | "duplicate_key" | "duplicate_plan";
  getOperation(operationId: string): OperationRecord | null;
  findOperationByKey(projectId: string, key: string): OperationRecord | null;
  findOperationByPlan(planId: string): OperationRecord | null;
  /** Most recent first (created_at, then id, descending), filtered, at most `limit`. */
  listOperations(projectId: string, filter: OperationFilter, limit: number): OperationRecord[];
  /** Operations in `queued`, `applying` or `recovery_required`. */
  unfinishedOperations(): OperationRecord[];
  /**
   * One transaction (one fsync: group commit): confirms slice results (each gets the next
   * sequence number, in order: one commit's numbers are consecutive, nothing comes between them),
   * stores new slice intents and the operation record. Returns the sequence number given to the
   * last result (0 if none).
   */
  commit(op: OperationRecord, results: readonly SliceResult[], intents: readonly SliceRecord[]): number;
  slices(operationId: string): SliceRecord[];
  /** Confirmed slices with seq > `afterSeq` whose bounds intersect `box`. */
  slicesAfter(afterSeq: number, box: Box3): SliceRecord[];
  /** The last sequence number given out: every later slice result or touch gets a larger one. */
  headSeq(): number;
  /** Bytes of durable storage used (for benchmarks and quotas). */
  sizeBytes(): number;
}

/** The world's events: touches (edits the engine did not make), the event cursor and its gaps. */
export interface TouchJournal {
  /**
   * Records touches as (x, y, z) triples with the state each now holds (`states` absent or an
   * entry null: uncertain), of one kind (default external), and, in the same transaction, the
   * world's event cursor they were pulled up to. Returns their sequence. With `fromCursor` (the
   * cursor the page was pulled from), nothing is recorded and 0 is returned when the stored cursor
   * has moved on: another bridge sharing the journal recorded that page already.
   */
  addTouches(
    positions: Int32Array,
    states?: readonly (string | null)[],
    options?: { readonly kind?: TouchKind; readonly eventCursor?: string; readonly fromCursor?: string | null },
  ): number;
  /** Touches with seq > `afterSeq` inside `box`, in sequence order. */
  touchesAfter(afterSeq: number, box: Box3): TouchList;
  /** The world's event cursor pulled up to (null: never pulled). Survives restarts. */
  eventCursor(): string | null;
  /** Saves the cursor; with `fromCursor`, only if the stored one is still it (see `addTouches`): false when it was not. */
  saveEventCursor(cursor: string, fromCursor?: string | null): boolean;
  /**
   * The world's event log lost continuity (edits may have been missed): takes a sequence for the
   * gap and saves the new cursor, in one transaction. Returns the gap's sequence (0 when, with
   * `fromCursor`, another bridge moved the cursor on first).
   */
  markGap(eventCursor: string, fromCursor?: string | null): number;
  /** Sequence of the newest gap (0: none). Change cursors from before it are stale. */
  lastGapSeq(): number;
  /** 16 hex digits, random per journal: change cursors are bound to it. */
  journalId(): string;
}

/** The standing-write index (see `StandingIndex`). */
export interface IndexJournal {
  /** The standing-write index's head (see `StandingIndex`). */
  indexHead(): IndexHead;
  /** Index sections by key "cx,cy,cz" (4096 entries each, y-z-x order); absent ones are empty. */
  indexSections(keys: readonly string[]): Map<string, Uint32Array>;
  /**
   * One transaction: appends interned entries, replaces the given sections and moves the head from
   * `fromSeq` to `seq`; false (nothing saved) when the stored head is no longer `fromSeq`, because
   * another process sharing the journal saved the index first.
   */
  saveIndex(fromSeq: number, seq: number, newEntries: readonly string[], sections: ReadonlyMap<string, Uint32Array>): boolean;
}

/** Named parts and their masks. */
export interface PartJournal {
  putPart(part: PartRecord): void;
  /** Replaces a stored part (same id): a new mask, name, revision or retirement. */
  updatePart(part: PartRecord): void;
  /** In one transaction: new parts, changed parts (each must exist) and, if given, an operation's record. */
  commitParts(added: readonly PartRecord[], updated: readonly PartRecord[], op?: OperationRecord): void;
  deletePart(partId: string): void;
  getPart(partId: string): PartRecord | null;
  listParts(projectId: string): PartRecord[];
}

/** Which confirmed writes are in the world's files (docs/DESIGN.md "Saved writes"). */
export interface SavedWriteJournal {
  /**
   * A saved mark the world reported: every slice of `session` numbered up to `savedThrough` is
   * saved. Marks only move forward.
   */
  noteSaved(session: string, savedThrough: number): void;
  /** Confirmed slices whose writes are not known to be saved, in commit order. */
  unsavedSlices(): UnsavedSlice[];
  /**
   * After checking slices against the world (a new host session): they are settled for good, and
   * the write-set indices found missing are added to their operation's lost writes; one transaction.
   */
  settleUnsaved(slices: readonly UnsavedSlice[], lost: ReadonlyMap<string, readonly number[]>): void;
  /** Whether the operation's confirmed writes are known to be saved (null: the world never said). */
  savedState(operationId: string): SavedState;
  /** Write-set indices of the operation found lost after a host crash, ascending. */
  lostWrites(operationId: string): number[];
}

/** Claims and leases shared by every process on the journal (a recovery's one claimant, a region's lease). */
export interface ClaimJournal {
  /**
   * Takes or renews the claim `name` for `holder` for `ttlMs` (a recovery's one claimant, a region's
   * lease); false when another holder has it and it has not expired. Shared by every process on the journal.
   */
  claim(name: string, holder: string, ttlMs: number): boolean;
  /**
   * Renews claims `holder` holds, in one statement: false when any of them is no longer its own
   * (taken by another holder, or gone: taken, settled and released meanwhile). Never takes a claim
   * it does not hold, unlike `claim`.
   */
  renewClaims(names: readonly string[], holder: string, ttlMs: number): boolean;
  /** Gives the claim up if `holder` holds it. */
  releaseClaim(name: string, holder: string): void;
  /** Voids every claim: an exclusive bridge opening (no other process can hold one). */
  clearClaims(): void;
  /** Who holds the claim now (null: free or expired). */
  claimHolder(name: string): string | null;
}

export interface SliceResult {
  readonly operationId: string;
  readonly sliceNo: number;
  readonly written: Uint8Array;
  readonly entityDigests: readonly (readonly [number, string])[];
  /** The world's numbering of this slice's writes, when it reports saved writes (and it wrote). */
  readonly saved?: SavedMarks;
}

/** A confirmed slice whose writes are not known to be in the world's files (docs/DESIGN.md "Saved writes"). */
export interface UnsavedSlice {
  readonly operationId: string;
  readonly sliceNo: number;
  readonly session: string;
  readonly writeSeq: number;
}

/**
 * Whether an operation's writes are in the world's files: `lost` when a restart check found some
 * missing, null when the world does not number its writes (or the operation wrote nothing).
 */
export type SavedState = "saved" | "unsaved" | "lost" | null;
