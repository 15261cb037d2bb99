import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import { boundsOf, boxesIntersect, boxJson, posKey, type Vec3 } from "./Geometry.js";
import type { Journal, OperationRecord, PartRecord } from "./Journal.js";
import { confirmedWrites } from "./Ownership.js";
import type { PreparedPlan } from "./PreparedPlan.js";

export interface PartView {
  readonly part_id: string;
  readonly name: string;
  readonly operation_id: string;
  /** Every operation it was defined from ([operation_id] for one). */
  readonly operation_ids: readonly string[];
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
    operation_ids: p.operationIds ?? [p.operationId],
    bounds: boxJson(p.bounds),
    count: p.mask.length / 3,
    protection: { mode: "exact_mask", description: "build_prepare with this part_id may write only the blocks of this mask" },
    revision: 1,
    created_at: new Date(p.createdAt).toISOString(),
  };
}

/** Operations one part may be defined from (a schematic batch of 200 tiles is 200 operations). */
export const MAX_PART_OPERATIONS = 1024;

/**
 * part_define: registers exactly the blocks that completed (`applied`) operations wrote: one
 * operation, or the operations of a batch (their union). Masks of one project never overlap
 * (v0.1); an extension is a separate part.
 */
export function definePart(
  journal: Journal,
  sources: readonly { readonly op: OperationRecord; readonly plan: PreparedPlan }[],
  name: unknown,
  partId: string,
  now: number,
): Result<PartRecord> {
  if (typeof name !== "string" || !NAME.test(name)) return fail(mcbError("invalid_request", "name must be 1–64 printable ASCII characters", { reason: "name" }));
  const keys = new Set<string>();
  const points: [number, number, number][] = [];
  for (const { op, plan } of sources) {
    if (op.status !== "applied") return fail(mcbError("invalid_request", `operation ${op.operationId} is ${op.status}; only an applied operation defines a part`, { reason: "operation_status", operation_id: op.operationId }));
    for (const w of confirmedWrites(journal, plan, op.operationId)) {
      const k = posKey(w.x, w.y, w.z);
      if (keys.has(k)) continue;
      keys.add(k);
      points.push([w.x, w.y, w.z]);
    }
  }
  if (points.length === 0) return fail(mcbError("invalid_request", `${sources.length === 1 ? `operation ${sources[0]!.op.operationId}` : "the operations"} wrote no blocks`, { reason: "empty_mask" }));
  points.sort((a, b) => a[1] - b[1] || a[2] - b[2] || a[0] - b[0]);
  const mask = new Int32Array(points.length * 3);
  points.forEach((p, i) => mask.set(p, i * 3));
  const bounds = boundsOf(mask)!;
  for (const other of journal.listParts(sources[0]!.op.projectId)) {
    if (other.name === name) return fail(mcbError("invalid_request", `a part named ${JSON.stringify(name)} exists`, { reason: "duplicate_name", part_id: other.partId }));
    if (!boxesIntersect(other.bounds, bounds)) continue;
    for (let i = 0; i < other.mask.length; i += 3) {
      if (keys.has(posKey(other.mask[i]!, other.mask[i + 1]!, other.mask[i + 2]!)))
        return fail(mcbError("invalid_request", `mask overlaps part ${other.partId}`, { reason: "part_overlap", part_id: other.partId }));
    }
  }
  const ids = sources.map((s) => s.op.operationId);
  return ok({ partId, projectId: sources[0]!.op.projectId, name, operationId: ids[0]!, ...(ids.length > 1 ? { operationIds: ids } : {}), createdAt: now, bounds, mask });
}
