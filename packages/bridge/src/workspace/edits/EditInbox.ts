import { existsSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fail, mcbError, type Result } from "@mcb/blocks";
import type { Workspace } from "../world/Workspace.js";
import { applyPersonEdit, type PersonEditReport } from "./PersonEdit.js";

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

export function inboxOf(dir: string): string {
  return join(dir, "inbox");
}

export function writeWhole(path: string, text: string): void {
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
    if (running === null)
      running = tick()
        .catch((e: unknown) => w.log(`mcb: edit inbox: ${(e as Error).message}`))
        .finally(() => (running = null));
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
