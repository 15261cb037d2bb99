import { boundsOf, boxesIntersect, fail, mcbError, ok, posKey, type Result } from "@mcb/blocks";
import type { PartJournal } from "../store/Journal.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import { maskKeys } from "./PartMask.js";

/** At most this many sample positions in a `protected_part` refusal. */
const SAMPLE = 8;

/**
 * Refuses a plan that would write any block of a protected part (docs/DESIGN.md "Parts", `/ai protect`): the
 * exact mask decides, not the bounds. Checked when a plan is prepared (build or undo) and again
 * when it is admitted for application, so a part protected in between still stops it.
 * Error: `permission_denied` with reason `protected_part`, the part, the exact count and a sample.
 */
export function checkProtectedParts(journal: PartJournal, protectedIds: ReadonlySet<string>, plan: Pick<PreparedPlan, "pos">): Result<void> {
  if (protectedIds.size === 0 || plan.pos.length === 0) return ok(undefined);
  const bounds = boundsOf(plan.pos)!;
  for (const id of protectedIds) {
    const part = journal.getPart(id);
    if (part === null || !boxesIntersect(part.bounds, bounds)) continue;
    const mask = maskKeys(part.mask);
    let count = 0;
    const sample: { x: number; y: number; z: number }[] = [];
    for (let i = 0; i < plan.pos.length; i += 3) {
      const x = plan.pos[i]!,
        y = plan.pos[i + 1]!,
        z = plan.pos[i + 2]!;
      if (!mask.has(posKey(x, y, z))) continue;
      count++;
      if (sample.length < SAMPLE) sample.push({ x, y, z });
    }
    if (count > 0)
      return fail(
        mcbError(
          "permission_denied",
          `${count} of the plan's writes fall inside protected part ${JSON.stringify(part.name)} (${part.partId}); the player must unprotect it first`,
          {
            reason: "protected_part",
            part_id: part.partId,
            count,
            sample,
          },
        ),
      );
  }
  return ok(undefined);
}
