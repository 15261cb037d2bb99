import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** How a JSON file is written: its mode (default 0600, private) and indentation (default 2). */
export interface JsonFileOptions {
  readonly mode?: number;
  readonly indent?: number;
}

/**
 * Replaces `path` atomically with JSON: a temp file of this process (created with `mode`, its
 * folder with 0700 if new), fsync, rename. Every JSON file of the state directory is written so.
 */
export function writeJsonAtomic(path: string, value: unknown, options: JsonFileOptions = {}): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", options.mode ?? 0o600);
  try {
    writeSync(fd, `${JSON.stringify(value, null, options.indent ?? 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** The parsed file, or null when it does not exist. Throws on unreadable or malformed JSON. */
export function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  return JSON.parse(text) as unknown;
}
