import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createBlockRegistry, fail, mcbError, ok, type BlockRegistry, type Result } from "@mcb/blocks";
import type { PrepareView, Vec3 } from "@mcb/engine";
import { compileRecipe } from "@mcb/recipe";
import { ASSET_ID, DEFAULT_SCHEMATIC_LIMITS, SchematicLibrary, infoOf, readSchematic, schematicFromPlan, writeSchematic, type Schematic } from "@mcb/schematic";
import { assetView, exportRegionAsset, preparePaste, type AssetView } from "./actions/SchematicActions.js";
import type { EmbeddedWorld } from "./EmbeddedWorld.js";
import { loadRecipeFile } from "./RecipeCommand.js";
import { applyAndWait, type BuildReport } from "./WorldCommands.js";

export interface SchemBuildOptions {
  readonly origin?: { x: number; y: number; z: number };
  /** Largest bounding volume (default 4096: what the library imports). */
  readonly maxPositions?: number;
}

/** `mcb schem build`: compiles a recipe and writes its blocks as a Sponge v2 file (air fills the bounds). */
export async function buildSchematicFile(recipePath: string, outPath: string, options: SchemBuildOptions = {}): Promise<Result<AssetView>> {
  const loaded = await loadRecipeFile(recipePath);
  if (!loaded.ok) return loaded;
  const plan = compileRecipe(loaded.value.registry, loaded.value.value);
  if (!plan.ok) return plan;
  const s = schematicFromPlan(plan.value, { ...options, name: outPath.replace(/^.*\//, "").replace(/\.schem$/, "") });
  if (!s.ok) return s;
  const bytes = writeSchematic(s.value);
  await writeFile(outPath, bytes);
  return ok(assetView(infoOf(s.value.name ?? "schematic", s.value, bytes)));
}

const stem = (path: string): string => path.replace(/^.*\//, "").replace(/\.schem$/, "");

/** Reads and validates a local .schem file (a person's own file: the CLI takes paths, MCP never does). */
async function readSchematicFile(registry: BlockRegistry, path: string, maxPositions = DEFAULT_SCHEMATIC_LIMITS.maxPositions): Promise<Result<{ schematic: Schematic; bytes: Buffer }>> {
  let size: number;
  try {
    const st = await stat(path);
    if (!st.isFile()) return fail(mcbError("invalid_request", `"${path}" is not a regular file`, { reason: "not_a_file" }));
    size = st.size;
  } catch {
    return fail(mcbError("invalid_request", `cannot read "${path}"`, { reason: "unreadable" }));
  }
  const limits = { ...DEFAULT_SCHEMATIC_LIMITS, maxPositions };
  if (size > limits.maxCompressedBytes) return fail(mcbError("budget_exceeded", `the file has ${size} bytes; the limit is ${limits.maxCompressedBytes}`, { limit: limits.maxCompressedBytes }));
  const bytes = await readFile(path);
  const s = readSchematic(registry, bytes, { limits });
  return s.ok ? ok({ schematic: s.value.schematic, bytes }) : s;
}

/** `mcb schem info`: validates a local file with the library's limits and prints its metadata and palette. */
export async function schematicFileInfo(path: string, maxPositions = DEFAULT_SCHEMATIC_LIMITS.maxPositions): Promise<Result<AssetView & { palette: { state: string; count: number }[] }>> {
  const registry = createBlockRegistry();
  if (!registry.ok) return registry;
  const read = await readSchematicFile(registry.value, path, maxPositions);
  if (!read.ok) return read;
  const { schematic: s, bytes } = read.value;
  const counts = new Array<number>(s.palette.length).fill(0);
  for (const b of s.blocks) counts[b]!++;
  const palette = s.palette.map((state, i) => ({ state, count: counts[i]! })).sort((a, b) => b.count - a.count || (a.state < b.state ? -1 : 1));
  return ok({ ...assetView(infoOf(stem(path), s, bytes)), palette });
}

function libraryOf(w: EmbeddedWorld): SchematicLibrary {
  return new SchematicLibrary(join(w.dir, "schematics"), w.registry);
}

/**
 * `mcb schem export <name> -- x1 y1 z1 x2 y2 z2`: what schematic_export does (into the library of
 * the state directory), and with `outPath` the same bytes also written to a file.
 */
export async function exportSchematic(w: EmbeddedWorld, name: string, min: Vec3, max: Vec3, origin?: Vec3, outPath?: string): Promise<Result<AssetView>> {
  const library = libraryOf(w);
  const saved = await exportRegionAsset({ ...w, library }, name, min, max, origin);
  if (!saved.ok) return saved;
  if (outPath !== undefined) {
    const loaded = library.load(saved.value.assetId);
    if (!loaded.ok) return loaded;
    await writeFile(outPath, writeSchematic(loaded.value.schematic));
  }
  return ok(assetView(saved.value));
}

/**
 * `mcb schem import <asset_id | file.schem> --at x,y,z [--rotation R]`: what
 * schematic_import_prepare + build_apply do, waiting for the operation. A plain id names a library
 * asset; anything with a slash or ending in .schem is a file.
 */
export async function importSchematic(w: EmbeddedWorld, source: string, target: Vec3, rotation: 0 | 90 | 180 | 270): Promise<Result<BuildReport>> {
  let schematic: Schematic;
  if (source.includes("/") || source.endsWith(".schem") || !ASSET_ID.test(source)) {
    const read = await readSchematicFile(w.registry, source);
    if (!read.ok) return read;
    schematic = read.value.schematic;
  } else {
    const asset = libraryOf(w).load(source);
    if (!asset.ok) return asset;
    schematic = asset.value.schematic;
  }
  const plan: Result<PrepareView> = await preparePaste(w, schematic, target, rotation);
  if (!plan.ok) return plan;
  const op = await applyAndWait(w, plan.value, `cli-${plan.value.plan_id}`);
  return op.ok ? ok({ plan: plan.value, operation: op.value }) : op;
}
