import { mcbError } from "@mcb/blocks";
import type { OperationRecord, PartRecord, OperationJournal, PartJournal, TouchJournal } from "../store/Journal.js";
import { hasEnded } from "../core/OperationStatus.js";
import { activePartNamed, definePart, extendPart } from "./Parts.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import { takeOverBlocks } from "./PartTakeover.js";

/**
 * build_apply's `part_name`: the blocks an operation wrote become a named part the moment it ends,
 * in the same turn that records its end (no caller sees it ended without its part). The name is
 * kept in the operation's record from the start, so an engine that stopped in between names the
 * part when it opens again. Nothing written, or a part rule broken (the name taken meanwhile, an
 * overlap with another part), leaves the operation as it is and records why (`part.error`). With
 * `take_over`, the positions it shares with those parts move into it. The new part, the parts it
 * took blocks from and the operation's outcome are stored in one journal transaction.
 */
export interface NamedPartDeps {
  readonly journal: OperationJournal & TouchJournal & PartJournal;
  readonly plan: (planId: string) => PreparedPlan;
  readonly newId: (prefix: string) => string;
  readonly clock: () => number;
}

/** True while an ended operation still waits for its part to be named. */
export function partPending(op: OperationRecord): boolean {
  return op.partName !== undefined && op.partName !== null && op.partOutcome === undefined;
}

/** Names the part of an ended operation that asked for one (idempotent); returns the record now. */
export function nameEndedPart(d: NamedPartDeps, op: OperationRecord): OperationRecord {
  if (!partPending(op) || !hasEnded(op.status)) return op;
  let outcome: NonNullable<OperationRecord["partOutcome"]>;
  let added: PartRecord[] = [],
    updated: PartRecord[] = [];
  if (op.kind !== "build" || op.counters.written === 0 || op.status === "failed") {
    outcome = { error: { code: "not_named", message: `the operation ended ${op.status} with ${op.counters.written} blocks written: no part named` } };
  } else {
    // An active part of that name grows by the operation's blocks (it takes nothing from itself); else a new part is defined.
    const growing = activePartNamed(d.journal, op.projectId, op.partName);
    const takeOver = (op.takeOver ?? []).filter((id) => id !== growing?.partId);
    const plan = d.plan(op.planId);
    const part =
      growing === null
        ? definePart(d.journal, [{ op, plan }], op.partName, d.newId("part"), d.clock(), new Set(takeOver))
        : extendPart(d.journal, growing, op, plan, new Set(takeOver));
    if (part.ok) {
      const moved = takeOverBlocks(d.journal, part.value, takeOver);
      if (growing === null) added = [moved.taker];
      else updated = [moved.taker];
      updated = [...updated, ...moved.victims];
    }
    outcome = part.ok ? { partId: part.value.partId } : { error: { code: part.error.code, message: part.error.message } };
  }
  const named = { ...op, partOutcome: outcome, updatedAt: d.clock() };
  d.journal.commitParts(added, updated, named);
  return named;
}

/** At open: operations that ended while the engine stopped before naming their part (newest 100 per project). */
export function nameMissedParts(d: NamedPartDeps, projectIds: readonly string[]): void {
  for (const projectId of projectIds) for (const op of d.journal.listOperations(projectId, {}, 100)) nameEndedPart(d, op);
}

/** The refusal of a part_name on an undo (checked before anything is written). */
export function partNameOnUndo(): ReturnType<typeof mcbError> {
  return mcbError("invalid_request", "part_name names the blocks of a build; an undo takes blocks out of parts", { reason: "part_name", detail: "kind" });
}
