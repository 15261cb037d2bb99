import { readFile, stat, writeFile } from "node:fs/promises";
import { createBlockRegistry, fail, mcbError, ok, type Result } from "@mcb/blocks";
import { compileRecipe } from "@mcb/recipe";
import { DEFAULT_SCHEMATIC_LIMITS, infoOf, readSchematic, schematicFromPlan, writeSchematic, type AssetInfo } from "@mcb/schematic";
import { loadRecipeFile } from "./RecipeCommand.js";

export interface SchemBuildOptions {
  readonly origin?: { x: number; y: number; z: number };
  /** Largest bounding volume (default 4096: what the library imports). */
  readonly maxPositions?: number;
}

/** `mcb schem build`: compiles a recipe and writes its blocks as a Sponge v2 file (air fills the bounds). */
export async function buildSchematicFile(recipePath: string, outPath: string, options: SchemBuildOptions = {}): Promise<Result<AssetInfo>> {
  const loaded = await loadRecipeFile(recipePath);
  if (!loaded.ok) return loaded;
  const plan = compileRecipe(loaded.value.registry, loaded.value.value);
  if (!plan.ok) return plan;
  const s = schematicFromPlan(plan.value, { ...options, name: outPath.replace(/^.*\//, "").replace(/\.schem$/, "") });
  if (!s.ok) return s;
  const bytes = writeSchematic(s.value);
  await writeFile(outPath, bytes);
  return ok(infoOf(s.value.name ?? "schematic", s.value, bytes));
}

/** `mcb schem info`: validates a local file with the library's limits and prints its metadata and palette. */
export async function schematicFileInfo(path: string, maxPositions = DEFAULT_SCHEMATIC_LIMITS.maxPositions): Promise<Result<AssetInfo & { palette: { state: string; count: number }[] }>> {
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
  const registry = createBlockRegistry();
  if (!registry.ok) return registry;
  const bytes = await readFile(path);
  const s = readSchematic(registry.value, bytes, limits);
  if (!s.ok) return s;
  const counts = new Array<number>(s.value.palette.length).fill(0);
  for (const b of s.value.blocks) counts[b]!++;
  const palette = s.value.palette.map((state, i) => ({ state, count: counts[i]! })).sort((a, b) => b.count - a.count || (a.state < b.state ? -1 : 1));
  return ok({ ...infoOf(path.replace(/^.*\//, "").replace(/\.schem$/, ""), s.value, bytes), palette });
}
