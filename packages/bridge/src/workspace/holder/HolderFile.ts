import { chmodSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * `<state>/holder.json`: where the process that holds a world serves the others (docs/DESIGN.md
 * "One world, every front end"): its pid, its loopback port and the token a caller presents. Mode
 * 0600, written whole (temporary file, then rename): only this user's processes can read the token,
 * as only they can write the state directory. Removed by its holder on close; a holder killed with
 * -9 leaves it behind, and its dead pid marks it stale.
 */
export interface HolderRecord {
  readonly pid: number;
  readonly port: number;
  readonly token: string;
  /** What holds it: "mcb serve", "mcb mcp", "mcb chat", "mcb build", …; for messages. */
  readonly command: string;
  /** Only commands that end (no MCP or chat sessions): a holder running one command serves the others' commands only. */
  readonly commandsOnly: boolean;
}

export const HOLDER_FILE = "holder.json";

export function writeHolderFile(dir: string, record: HolderRecord): void {
  const path = join(dir, HOLDER_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600); // a umask never widens it, and an older file's mode is not inherited
  renameSync(tmp, path);
}

/** The record, or null when there is none or it cannot be read as one. */
export function readHolderFile(dir: string): HolderRecord | null {
  try {
    const r = JSON.parse(readFileSync(join(dir, HOLDER_FILE), "utf8")) as Partial<HolderRecord>;
    if (
      typeof r.pid === "number" &&
      Number.isSafeInteger(r.pid) &&
      r.pid > 0 &&
      typeof r.port === "number" &&
      Number.isInteger(r.port) &&
      r.port > 0 &&
      r.port < 65536 &&
      typeof r.token === "string" &&
      /^[A-Za-z0-9_-]{20,100}$/.test(r.token)
    )
      return { pid: r.pid, port: r.port, token: r.token, command: String(r.command ?? "mcb").slice(0, 60), commandsOnly: r.commandsOnly === true };
  } catch {
    /* none, or half-written by a holder that died: treated as none */
  }
  return null;
}

/** Removes the record if it is still the one with `token` (a successor's is left alone). */
export function removeHolderFile(dir: string, token: string): void {
  if (readHolderFile(dir)?.token !== token) return;
  try {
    unlinkSync(join(dir, HOLDER_FILE));
  } catch {
    /* already gone */
  }
}
