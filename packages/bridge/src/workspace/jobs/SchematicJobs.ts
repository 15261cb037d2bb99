import { createHash } from "node:crypto";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type BlockRegistry, boxJson, createBlockRegistry, fail, mcbError, ok, type Result, type Vec3 } from "@mcb/blocks";
import type { ManualEditPolicy, OperationStatusView, PrepareView } from "@mcb/engine";
import { compileRecipe } from "@mcb/recipe";
import {
  ASSET_ID,
  DEFAULT_SCHEMATIC_LIMITS,
  DROP_CATEGORIES,
  SchematicLibrary,
  infoOf,
  readSchematic,
  schematicFromPlan,
  type SchematicPaste,
  writeSchematic,
  type DropCategory,
  type LossReport,
  type Schematic,
  type SchematicFormat,
  type SchematicLimits,
} from "@mcb/schematic";
import { assetView, pasteOf, preparePasteTile, type AssetView, type Rotation, type TileView } from "./SchematicActions.js";
import { exportRegionAsset } from "./RegionExport.js";
import { partOnComplete, runBatch, type BatchSummary, type ProgressSink } from "./Batch.js";
import type { BatchJobSpec } from "./BatchJobs.js";
import type { Workspace } from "../world/Workspace.js";
import { loadRecipeFile } from "./RecipeFiles.js";
import { applyAndWait } from "./BuildJobs.js";

export interface SchemBuildOptions {
  readonly origin?: { x: number; y: number; z: number };
  /** Largest bounding volume (default 4096). */
  readonly maxPositions?: number;
  readonly version?: 2 | 3;
}

const stem = (path: string): string => path.replace(/^.*\//, "").replace(/\.(schem|litematic|nbt)$/, "");

/** `mcb schem build`: compiles a recipe and writes its blocks as a Sponge file (v3, or v2 on request; air fills the bounds). */
export async function buildSchematicFile(recipePath: string, outPath: string, options: SchemBuildOptions = {}): Promise<Result<AssetView>> {
  const loaded = await loadRecipeFile(recipePath);
  if (!loaded.ok) return loaded;
  const plan = compileRecipe(loaded.value.registry, loaded.value.value);
  if (!plan.ok) return plan;
  const s = schematicFromPlan(plan.value, { ...options, name: stem(outPath) });
  if (!s.ok) return s;
  const bytes = writeSchematic(s.value, { version: options.version ?? 3 });
  await writeFile(outPath, bytes);
  return ok(
    assetView(
      infoOf(s.value.name ?? "schematic", s.value, bytes, {
        format: options.version === 2 ? "sponge_v2" : "sponge_v3",
        loss: {},
        sourceDataVersion: s.value.dataVersion,
      }),
    ),
  );
}

/** How the file was read: its format, its own DataVersion, the renames applied and what was left out. */
export interface SourceView {
  readonly format: SchematicFormat;
  readonly source_data_version: number;
  readonly upgrades: Readonly<Record<string, number>>;
  readonly loss: LossReport;
  /** What the reader tolerated in the file, one sentence each. */
  readonly notes: readonly string[];
}

interface ReadFile {
  readonly schematic: Schematic;
  readonly bytes: Buffer;
  /** SHA-256 of the file. */
  readonly sha256: string;
  readonly source: SourceView;
}

/** Reads and validates a local schematic file (a person's own file: the CLI takes paths, MCP never does). */
async function readSchematicFile(
  registry: BlockRegistry,
  path: string,
  limits: SchematicLimits,
  drop: readonly DropCategory[],
  strict = false,
): Promise<Result<ReadFile>> {
  let size: number;
  try {
    const st = await stat(path);
    if (!st.isFile()) return fail(mcbError("invalid_request", `"${path}" is not a regular file`, { reason: "not_a_file" }));
    size = st.size;
  } catch {
    return fail(mcbError("invalid_request", `cannot read "${path}"`, { reason: "unreadable" }));
  }
  if (size > limits.maxCompressedBytes)
    return fail(
      mcbError("budget_exceeded", `the file has ${size} bytes; the limit is ${limits.maxCompressedBytes} (raise it with --max-file-bytes)`, {
        reason: "compressed_size",
        limit: limits.maxCompressedBytes,
      }),
    );
  const bytes = await readFile(path);
  const r = readSchematic(registry, bytes, { limits, drop, strict });
  if (!r.ok) return r;
  const { schematic, format, sourceDataVersion, upgrades, loss, notes } = r.value;
  return ok({
    schematic,
    bytes,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    source: { format, source_data_version: sourceDataVersion, upgrades, loss, notes },
  });
}

/** `mcb schem info`: validates a local file and prints its metadata, palette, upgrades and what an import would lose. */
export async function schematicFileInfo(
  path: string,
  limits: SchematicLimits = DEFAULT_SCHEMATIC_LIMITS,
  strict = false,
): Promise<Result<AssetView & { upgrades: Readonly<Record<string, number>>; palette: { state: string; count: number }[] }>> {
  const registry = createBlockRegistry();
  if (!registry.ok) return registry;
  const read = await readSchematicFile(registry.value, path, limits, DROP_CATEGORIES, strict);
  if (!read.ok) return read;
  const { schematic: s, bytes, source } = read.value;
  const counts = new Array<number>(s.palette.length).fill(0);
  for (const b of s.blocks) counts[b]!++;
  const palette = s.palette.map((state, i) => ({ state, count: counts[i]! })).sort((a, b) => b.count - a.count || (a.state < b.state ? -1 : 1));
  const info = infoOf(stem(path), s, bytes, { format: source.format, loss: source.loss, sourceDataVersion: source.source_data_version, notes: source.notes });
  return ok({ ...assetView(info), upgrades: source.upgrades, palette });
}

function libraryOf(w: Workspace, limits: SchematicLimits = DEFAULT_SCHEMATIC_LIMITS): SchematicLibrary {
  return new SchematicLibrary(join(w.dir, "schematics"), w.registry, limits);
}

/**
 * `mcb schem export <name> -- x1 y1 z1 x2 y2 z2`: what schematic_export does (into the library of
 * the state directory, streamed: any size up to the read limits), and with `outPath` the same
 * schematic also written to a file (Sponge v3, or v2 with `version`).
 */
export async function exportSchematic(
  w: Workspace,
  name: string,
  min: Vec3,
  max: Vec3,
  origin?: Vec3,
  outPath?: string,
  version: 2 | 3 = 3,
): Promise<Result<AssetView>> {
  const library = libraryOf(w);
  const saved = await exportRegionAsset({ ...w, library }, name, min, max, origin, outPath === undefined ? undefined : { path: outPath, version });
  return saved.ok ? ok(assetView(saved.value)) : saved;
}

export interface ImportOptions {
  readonly rotation?: Rotation;
  readonly drop?: readonly DropCategory[];
  readonly limits?: SchematicLimits;
  /** Name of the part a batch becomes (default "paste <paste id>"). */
  readonly part?: string;
  /** Prepare tiles that ended in conflict again (their new plans write over what changed). */
  readonly retryConflicts?: boolean;
  readonly maxTiles?: number;
  readonly progress?: ProgressSink;
  /** How the paste meets people's edits (default: refused, a batch tile left in conflict). */
  readonly onManualEdit?: ManualEditPolicy;
  /** Leave the schematic's air out (`--skip-air`, WorldEdit's `-a`); default: air clears what stands there. */
  readonly skipAir?: boolean;
  /** Refuse palette states with properties their blocks do not have (default: dropped and reported). */
  readonly strict?: boolean;
}

/** One tile: the plan and its operation (null: nothing to write). */
export interface SingleImport {
  readonly mode: "single";
  readonly plan: PrepareView & TileView;
  readonly operation: OperationStatusView | null;
  readonly source: SourceView;
}

/** Several tiles: the batch's progress, and the part once every tile is finished. */
export interface BatchImport {
  readonly mode: "batch";
  readonly paste_id: string;
  readonly batch: BatchSummary;
  readonly bounds: { readonly min: Vec3; readonly max: Vec3 };
  readonly source: SourceView;
}

/**
 * `mcb schem import <asset_id | file> --at x,y,z`: what schematic_import_prepare + build_apply do,
 * waiting for the operation. A plain id names a library asset; anything with a slash or a schematic
 * extension is a file. A paste of more than 100,000 positions runs as a resumable batch of tiles
 * (bottom up, each a checked, undoable operation; progress in `batches/<paste_id>.json`), and the
 * finished batch is defined as one part.
 */
export async function importSchematic(w: Workspace, source: string, target: Vec3, options: ImportOptions = {}): Promise<Result<SingleImport | BatchImport>> {
  const limits = options.limits ?? DEFAULT_SCHEMATIC_LIMITS;
  const drop = options.drop ?? [];
  let read: ReadFile;
  if (source.includes("/") || /\.(schem|litematic|nbt)$/.test(source) || !ASSET_ID.test(source)) {
    const r = await readSchematicFile(w.registry, source, limits, drop, options.strict === true);
    if (!r.ok) return r;
    read = r.value;
  } else {
    const asset = libraryOf(w, limits).load(source, { drop, limits, ...(options.strict === true ? { strict: true } : {}) });
    if (!asset.ok) return asset;
    const { info, schematic, upgrades } = asset.value;
    read = {
      schematic,
      bytes: Buffer.alloc(0),
      sha256: info.sha256,
      source: { format: info.format, source_data_version: info.sourceDataVersion, upgrades, loss: info.loss, notes: info.notes },
    };
  }
  const rotation = options.rotation ?? 0;
  const paste = pasteOf(w.registry, read.schematic, target, rotation, options.skipAir === true);
  if (paste.count === 1) {
    const plan = await preparePasteTile(w, paste, 0, options.onManualEdit === undefined ? {} : { on_manual_edit: options.onManualEdit });
    if (!plan.ok) return plan;
    const op = await applyAndWait(w, plan.value, `cli-${plan.value.plan_id}`);
    return op.ok ? ok({ mode: "single", plan: plan.value, operation: op.value, source: read.source }) : op;
  }
  const batch = pasteBatch(paste, read.sha256, target, rotation, options.skipAir === true);
  const pasteId = batch.id;
  const partName = options.part ?? `paste ${pasteId}`;
  const r = await runBatch(
    w,
    {
      ...batch,
      file: join(w.dir, "batches", `${pasteId}.json`),
      retryConflicts: options.retryConflicts === true,
      ...(options.onManualEdit === undefined ? {} : { onManualEdit: options.onManualEdit }),
      onComplete: partOnComplete(w, partName),
    },
    options.progress ?? (() => undefined),
    options.maxTiles ?? Infinity,
  );
  if (!r.ok) return r;
  return ok({ mode: "batch", paste_id: pasteId, batch: r.value, bounds: boxJson(paste.box()), source: read.source });
}

/**
 * A paste as a batch of tiles (bottom up, each a checked, undoable operation), its id from the
 * file's SHA-256, the place, the turn and skip-air: the same paste always resumes the same batch,
 * from `mcb schem import` or from schematic_paste (progress in `<state>/batches/<paste_id>.json`).
 */
export function pasteBatch(paste: SchematicPaste, sha256: string, target: Vec3, rotation: number, skipAir: boolean): BatchJobSpec {
  const id =
    "p_" +
    createHash("sha256")
      .update(`${sha256}\0${target.x},${target.y},${target.z},${rotation}${skipAir ? ",skip-air" : ""}`)
      .digest("hex")
      .slice(0, 24);
  return {
    id,
    total: paste.count,
    keyPrefix: `paste-${id}`,
    plan: (i) => {
      const t = paste.tile(i);
      return t.ok ? ok(t.value.plan) : t;
    },
    retryConflicts: false,
    origin: "import",
  };
}
