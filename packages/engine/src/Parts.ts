import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import { boundsOf, boxesIntersect, boxJson, posKey, type Vec3 } from "./Geometry.js";
import type { Journal, OperationRecord, PartRecord } from "./Journal.js";
import { confirmedWrites } from "./Ownership.js";
import type { PreparedPlan } from "./PreparedPlan.js";

export interface PartView {
  readonly part_id: string;
  readonly name: string;
  readonly operation_id: string;
  /** Lookup bounds; the mask (not the bounds) is what build_prepare(part_id) enforces. */
  readonly bounds: { readonly min: Vec3; readonly max: Vec3 };
  readonly count: number;
  readonly protection: { readonly mode: "exact_mask"; readonly description: string };
  readonly revision: 1;
  readonly created_at: string;
}

const NAME = /^[\x20-\x7e]{1,64}$/;

export function partView(p: PartRecord): PartView {
  return {
    part_id: p.partId,
    name: p.name,
    operation_id: p.operationId,
    bounds: boxJson(p.bounds),
    count: p.mask.length / 3,
    protection: { mode: "exact_mask", description: "build_prepare with this part_id may write only the blocks of this mask" },
    revision: 1,
    created_at: new Date(p.createdAt).toISOString(),
  };
}

/**
 * part_define: registers exactly the blocks a completed (`applied`) operation wrote. Masks of one
 * project never overlap (v0.1); an extension is a separate part.
 */
export function definePart(
  journal: Journal,
  plan: PreparedPlan,
  op: OperationRecord,
  name: unknown,
  partId: string,
  now: number,
): Result<PartRecord> {
  if (typeof name !== "string" || !NAME.test(name)) return fail(mcbError("invalid_request", "name must be 1–64 printable ASCII characters", { reason: "name" }));
  if (op.status !== "applied") return fail(mcbError("invalid_request", `operation ${op.operationId} is ${op.status}; only an applied operation defines a part`, { reason: "operation_status" }));
  const writes = confirmedWrites(journal, plan, op.operationId);
  if (writes.length === 0) return fail(mcbError("invalid_request", `operation ${op.operationId} wrote no blocks`, { reason: "empty_mask" }));
  const mask = new Int32Array(writes.length * 3);
  writes.forEach((w, i) => mask.set([w.x, w.y, w.z], i * 3));
  const bounds = boundsOf(mask)!;
  const keys = new Set<string>(writes.map((w) => posKey(w.x, w.y, w.z)));
  for (const other of journal.listParts(op.projectId)) {
    if (other.name === name) return fail(mcbError("invalid_request", `a part named ${JSON.stringify(name)} exists`, { reason: "duplicate_name", part_id: other.partId }));
    if (!boxesIntersect(other.bounds, bounds)) continue;
    for (let i = 0; i < other.mask.length; i += 3) {
      if (keys.has(posKey(other.mask[i]!, other.mask[i + 1]!, other.mask[i + 2]!)))
        return fail(mcbError("invalid_request", `mask overlaps part ${other.partId}`, { reason: "part_overlap", part_id: other.partId }));
    }
  }
  return ok({ partId, projectId: op.projectId, name, operationId: op.operationId, createdAt: now, bounds, mask });
}
