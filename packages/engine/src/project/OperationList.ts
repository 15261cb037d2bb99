import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { OperationFilter, OperationRecord, OperationJournal, PartJournal } from "../store/Journal.js";
import {
  isOperationStatus,
  isUndoable,
  OPERATION_KINDS,
  OPERATION_STATUSES,
  operationKind,
  type OperationKind,
  type OperationStatus,
} from "../core/OperationStatus.js";

export interface OperationListInput {
  readonly kind?: OperationKind;
  readonly status?: OperationStatus;
  readonly part_id?: string;
  readonly limit?: number;
  readonly cursor?: string;
}

/** One line of operation_list: enough to pick an operation; operation_status has the rest. */
export interface OperationSummary {
  readonly operation_id: string;
  readonly kind: OperationKind;
  readonly status: OperationStatus;
  readonly undo_of: string | null;
  readonly part_id: string | null;
  readonly written: number;
  readonly total: number;
  readonly conflicts: number;
  readonly undoable: boolean;
  readonly undone_by: string | null;
  /** The front end that applied it (an MCP client's name, an mcb command), when it was recorded. */
  readonly client?: string;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface OperationListView {
  readonly operations: readonly OperationSummary[];
  /** Present when more operations match: pass it as `cursor` with the same filters. */
  readonly next_cursor?: string;
}

const CURSOR = /^ol1\.(\d{1,15})\.([\x21-\x7e]{1,128})$/;

function summary(o: OperationRecord): OperationSummary {
  return {
    operation_id: o.operationId,
    kind: operationKind(o),
    status: o.status,
    undo_of: o.undoOf,
    // The part it was prepared inside, else the part it named (part_name) once that was named.
    part_id: o.partId ?? (o.partOutcome !== undefined && "partId" in o.partOutcome ? o.partOutcome.partId : null),
    written: o.counters.written,
    total: o.counters.total,
    conflicts: o.counters.conflicts,
    undoable: isUndoable(o),
    undone_by: o.undoneBy,
    ...(o.initiator.client === undefined ? {} : { client: o.initiator.client }),
    created_at: new Date(o.createdAt).toISOString(),
    updated_at: new Date(o.updatedAt).toISOString(),
  };
}

/**
 * operation_list: the project's operations, newest first, filtered by kind, status or part (the
 * operations prepared inside the part plus the one it was defined from), in pages of at most
 * `maxLimit`. The cursor names the last operation of the previous page, so pages never skip or
 * repeat an operation while new ones are added. Errors: invalid_request, not_found (part).
 */
export function listOperations(
  journal: OperationJournal & PartJournal,
  projectId: string,
  input: OperationListInput,
  maxLimit: number,
): Result<OperationListView> {
  const bad = (reason: string, message: string): Result<never> => fail(mcbError("invalid_request", message, { reason }));
  const limit = input.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) return bad("limit", `limit must be 1..${maxLimit}`);
  if (input.kind !== undefined && !(OPERATION_KINDS as readonly string[]).includes(input.kind))
    return bad("kind", `kind must be one of ${OPERATION_KINDS.join(", ")}`);
  if (input.status !== undefined && !isOperationStatus(input.status)) return bad("status", `status must be one of ${OPERATION_STATUSES.join(", ")}`);
  let filter: OperationFilter = { ...(input.kind ? { kind: input.kind } : {}), ...(input.status ? { status: input.status } : {}) };
  if (input.part_id !== undefined) {
    const part = typeof input.part_id === "string" ? journal.getPart(input.part_id) : null;
    if (part === null || part.projectId !== projectId) return fail(mcbError("not_found", "no such part in this project", { reason: "part_id" }));
    filter = { ...filter, part: { partId: part.partId, operationIds: part.operationIds ?? [part.operationId] } };
  }
  if (input.cursor !== undefined) {
    const m = typeof input.cursor === "string" ? CURSOR.exec(input.cursor) : null;
    if (m === null) return bad("cursor", "malformed cursor: pass next_cursor from the previous page unchanged");
    filter = { ...filter, after: { createdAt: Number(m[1]), operationId: m[2]! } };
  }
  const rows = journal.listOperations(projectId, filter, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return ok({
    operations: page.map(summary),
    ...(rows.length > limit && last !== undefined ? { next_cursor: `ol1.${last.createdAt}.${last.operationId}` } : {}),
  });
}
