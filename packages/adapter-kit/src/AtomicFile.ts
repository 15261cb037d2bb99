import { closeSync, fsyncSync, openSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Writes a whole file atomically: a hidden temporary file beside it (`.name.mcb-tmp`, which the
 * game and other tools skip), fsync, rename, fsync of the folder. A crash leaves the old file or
 * the new one, never a part.
 */
export function atomicWriteFile(path: string, data: Uint8Array | string): void {
  const tmp = join(dirname(path), `.${basename(path)}.mcb-tmp`);
  writeFileSync(tmp, data);
  const fd = openSync(tmp, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  syncDirectory(dirname(path));
}

/** Makes a folder's entries (a rename, a new file) durable. */
export function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot open a folder for fsync; the rename is still atomic there.
  }
}
