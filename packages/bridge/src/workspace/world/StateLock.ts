import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import { readHolderFile } from "../holder/HolderFile.js";

export interface StateLock {
  release(): void;
}

/**
 * Whether process `pid` still runs. A zombie (killed, not yet reaped by its parent: a holder just
 * killed with -9) counts as gone: it holds nothing any more.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc here: the signal's answer stands
  }
}

/** The live process holding the lock at `path`, or null (no lock, an unreadable one, or a dead process's left behind). */
function liveOwner(path: string): number | null {
  let owner = NaN;
  try {
    owner = Number.parseInt(readFileSync(path, "utf8"), 10);
  } catch {
    /* vanished or unreadable: treated as stale */
  }
  return Number.isSafeInteger(owner) && owner > 0 && processAlive(owner) ? owner : null;
}

/** The live process other than this one holding `dir`'s lock, or null. */
export function lockOwner(dir: string): number | null {
  const owner = liveOwner(join(dir, "lock"));
  return owner === process.pid ? null : owner;
}

/**
 * One process per state directory: the world files and the journal have a single writer. The lock
 * is `lock` holding the owner's pid, created exclusively; a lock left by a dead process is taken
 * over. Errors: `busy` (retryable) naming the live owner.
 */
export function acquireStateLock(dir: string): Result<StateLock> {
  const path = join(dir, "lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, "wx", 0o644);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const owner = liveOwner(path);
      if (owner !== null) {
        const holder = readHolderFile(dir);
        const by = holder?.pid === owner ? `${holder.command} (pid ${owner}), which serves it: other mcb commands on it run there` : `process ${owner}`;
        return fail(mcbError("busy", `the state directory ${dir} is held by ${by}; stop it or use another --state`, { reason: "state_locked", pid: owner }));
      }
      try {
        unlinkSync(path); // stale: its process is gone
      } catch {
        /* another process took it over first; the next attempt decides */
      }
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return ok({
      release: () => {
        try {
          if (Number.parseInt(readFileSync(path, "utf8"), 10) === process.pid) unlinkSync(path);
        } catch {
          /* already gone */
        }
      },
    });
  }
  return fail(mcbError("busy", `could not lock the state directory ${dir}; try again`, { reason: "state_locked" }));
}
