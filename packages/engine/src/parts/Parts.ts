import { boundsOf, boxesIntersect, boxUnion, boxJson, fail, mcbError, ok, posKey, type Result, type Vec3 } from "@mcb/blocks";
import { coverBoxes } from "../merge/BoxCover.js";
import type { OperationRecord, PartRecord, OperationJournal, PartJournal, SliceRecord, TouchJournal } from "../store/Journal.js";
import { MAX_REPORT_BOXES } from "../merge/ManualEdits.js";
import { confirmedWrites } from "../merge/Ownership.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import { maskKeys, maskOfVisits, maskPoints, sortedMask, TripleList, withMask, withSortedMask } from "./PartMask.js";
import { denseRunsAndSet, gridOf, isDense, PositionSet } from "./PositionSet.js";
import { maskCount, withPackedMask } from "../core/PackedMask.js";
import { countBits, getBit } from "../core/BitMask.js";
import { giveBack, heldByOthers, takeAgain } from "./PartTakeover.js";

export interface PartView {
  readonly part_id: string;
  readonly name: string;
  readonly operation_id: string;
  /** Every operation it was defined from ([operation_id] for one). */
  readonly operation_ids: readonly string[];
  /** Lookup bounds; the mask (not the bounds) is what build_prepare(part_id) enforces. Null once retired. */
  readonly bounds: { readonly min: Vec3; readonly max: Vec3 } | null;
  readonly count: number;
  readonly protection: { readonly mode: "exact_mask"; readonly description: string };
  /** Starts at 1; every rename and every mask change (undo, redo) adds one. */
  readonly revision: number;
  /** Undo emptied the mask: kept for history, no longer in the way of new parts or names. */
  readonly retired: boolean;
  readonly created_at: string;
}

/** part_get's view: also the blocks it took over from other parts when it was named (take_over), by part. */
export interface PartDetailView extends PartView {
  readonly taken_over: readonly { readonly part_id: string; readonly count: number }[];
}

const NAME = /^[\x20-\x7e]{1,64}$/;
/** Operations whose confirmed writes may define a part (failed: e.g. an abandoned recovery, whose confirmed writes stand). */
const DEFINING: ReadonlySet<string> = new Set(["applied", "conflict", "cancelled", "failed"]);
const SAMPLE = 8;

export function partView(p: PartRecord): PartView {
  return {
    part_id: p.partId,
    name: p.name,
    operation_id: p.operationId,
    operation_ids: p.operationIds ?? [p.operationId],
    bounds: maskCount(p) === 0 ? null : boxJson(p.bounds),
    count: maskCount(p),
    protection: { mode: "exact_mask", description: "build_prepare with this part_id may write only the blocks of this mask" },
    revision: p.revision ?? 1,
    retired: p.retired === true,
    created_at: new Date(p.createdAt).toISOString(),
  };
}

/** Operations one part may be defined from (a schematic batch of 200 tiles is 200 operations). */
export const MAX_PART_OPERATIONS = 1024;

function partIds(p: PartRecord): readonly string[] {
  return p.operationIds ?? [p.operationId];
}

/** The project's active part of this name, or null. */
export function activePartNamed(journal: PartJournal, projectId: string, name: unknown): PartRecord | null {
  return typeof name === "string" ? (journal.listParts(projectId).find((p) => p.retired !== true && p.name === name) ?? null) : null;
}

export function checkName(journal: OperationJournal & TouchJournal & PartJournal, projectId: string, name: unknown, self: string | null): Result<string> {
  if (typeof name !== "string" || !NAME.test(name))
    return fail(mcbError("invalid_request", "name must be 1–64 printable ASCII characters", { reason: "name" }));
  const other = journal.listParts(projectId).find((p) => p.retired !== true && p.name === name && p.partId !== self);
  if (other !== undefined)
    return fail(
      mcbError("invalid_request", `a part named ${JSON.stringify(name)} exists (${other.partId})`, { reason: "duplicate_name", part_id: other.partId }),
    );
  return ok(name);
}

/**
 * Fails with the first active part (other than `self` and the parts in `allowed`, which may be
 * taken over) whose mask meets `keys` (positions), naming the exact overlap.
 */
export function overlapOf(
  journal: OperationJournal & TouchJournal & PartJournal,
  projectId: string,
  keys: { has(x: number, y: number, z: number): boolean },
  bounds: PartRecord["bounds"],
  self: string | null,
  allowed: ReadonlySet<string> = new Set(),
): Result<void> {
  for (const other of journal.listParts(projectId)) {
    if (other.retired === true || other.partId === self || allowed.has(other.partId) || !boxesIntersect(other.bounds, bounds)) continue;
    const shared: number[] = [];
    for (let i = 0; i < other.mask.length; i += 3)
      if (keys.has(other.mask[i]!, other.mask[i + 1]!, other.mask[i + 2]!)) shared.push(other.mask[i]!, other.mask[i + 1]!, other.mask[i + 2]!);
    if (shared.length === 0) continue;
    const boxes = coverBoxes(shared);
    return fail(
      mcbError(
        "invalid_request",
        `${shared.length / 3} of these blocks already belong to part ${JSON.stringify(other.name)} (${other.partId}); parts never overlap: take_over: [${JSON.stringify(other.name)}] moves them into the new part (undo gives them back), or build around them`,
        {
          reason: "part_overlap",
          part_id: other.partId,
          name: other.name,
          count: shared.length / 3,
          boxes: boxes.slice(0, MAX_REPORT_BOXES).map(boxJson),
          boxes_truncated: boxes.length > MAX_REPORT_BOXES,
          sample: Array.from({ length: Math.min(SAMPLE, shared.length / 3) }, (_, k) => ({ x: shared[k * 3]!, y: shared[k * 3 + 1]!, z: shared[k * 3 + 2]! })),
        },
      ),
    );
  }
  return ok(undefined);
}

/**
 * part_define: registers exactly the blocks that ended operations (applied, stopped by a conflict
 * or a cancel, or failed, e.g. an abandoned recovery; not undone) confirmed: one operation, or the operations of a batch (their
 * union). Masks of a project's active parts never overlap: positions of the parts in `takeOver`
 * may be shared here, and `takeOverBlocks` then moves them into the new part.
 */
export function definePart(
  journal: OperationJournal & TouchJournal & PartJournal,
  sources: readonly { readonly op: OperationRecord; readonly plan: { readonly pos: Int32Array } | (() => { readonly pos: Int32Array }) }[],
  name: unknown,
  partId: string,
  now: number,
  takeOver: ReadonlySet<string> = new Set(),
): Result<PartRecord> {
  const projectId = sources[0]!.op.projectId;
  const checked = checkName(journal, projectId, name, null);
  if (!checked.ok) return checked;
  for (const { op } of sources) {
    // A stopped operation's confirmed writes are real blocks too (a batch's tile cancelled, then resumed).
    if (!DEFINING.has(op.status))
      return fail(
        mcbError(
          "invalid_request",
          `operation ${op.operationId} is ${op.status}; only an ended operation (applied, stopped by a conflict or a cancel, or failed) defines a part`,
          { reason: "operation_status", operation_id: op.operationId },
        ),
      );
    if (op.undoneBy !== null)
      return fail(
        mcbError("invalid_request", `operation ${op.operationId} was undone by ${op.undoneBy}; its blocks are gone`, {
          reason: "operation_undone",
          operation_id: op.operationId,
          undone_by: op.undoneBy,
        }),
      );
  }
  // The confirmed writes of every operation: their slices read once (bounds and count from the
  // slices' records), then one visit, each plan loaded as it is needed and let go.
  const finished = sources.map(({ op, plan }) => ({ plan, slices: journal.slices(op.operationId).filter((sl) => sl.written !== null) }));
  const slices = finished.flatMap((f) => f.slices);
  const count = slices.reduce((n, sl) => n + countBits(sl.written!, sl.end - sl.start), 0);
  const visit = (emit: (x: number, y: number, z: number) => void): void => {
    for (const { plan: planOf, slices } of finished) {
      if (slices.length === 0) continue;
      eachConfirmed(slices, (typeof planOf === "function" ? planOf() : planOf).pos, emit);
    }
  };
  // Blocks that fill their bounds (a paste, a box) become the mask as it is stored, never as triples.
  const grid = count === 0 ? null : gridOf(slices.map((sl) => sl.bounds).reduce(boxUnion));
  const dense = grid !== null && isDense(grid, count) ? denseRunsAndSet(grid, visit) : null;
  const listed = dense === null ? maskOfVisits(visit, grid === null ? undefined : { bounds: grid, count }) : null;
  const set = dense?.set ?? listed!.set;
  if ((dense?.count ?? listed!.mask.length) === 0)
    return fail(
      mcbError("invalid_request", `${sources.length === 1 ? `operation ${sources[0]!.op.operationId}` : "the operations"} wrote no blocks`, {
        reason: "empty_mask",
      }),
    );
  const bounds = dense?.bounds ?? boundsOf(listed!.mask)!;
  const overlap = overlapOf(journal, projectId, set, bounds, null, takeOver);
  if (!overlap.ok) return overlap;
  const ids = sources.map((s) => s.op.operationId);
  const record = {
    partId,
    projectId,
    name: checked.value,
    operationId: ids[0]!,
    ...(ids.length > 1 ? { operationIds: ids } : {}),
    createdAt: now,
    bounds,
    revision: 1,
  };
  return ok(dense === null ? { ...record, mask: listed!.mask } : withPackedMask(record, dense.runs, dense.count));
}

/**
 * A build that names an active part grows it: the blocks the operation confirmed join the part's
 * mask (a new revision, the operation added to its operations). Positions of other active parts may
 * be shared only with the parts in `takeOver` (`takeOverBlocks` then moves them in).
 */
export function extendPart(
  journal: OperationJournal & TouchJournal & PartJournal,
  part: PartRecord,
  op: OperationRecord,
  plan: PreparedPlan,
  takeOver: ReadonlySet<string> = new Set(),
): Result<PartRecord> {
  const keys = maskKeys(part.mask);
  const points: [number, number, number][] = maskPoints(part.mask);
  const added = new Set<string>();
  for (const w of confirmedWrites(journal, plan, op.operationId)) {
    const k = posKey(w.x, w.y, w.z);
    added.add(k);
    if (keys.has(k)) continue;
    keys.add(k);
    points.push([w.x, w.y, w.z]);
  }
  if (added.size === 0) return fail(mcbError("invalid_request", `operation ${op.operationId} wrote no blocks`, { reason: "empty_mask" }));
  const mask = sortedMask(points);
  const bounds = boundsOf(mask)!;
  const overlap = overlapOf(journal, part.projectId, { has: (x, y, z) => added.has(posKey(x, y, z)) }, bounds, part.partId, takeOver);
  if (!overlap.ok) return overlap;
  return ok({ ...part, mask, bounds, revision: (part.revision ?? 1) + 1, operationIds: [...partIds(part), op.operationId] });
}

export function partDetailView(p: PartRecord): PartDetailView {
  return { ...partView(p), taken_over: (p.takenFrom ?? []).map((t) => ({ part_id: t.partId, count: t.mask.length / 3 })) };
}

/** part_rename: a new name, unique among the project's active parts. */
export function renamePart(journal: OperationJournal & TouchJournal & PartJournal, part: PartRecord, name: unknown): Result<PartRecord> {
  const checked = checkName(journal, part.projectId, name, part.partId);
  if (!checked.ok) return checked;
  const renamed = { ...part, name: checked.value, revision: (part.revision ?? 1) + 1 };
  journal.updatePart(renamed);
  return ok(renamed);
}

/** Calls `emit` with each plan position (`pos`) the slices confirmed written. */
function eachConfirmed(slices: readonly SliceRecord[], pos: Int32Array, emit: (x: number, y: number, z: number) => void): void {
  for (const sl of slices) {
    if (sl.written === null) continue;
    for (let off = 0; off < sl.end - sl.start; off++) {
      if (!getBit(sl.written, off)) continue;
      const i = (sl.start + off) * 3;
      emit(pos[i]!, pos[i + 1]!, pos[i + 2]!);
    }
  }
}

/** Appends the positions an operation confirmed (its finished slices' written writes) to `into`. */
function confirmedInto(journal: OperationJournal & TouchJournal & PartJournal, plan: PreparedPlan, operationId: string, into: TripleList): void {
  eachConfirmed(journal.slices(operationId), plan.pos, (x, y, z) => into.push(x, y, z));
}

/**
 * After an undo operation ran (whatever its status): the positions it restored leave the parts
 * defined from the operation it undid (a part left empty is retired) and go back to the parts
 * those had taken them over from; when it undid an undo (a redo), they come back to the parts
 * defined from the operation that undo had undone (taken over again where they had been given
 * back; elsewhere only where no other active part holds them). Longer chains count from their
 * start: the undo of a redo undoes that operation again, and so on. Returns the parts changed, stored
 * in one journal transaction.
 */
export function partsAfterUndo(
  journal: OperationJournal & TouchJournal & PartJournal,
  plans: (planId: string) => PreparedPlan,
  undo: OperationRecord,
): PartRecord[] {
  if (undo.kind !== "undo" || undo.undoOf === null) return [];
  // Numeric position sets throughout (a paste's part has millions of blocks; a string each was seconds).
  const restoredList = new TripleList(undo.counters.written);
  confirmedInto(journal, plans(undo.planId), undo.operationId, restoredList);
  if (restoredList.length === 0) return [];
  const restored = restoredList.triples;
  const keys = PositionSet.of(restored);
  let keyStrings: Set<string> | null = null;
  const restoredKeys = (): Set<string> => (keyStrings ??= maskKeys(restored));
  // The undone operation's blocks its undo left as they were because they were no longer ours (a
  // person changed them, or a later write): they leave the part too, so a part of blocks that were
  // all ours retires once they are undone (the changed ones are the person's).
  const reversed = journal.getOperation(undo.undoOf);
  const extra = new TripleList();
  if (reversed !== null) {
    const planned = PositionSet.of(plans(undo.planId).pos);
    const wrote = new TripleList(reversed.counters.written);
    confirmedInto(journal, plans(reversed.planId), reversed.operationId, wrote);
    const w = wrote.triples;
    for (let i = 0; i < w.length; i += 3) if (!planned.has(w[i]!, w[i + 1]!, w[i + 2]!)) extra.push(w[i]!, w[i + 1]!, w[i + 2]!);
  }
  const extraSet = PositionSet.of(extra.triples);
  const leaving = (x: number, y: number, z: number): boolean => keys.has(x, y, z) || extraSet.has(x, y, z);
  const current = new Map(journal.listParts(undo.projectId).map((p) => [p.partId, p]));
  const changed = new Set<string>();
  const set = (p: PartRecord): void => void (current.set(p.partId, p), changed.add(p.partId));
  // Through a chain of undos of undos, the operation at its start (the base) is what the parts
  // were defined from: an odd number of undos from it undoes it, an even number redoes it.
  const chain = baseOf(journal, undo);
  const undoes = chain.undos % 2 === 1;
  for (const p of undoes ? [...current.values()] : []) {
    if (!partIds(p).includes(chain.base) || p.mask.length === 0) continue;
    // A part that grew over several operations keeps the positions its other operations wrote (the
    // undo restored their blocks): of those leaving, the ones another of its operations confirmed.
    const keptList = new TripleList();
    for (const id of partIds(p)) {
      if (id === chain.base) continue;
      const op = journal.getOperation(id);
      if (op === null || !standing(journal, op)) continue;
      const theirs = new TripleList(op.counters.written);
      confirmedInto(journal, plans(op.planId), id, theirs);
      const t = theirs.triples;
      for (let i = 0; i < t.length; i += 3) if (leaving(t[i]!, t[i + 1]!, t[i + 2]!)) keptList.push(t[i]!, t[i + 1]!, t[i + 2]!);
    }
    const kept = PositionSet.of(keptList.triples);
    const out = new TripleList(p.mask.length / 3);
    const m = p.mask;
    for (let i = 0; i < m.length; i += 3)
      if (!leaving(m[i]!, m[i + 1]!, m[i + 2]!) || kept.has(m[i]!, m[i + 1]!, m[i + 2]!)) out.push(m[i]!, m[i + 1]!, m[i + 2]!);
    if (out.length * 3 === p.mask.length) continue;
    set(withSortedMask(p, out.triples.slice())); // filtering keeps the mask's order
    if (p.takenFrom !== undefined) for (const v of giveBack(current, current.get(p.partId)!, restoredKeys())) set(v);
  }
  if (!undoes) {
    for (const first of [...current.values()]) {
      if (!partIds(first).includes(chain.base)) continue;
      if (first.retired === true && [...current.values()].some((o) => o.retired !== true && o.partId !== first.partId && o.name === first.name)) continue; // its name went to another part
      for (const v of takeAgain(current, first, restoredKeys())) set(v);
      const p = current.get(first.partId)!;
      const taken = heldByOthers(current.values(), p.partId);
      const own = maskKeys(p.mask);
      const points = maskPoints(p.mask);
      for (let i = 0; i < restored.length; i += 3) {
        const k = posKey(restored[i]!, restored[i + 1]!, restored[i + 2]!);
        if (!own.has(k) && !taken.has(k)) points.push([restored[i]!, restored[i + 1]!, restored[i + 2]!]);
      }
      if (points.length * 3 !== p.mask.length) set(withMask(p, points));
    }
  }
  const out = [...changed].map((id) => current.get(id)!);
  if (out.length > 0) journal.commitParts([], out);
  return out;
}

/** The operation at the start of an undo's chain of undos (`undoOf`), and how many undos lead from it to `undo` (1: a plain undo, 2: a redo). */
function baseOf(journal: OperationJournal, undo: OperationRecord): { readonly base: string; readonly undos: number } {
  let base = undo.undoOf!;
  let undos = 1;
  for (let op = journal.getOperation(base); op !== null && op.kind === "undo" && op.undoOf !== null && undos < 64; op = journal.getOperation(base)) {
    base = op.undoOf;
    undos++;
  }
  return { base, undos };
}

/**
 * Whether an operation's blocks stand as it left them as far as undos go: it was never undone, or
 * its undo was undone in turn (a redo), and so on.
 */
function standing(journal: OperationJournal, op: OperationRecord): boolean {
  for (let depth = 0; op.undoneBy !== null && depth < 64; depth++) {
    const undo = journal.getOperation(op.undoneBy);
    if (undo === null) return false;
    if (undo.undoneBy === null) return depth % 2 === 1;
    op = undo;
  }
  return true;
}
