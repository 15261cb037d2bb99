import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { PartJournal, PartRecord } from "../store/Journal.js";

/**
 * A part of the project by its id, or by the name of an active part (names are unique among the
 * project's active parts). Errors: not_found, listing the project's active part names.
 */
export function findPart(journal: PartJournal, projectId: string, idOrName: unknown): Result<PartRecord> {
  if (typeof idOrName === "string") {
    const byId = journal.getPart(idOrName);
    if (byId !== null && byId.projectId === projectId) return ok(byId);
    const byName = journal.listParts(projectId).find((p) => p.retired !== true && p.name === idOrName);
    if (byName !== undefined) return ok(byName);
  }
  const active = journal
    .listParts(projectId)
    .filter((p) => p.retired !== true)
    .map((p) => p.name);
  return fail(
    mcbError(
      "not_found",
      `no part ${JSON.stringify(idOrName)} in this project (by id or name)${active.length > 0 ? `; its parts: ${active.slice(0, 8).join(", ")}` : ""}`,
      {
        active_parts: active.slice(0, 32),
      },
    ),
  );
}
