import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fail, mcbError, type McbError, type Result } from "@mcb/blocks";
import { locationOf, openWorkspace, type Workspace, type WorldLocation } from "./Workspace.js";
import { applyPersonEdit, type PersonEditReport, type PersonEditRequest } from "./PersonEdit.js";

/**
 * Person edits for an embedded world that another process holds (`mcb mcp`, `mcb chat`, a running
 * build): `mcb edit` posts a request into `<state>/inbox`, the holder applies it between its own
 * slices, as a player's edit lands between a server's ticks, and answers in a result file. Files
 * are written whole (temporary file, then rename); a request is claimed by renaming it before it is
 * applied, so it is applied once. Only processes of this user that can write the state directory
 * can post: the inbox is no wider than the directory itself.
 */
const REQUEST = /^([0-9a-z-]{1,64})\.req\.json$/;
const MAX_REQUEST_BYTES = 64 * 1024;

function inboxOf(dir: string): string {
  return join(dir, "inbox");
}

function writeWhole(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/** The holder's side: polls the inbox every `intervalMs` (a timer that keeps no process alive). */
export function serveEditInbox(w: Workspace, intervalMs = 100): { stop(): Promise<void> } {
  const inbox = inboxOf(w.dir);
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = async (): Promise<void> => {
    if (!existsSync(inbox)) return;
    for (const name of readdirSync(inbox).sort()) {
      const m = REQUEST.exec(name);
      if (m === null || stopped) continue;
      const work = join(inbox, `${m[1]}.work.json`);
      try {
        renameSync(join(inbox, name), work); // claim it
      } catch {
        continue; // withdrawn by its sender
      }
      let result: Result<PersonEditReport>;
      try {
        if (statSync(work).size > MAX_REQUEST_BYTES) throw new Error("too large");
        result = await applyPersonEdit(w, JSON.parse(readFileSync(work, "utf8")) as unknown);
      } catch (e) {
        result = fail(mcbError("invalid_request", `unreadable edit request: ${(e as Error).message.slice(0, 120)}`, { reason: "edit" }));
      }
      writeWhole(join(inbox, `${m[1]}.res.json`), JSON.stringify(result));
      unlinkSync(work);
    }
  };
  const timer = setInterval(() => {
    if (running === null) running = tick().catch((e: unknown) => w.log(`mcb: edit inbox: ${(e as Error).message}`)).finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * `mcb edit`: applies a person's edit to the embedded world in `where`. When no other process holds
 * the state directory this process opens it and applies the edit itself (a missing state directory
 * is not_found unless `create`); otherwise the edit goes to the holder's inbox and this waits (at
 * most `timeoutMs`, default 15 s) for its answer.
 */
export async function submitPersonEdit(where: string | WorldLocation, request: PersonEditRequest, options: { readonly create?: boolean; readonly timeoutMs?: number } = {}): Promise<Result<PersonEditReport>> {
  const location = locationOf(where);
  const timeoutMs = options.timeoutMs ?? 15_000;
  if (location.target.portUrl !== undefined || location.target.savePath !== undefined)
    return fail(mcbError("invalid_request", "mcb edit changes the embedded world as a person would; on a server, edit in the game (the host reports players' edits)", { reason: "not_embedded" }));
  const id = `${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`;
  const inbox = inboxOf(location.dir);
  const req = join(inbox, `${id}.req.json`), res = join(inbox, `${id}.res.json`), work = join(inbox, `${id}.work.json`);
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
    return fail(mcbError("busy", `the process holding ${location.dir} took the edit but did not answer within ${timeoutMs / 1000} s; check the block before repeating it`, { reason: "edit_unanswered" }));
  }
  return fail(mcbError("busy", `${holder?.message ?? "the state directory is in use"}; it did not take the edit within ${timeoutMs / 1000} s (nothing changed)`, { reason: "edit_unanswered" }));
}
