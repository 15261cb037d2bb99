import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "python", "stdlib_region.py");

/** One chunk as the stdlib reader decodes it: raw states per section, as the file holds them. */
export interface StdlibChunk {
  readonly DataVersion: number | null;
  readonly layout: "sections" | "level_palette" | "level_numeric";
  readonly Status: string | null;
  readonly sections: Readonly<Record<string, { readonly palette: readonly string[]; readonly indices: readonly number[] }>>;
}

/**
 * Decodes chunks with `python/stdlib_region.py` (the Python standard library only: its own region,
 * NBT and packed-array code), an independent reader for block-for-block comparisons. Null for a
 * chunk the region does not have. Any `python3` runs it (no venv needed).
 */
export function stdlibChunks(regionDir: string, chunks: readonly (readonly [number, number])[]): Promise<Record<string, StdlibChunk | null>> {
  return new Promise((resolve, reject) => {
    const child = execFile("python3", [SCRIPT, "chunks", regionDir], { maxBuffer: 256 << 20, timeout: 120_000 }, (err, stdout, stderr) => {
      if (err !== null) reject(new Error(`stdlib_region failed: ${err.message}\n${stderr.slice(-2000)}`));
      else resolve(JSON.parse(stdout) as Record<string, StdlibChunk | null>);
    });
    child.stdin!.end(JSON.stringify(chunks));
  });
}
