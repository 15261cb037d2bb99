import { readFile, stat } from "node:fs/promises";
import { createBlockRegistry, fail, mcbError, ok, type BlockRegistry, type McbError, type Result } from "@mcb/blocks";
import { compileRecipe, summarizePlan, type PlanSummary } from "@mcb/recipe";

/** Largest recipe file the CLI reads. */
export const MAX_RECIPE_FILE_BYTES = 1_048_576;

export interface CompileFileOptions {
  readonly minecraftVersion?: string;
}

/** Reads and parses one recipe file (≤ 1 MiB). Errors: `invalid_request` with a reason. */
export async function readRecipeFile(path: string): Promise<Result<unknown>> {
  const readError = (message: string, reason: string): { ok: false; error: McbError } => fail(mcbError("invalid_request", message, { reason, file: path }));
  let info;
  try {
    info = await stat(path);
  } catch {
    return readError(`cannot read recipe file "${path}"`, "unreadable");
  }
  if (!info.isFile()) return readError(`"${path}" is not a regular file`, "not_a_file");
  if (info.size > MAX_RECIPE_FILE_BYTES) return readError(`recipe file is ${info.size} bytes; the limit is ${MAX_RECIPE_FILE_BYTES}`, "too_large");
  try {
    return ok(JSON.parse(await readFile(path, "utf8")) as unknown);
  } catch (e) {
    return readError(`recipe file is not valid JSON: ${(e as Error).message}`, "not_json");
  }
}

/** Reads and parses a JSON recipe file and builds the registry it is compiled against. */
export async function loadRecipeFile(path: string, options: CompileFileOptions = {}): Promise<Result<{ value: unknown; registry: BlockRegistry }>> {
  const value = await readRecipeFile(path);
  if (!value.ok) return value;
  const registry = createBlockRegistry(options.minecraftVersion === undefined ? {} : { version: options.minecraftVersion });
  return registry.ok ? ok({ value: value.value, registry: registry.value }) : registry;
}

/** Reads, parses and compiles one recipe file. Errors: `invalid_request` (unreadable, too large, not JSON) or the compiler's. */
export async function compileRecipeFile(path: string, options: CompileFileOptions = {}): Promise<Result<PlanSummary>> {
  const loaded = await loadRecipeFile(path, options);
  if (!loaded.ok) return loaded;
  const plan = compileRecipe(loaded.value.registry, loaded.value.value);
  return plan.ok ? ok(summarizePlan(plan.value)) : plan;
}
