import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fail, mcbError, type McbError, type Result } from "@mcb/blocks";
import { inboxOf, writeWhole } from "./EditInbox.js";
import { openWorkspace } from "../world/OpenWorkspace.js";
import { applyPersonEdit, type PersonEditReport, type PersonEditRequest } from "./PersonEdit.js";
import { locationOf, type WorldLocation } from "../world/Workspace.js";

/**
 * `mcb edit`: applies a person's edit to the embedded world in `where`. When no other process holds
 * the state directory this process opens it and applies the edit itself (a missing state directory
 * is not_found unless `create`); otherwise the edit goes to the holder's inbox and this waits (at
 * most `timeoutMs`, default 15 s) for its answer.
 */
export async function submitPersonEdit(
  where: string | WorldLocation,
  request: PersonEditRequest,
  options: { readonly create?: boolean; readonly timeoutMs?: number } = {},
): Promise<Result<PersonEditReport>> {
  const location = locationOf(where);
  const timeoutMs = options.timeoutMs ?? 15_000;
  if (location.target.portUrl !== undefined || location.target.savePath !== undefined)
    return fail(
      mcbError("invalid_request", "mcb edit changes the embedded world as a person would; on a server, edit in the game (the host reports players' edits)", {
        reason: "not_embedded",
      }),
    );
  const id = `${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`;
  const inbox = inboxOf(location.dir);
  const req = join(inbox, `${id}.req.json`),
    res = join(inbox, `${id}.res.json`),
    work = join(inbox, `${id}.work.json`);
  let posted = false;
  let holder: McbError | null = null;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(res)) {
      const answer = JSON.parse(readFileSync(res, "utf8")) as Result<PersonEditReport>;
      unlinkSync(res);
      return answer;
    }
    if (!posted || existsSync(req)) {
      // Free (again)? Then apply it here, after withdrawing the posted request.
      const opened = await openWorkspace(location, { create: options.create ?? false });
      if (opened.ok) {
        try {
          if (posted) unlinkSync(req);
          return await applyPersonEdit(opened.value, request);
        } finally {
          await opened.value.close();
        }
      }
      if (opened.error.details?.reason !== "state_locked") return opened;
      holder = opened.error;
      if (!posted) {
        mkdirSync(inbox, { recursive: true });
        writeWhole(req, JSON.stringify(request));
        posted = true;
      }
    }
    await sleep(existsSync(work) ? 20 : 100);
  }
  try {
    unlinkSync(req);
  } catch {
    // Claimed by the holder meanwhile: it may still land; say so.
    return fail(
      mcbError(
        "busy",
        `the process holding ${location.dir} took the edit but did not answer within ${timeoutMs / 1000} s; check the block before repeating it`,
        { reason: "edit_unanswered" },
      ),
    );
  }
  return fail(
    mcbError("busy", `${holder?.message ?? "the state directory is in use"}; it did not take the edit within ${timeoutMs / 1000} s (nothing changed)`, {
      reason: "edit_unanswered",
    }),
  );
}
