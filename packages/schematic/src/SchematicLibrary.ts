import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, linkSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fail, mcbError, ok, type BlockRegistry, type Result } from "@mcb/blocks";
import { solidCount, type Schematic } from "./Schematic.js";
import { DEFAULT_SCHEMATIC_LIMITS, schematicLimits, type SchematicLimits } from "./SchematicLimits.js";
import type { SchematicFormat } from "./read/Decoded.js";
import { DROP_CATEGORIES, readSchematic, type DropCategory, type LossReport } from "./SchematicRead.js";
import { writeSchematic } from "./SchematicWrite.js";

/** Asset ids are file stems: `[A-Za-z0-9][A-Za-z0-9_-]{0,63}` (no paths, dots or spaces). */
export const ASSET_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const MAX_LIBRARY_FILES = 64;
/** Files the library reads (the content decides the format); saving writes `.schem`. */
const EXTENSIONS = [".schem", ".litematic", ".nbt"] as const;
const EXT = ".schem";

/** Metadata of one library file (docs/PROTOCOL.md `asset_list`); `blockCount` counts non-air positions. */
export interface AssetInfo {
  readonly assetId: string;
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly length: number;
  readonly blockCount: number;
  readonly dataVersion: number;
  readonly offset: { readonly x: number; readonly y: number; readonly z: number };
  readonly sha256: string;
  readonly bytes: number;
  readonly format: SchematicFormat;
  readonly blockEntities: number;
  /** What importing it would lose (entities, biomes, …): an import must name these in `drop`. */
  readonly loss: LossReport;
  /** The file's DataVersion before any upgrade. */
  readonly sourceDataVersion: number;
  /** What the reader tolerated in the file (spaces in states, a wrong PaletteMax …), one sentence each. */
  readonly notes: readonly string[];
}

/** What a streamed asset says of itself (the library adds its id, digest, size and format). */
export type StreamedAsset = Pick<AssetInfo, "name" | "width" | "height" | "length" | "blockCount" | "dataVersion" | "offset" | "blockEntities" | "notes">;

/** Room for a new asset written by a stream (a large export), its id and the library's room checked first. */
export interface AssetReservation {
  /** Where to write the Sponge v3 file (a hidden name in the library's folder). */
  readonly path: string;
  /** A prefix for the writer's scratch files (hidden names beside it). */
  readonly scratch: string;
  /** Links the finished file in as the asset, never over one that appeared meanwhile; a file the library could not read back (over its size limit) is refused and removed. */
  commit(asset: StreamedAsset): Result<AssetInfo>;
  /** Removes what was written. */
  abort(): void;
}

export interface LoadedAsset {
  readonly info: AssetInfo;
  readonly schematic: Schematic;
  /** Renames applied to bring the palette to the registry's version. */
  readonly upgrades: Readonly<Record<string, number>>;
}

/**
 * A directory of at most 64 schematic files (`.schem`, `.litematic`, `.nbt`) addressed by id (the
 * file stem), never by path. Symbolic links and
 * anything that is not a regular file are refused (opened with O_NOFOLLOW, checked with fstat);
 * every file is fully validated when read. Saving never overwrites an existing asset.
 */
export class SchematicLibrary {
  constructor(
    readonly dir: string,
    private readonly registry: BlockRegistry,
    private readonly limits: SchematicLimits = DEFAULT_SCHEMATIC_LIMITS,
  ) {}

  /** Asset id → file name; two files with one stem are ambiguous and refused. */
  private files(): Result<Map<string, string>> {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return ok(new Map());
      throw e;
    }
    const files = new Map<string, string>();
    for (const n of names.sort()) {
      const ext = EXTENSIONS.find((e) => n.endsWith(e));
      if (ext === undefined || !ASSET_ID.test(n.slice(0, -ext.length))) continue;
      const id = n.slice(0, -ext.length);
      if (files.has(id))
        return fail(
          mcbError("invalid_request", `two library files are named ${id} (${files.get(id)}, ${n}); rename one`, { reason: "ambiguous_asset", asset_id: id }),
        );
      files.set(id, n);
    }
    if (files.size > MAX_LIBRARY_FILES)
      return fail(
        mcbError("budget_exceeded", `the schematic library holds ${files.size} files; the limit is ${MAX_LIBRARY_FILES}`, { limit: MAX_LIBRARY_FILES }),
      );
    return ok(files);
  }

  private ids(): Result<string[]> {
    const f = this.files();
    return f.ok ? ok([...f.value.keys()]) : f;
  }

  /** Every asset whose id contains `query` (case-insensitive), sorted by id. One bad file fails the list. */
  list(query?: string): Result<AssetInfo[]> {
    const ids = this.ids();
    if (!ids.ok) return ids;
    const q = query?.toLowerCase() ?? "";
    const out: AssetInfo[] = [];
    for (const id of ids.value) {
      if (q !== "" && !id.toLowerCase().includes(q)) continue;
      const a = this.load(id, { drop: DROP_CATEGORIES });
      if (!a.ok) return fail(mcbError(a.error.code, `asset ${id}: ${a.error.message}`, { ...a.error.details, asset_id: id }));
      out.push(a.value.info);
    }
    return ok(out);
  }

  /**
   * The library's limits (its policy) with some changed by a caller (an MCP client): each at most
   * the policy's. Errors as `schematicLimits`.
   */
  limitsFor(changes: Partial<Record<keyof SchematicLimits, unknown>>): Result<SchematicLimits> {
    return schematicLimits(changes, this.limits, this.limits);
  }

  /**
   * Reads and validates an asset. `drop`: what the caller accepts to lose (see `readSchematic`);
   * listing passes every category, to report what an import would lose. `limits` (from
   * `limitsFor`) replace the library's for this read.
   */
  load(assetId: string, options: { readonly drop?: readonly DropCategory[]; readonly limits?: SchematicLimits } = {}): Result<LoadedAsset> {
    const limits = options.limits ?? this.limits;
    const drop = options.drop ?? [];
    if (typeof assetId !== "string" || !ASSET_ID.test(assetId)) return fail(badId(assetId));
    const files = this.files();
    if (!files.ok) return files;
    const file = files.value.get(assetId);
    if (file === undefined) return fail(mcbError("not_found", `no schematic asset ${JSON.stringify(assetId)}`));
    const path = join(this.dir, file);
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return fail(mcbError("not_found", `no schematic asset ${JSON.stringify(assetId)}`));
      if (code === "ELOOP")
        return fail(mcbError("invalid_request", `asset ${assetId} is a symbolic link; only regular files are accepted`, { reason: "symlink" }));
      throw e;
    }
    let bytes: Buffer;
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return fail(mcbError("invalid_request", `asset ${assetId} is not a regular file`, { reason: "not_a_file" }));
      if (st.size > limits.maxCompressedBytes)
        return fail(
          mcbError("budget_exceeded", `asset ${assetId} has ${st.size} bytes; the limit is ${limits.maxCompressedBytes}`, {
            reason: "compressed_size",
            limit: limits.maxCompressedBytes,
          }),
        );
      bytes = Buffer.alloc(st.size);
      let read = 0;
      while (read < st.size) {
        const n = readSync(fd, bytes, read, st.size - read, read);
        if (n === 0) break;
        read += n;
      }
      bytes = bytes.subarray(0, read);
    } finally {
      closeSync(fd);
    }
    const r = readSchematic(this.registry, bytes, { limits, drop });
    if (!r.ok) return r;
    const { schematic, format, loss, sourceDataVersion, upgrades, notes } = r.value;
    return ok({ schematic, upgrades, info: infoOf(assetId, schematic, bytes, { format, loss, sourceDataVersion, notes }) });
  }

  /** A new asset `assetId` may be saved: a valid id, not taken, and room in the library. */
  private roomFor(assetId: string): Result<null> {
    if (typeof assetId !== "string" || !ASSET_ID.test(assetId)) return fail(badId(assetId));
    const ids = this.ids();
    if (!ids.ok) return ids;
    if (ids.value.includes(assetId)) return fail(exists(assetId));
    if (ids.value.length >= MAX_LIBRARY_FILES)
      return fail(mcbError("budget_exceeded", `the schematic library is full (${MAX_LIBRARY_FILES} files)`, { limit: MAX_LIBRARY_FILES }));
    return ok(null);
  }

  /**
   * Room for a new asset `assetId` that a stream writes (`SpongeStream`): refuses a bad or existing
   * id or a full library before anything is written. The file is not read back whole (it may hold
   * tens of millions of positions); its size must be within the library's limit.
   */
  reserve(assetId: string): Result<AssetReservation> {
    const room = this.roomFor(assetId);
    if (!room.ok) return room;
    mkdirSync(this.dir, { recursive: true });
    const tmp = join(this.dir, `.${assetId}.${process.pid}.${Date.now()}`);
    const path = `${tmp}.schem`;
    const abort = (): void => rmSync(path, { force: true });
    return ok({
      path,
      scratch: tmp,
      abort,
      commit: (asset) => {
        try {
          const bytes = statSync(path).size;
          if (bytes > this.limits.maxCompressedBytes)
            return fail(
              mcbError(
                "budget_exceeded",
                `the export is ${bytes} bytes; the library reads files of at most ${this.limits.maxCompressedBytes}: export the region in parts`,
                { reason: "compressed_size", limit: this.limits.maxCompressedBytes, bytes },
              ),
            );
          const sha256 = createHash("sha256");
          const fd = openSync(path, "r");
          try {
            const chunk = Buffer.allocUnsafe(1 << 20);
            for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) sha256.update(chunk.subarray(0, n));
          } finally {
            closeSync(fd);
          }
          try {
            linkSync(path, join(this.dir, assetId + EXT)); // fails if the name appeared meanwhile: never overwrites
          } catch (e) {
            if ((e as NodeJS.ErrnoException).code === "EEXIST") return fail(exists(assetId));
            throw e;
          }
          return ok({
            assetId,
            ...asset,
            offset: { ...asset.offset },
            sha256: sha256.digest("hex"),
            bytes,
            format: "sponge_v3" as const,
            loss: {},
            sourceDataVersion: asset.dataVersion,
          });
        } finally {
          abort();
        }
      },
    });
  }

  /** Saves a new asset named `assetId`; refuses an existing id, a full library or an oversized file. */
  save(assetId: string, schematic: Schematic): Result<AssetInfo> {
    const room = this.roomFor(assetId);
    if (!room.ok) return room;
    const bytes = writeSchematic({ ...schematic, name: assetId });
    const check = readSchematic(this.registry, bytes, { limits: this.limits });
    if (!check.ok) return check;
    mkdirSync(this.dir, { recursive: true });
    const final = join(this.dir, assetId + EXT);
    const tmp = join(this.dir, `.${assetId}.${process.pid}.tmp`);
    writeFileSync(tmp, bytes, { flag: "wx", mode: 0o644 });
    try {
      linkSync(tmp, final); // fails if the name appeared meanwhile: never overwrites
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") return fail(exists(assetId));
      throw e;
    } finally {
      unlinkSync(tmp);
    }
    return ok(infoOf(assetId, check.value.schematic, bytes));
  }
}

/** The library's answer for an id that is taken, when saving. */
function exists(assetId: string): ReturnType<typeof mcbError> {
  return mcbError("invalid_request", `asset ${assetId} already exists; choose another name`, { reason: "asset_exists" });
}

function badId(id: unknown): ReturnType<typeof mcbError> {
  return mcbError("invalid_request", "asset ids and names match [A-Za-z0-9][A-Za-z0-9_-]{0,63} (no paths, dots or spaces)", {
    reason: "asset_id",
    ...(typeof id === "string" ? { length: id.length } : {}),
  });
}

export function infoOf(
  assetId: string,
  s: Schematic,
  bytes: Uint8Array,
  read: { format: SchematicFormat; loss: LossReport; sourceDataVersion: number; notes?: readonly string[] } = {
    format: "sponge_v3",
    loss: {},
    sourceDataVersion: s.dataVersion,
  },
): AssetInfo {
  return {
    assetId,
    name: s.name ?? assetId,
    width: s.width,
    height: s.height,
    length: s.length,
    blockCount: solidCount(s),
    dataVersion: s.dataVersion,
    offset: { ...s.offset },
    sha256: createHash("sha256").update(bytes).digest("hex"),
    bytes: bytes.length,
    format: read.format,
    blockEntities: s.blockEntities.length,
    loss: read.loss,
    sourceDataVersion: read.sourceDataVersion,
    notes: read.notes ?? [],
  };
}
