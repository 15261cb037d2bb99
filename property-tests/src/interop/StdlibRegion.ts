import { execFile, execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "python", "stdlib_region.py");

let interpreter: string | undefined;
/** The python3 interpreter itself (a version manager's shim costs a tenth of a second per start), run with -S: the script needs the standard library only. */
function python(): string {
  interpreter ??= execFileSync("python3", ["-S", "-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim() || "python3";
  return interpreter;
}

/** Runs `stdlib_region.py <mode> <dir>` with `input` as JSON on stdin; resolves its JSON answer. */
function reader<T>(mode: "chunks" | "records" | "both", dir: string, input: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = execFile(python(), ["-S", SCRIPT, mode, dir], { maxBuffer: 256 << 20, timeout: 120_000 }, (err, stdout, stderr) => {
      if (err !== null) reject(new Error(`stdlib_region ${mode} failed: ${err.message}\n${stderr.slice(-2000)}`));
      else resolve(JSON.parse(stdout) as T);
    });
    child.stdin!.end(JSON.stringify(input));
  });
}

/** Which chunks to read: [cx, cz], or [cx, cz, section Ys to decode] (the others only digested). */
export type ChunkAsk = readonly [number, number] | readonly [number, number, readonly number[]];

/** One chunk as the stdlib reader decodes it: raw states per section, as the file holds them. */
export interface StdlibChunk {
  readonly DataVersion: number | null;
  readonly layout: "sections" | "level_palette" | "level_numeric";
  readonly Status: string | null;
  readonly sections: Readonly<Record<string, { readonly palette: readonly string[]; readonly indices: readonly number[] }>>;
  /** Per section Y (1.18+ layout): SHA-256 of the stored palette and packed data, decoded or not. */
  readonly digests: Readonly<Record<string, string>>;
  /** 1.18+ layout: the light flag, the stored heightmaps (longs as decimal strings), the block entities' count and digest (in y, z, x order). */
  readonly isLightOn?: number | null;
  readonly heightmaps?: Readonly<Record<string, readonly string[]>>;
  readonly block_entities?: { readonly count: number; readonly sha256: string };
}

/**
 * Decodes chunks with `python/stdlib_region.py` (the Python standard library only: its own region,
 * NBT and packed-array code), an independent reader for block-for-block comparisons. Null for a
 * chunk the region does not have; a third element lists the section Ys to decode (the others
 * only digested). Any `python3` runs it (no venv needed).
 */
export function stdlibChunks(regionDir: string, chunks: readonly ChunkAsk[]): Promise<Record<string, StdlibChunk | null>> {
  return reader("chunks", regionDir, chunks);
}

/** One region file as the stdlib reader sees its framing (no NBT): entries, damage by the format's rules, payload digests. */
export interface StdlibRecords {
  readonly size: number;
  /** Header entries by chunk index: [first sector, sector count]. */
  readonly entries: Readonly<Record<string, readonly [number, number]>>;
  /** Damaged entries by chunk index (or "header" for a file shorter than its header), and why. */
  readonly damaged: Readonly<Record<string, string>>;
  /** SHA-256 of each sound chunk's stored record (length, compression byte, data). */
  readonly payload: Readonly<Record<string, string>>;
}

/** The framing of region files by `python/stdlib_region.py records` (independent of mcb's reader). */
export function stdlibRecords(files: readonly string[]): Promise<Record<string, StdlibRecords>> {
  return reader("records", "-", files);
}

/** `stdlibRecords` of `files` and `stdlibChunks` of `chunks` in one run of the reader (one process start for both). */
export function stdlibBoth(
  regionDir: string,
  files: readonly string[],
  chunks: readonly ChunkAsk[],
): Promise<{ records: Record<string, StdlibRecords>; chunks: Record<string, StdlibChunk | null> }> {
  return reader("both", regionDir, { files, chunks });
}
