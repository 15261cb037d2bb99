import { createHash } from "node:crypto";
import { type BlockRegistry, fail, jsonShapeError, mcbError, ok, type Result, schemaError } from "@mcb/blocks";
import { evaluateHeightField, heightStats, type HeightField, type HeightStats } from "./HeightField.js";
import { TERRAIN_LIMITS, TerrainRecipeSchema, type TerrainRecipe } from "./TerrainSchema.js";
import { tileLayout, type TileLayout } from "./Tiling.js";

/** Resolved column materials (canonical states). */
export interface TerrainMaterials {
  readonly surface: string;
  readonly subsurface: string;
  readonly depth: number;
  readonly stone: string;
  readonly steep: string;
  readonly steepDrop: number;
  readonly peak: { readonly state: string; readonly y: number } | null;
  readonly low: { readonly state: string; readonly y: number } | null;
}

export interface CompiledTerrain {
  /** Content address: "t_" + 32 hex of SHA-256 over the canonical recipe JSON. */
  readonly terrainId: string;
  readonly recipe: TerrainRecipe;
  readonly field: HeightField;
  readonly stats: HeightStats;
  readonly materials: TerrainMaterials;
  /** Lowest and highest y a tile plan covers. */
  readonly floor: number;
  readonly ceiling: number;
  readonly tiles: TileLayout;
}

/** JSON with object keys sorted at every level: the canonical text that the terrain id hashes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/**
 * Validates a terrain recipe, evaluates its height field and tiles it. Nothing is read or written.
 * Errors: invalid_request (schema, area, floor/ceiling), unsupported_block (palette),
 * budget_exceeded (area over 1024 columns a side).
 */
export function compileTerrain(registry: BlockRegistry, input: unknown, maxPlanBlocks = 100_000): Result<CompiledTerrain> {
  const tooLarge = jsonShapeError(input, "terrain recipe");
  if (tooLarge !== null) return fail(tooLarge);
  const parsed = TerrainRecipeSchema.safeParse(input);
  if (!parsed.success) return fail(schemaError("terrain recipe", parsed.error.issues));
  const recipe = parsed.data;
  const { min, max } = recipe.area;
  if (max.x < min.x || max.z < min.z) return fail(mcbError("invalid_request", "area.max must not be below area.min", { reason: "area" }));
  const width = max.x - min.x + 1,
    length = max.z - min.z + 1;
  if (width > TERRAIN_LIMITS.maxSide || length > TERRAIN_LIMITS.maxSide)
    return fail(
      mcbError("budget_exceeded", `the area is ${width}×${length} columns; the limit is ${TERRAIN_LIMITS.maxSide} a side`, { limit: TERRAIN_LIMITS.maxSide }),
    );
  const cost = recipe.features.reduce((sum, f) => sum + (f.type === "noise" ? (f.octaves ?? 1) : 1), 0);
  if (width * length * cost > TERRAIN_LIMITS.maxWork)
    return fail(
      mcbError(
        "budget_exceeded",
        `${width * length} columns × ${cost} feature evaluations is over ${TERRAIN_LIMITS.maxWork}: use a smaller area or fewer features/octaves`,
        {
          reason: "work",
          limit: TERRAIN_LIMITS.maxWork,
        },
      ),
    );
  const state = (value: string | undefined, fallback: string, path: string): Result<string> => {
    const r = registry.resolveState(value ?? fallback);
    return r.ok ? ok(r.value.canonical) : fail(mcbError("unsupported_block", `palette.${path}: ${r.error.message}`, { path: `palette.${path}` }));
  };
  const p = recipe.palette ?? {};
  const entries: [keyof TerrainMaterials, string | undefined, string][] = [
    ["surface", p.surface, "minecraft:grass_block"],
    ["subsurface", p.subsurface, "minecraft:dirt"],
    ["stone", p.stone, "minecraft:stone"],
    ["steep", p.steep, "minecraft:stone"],
  ];
  const resolved: Record<string, string> = {};
  for (const [k, v, d] of entries) {
    const r = state(v, d, k);
    if (!r.ok) return r;
    resolved[k] = r.value;
  }
  const optional = (s: string | undefined, y: number | undefined, name: string): Result<{ state: string; y: number } | null> => {
    if (s === undefined && y === undefined) return ok(null);
    if (s === undefined || y === undefined)
      return fail(mcbError("invalid_request", `palette.${name} and palette.${name}_y go together`, { reason: "palette" }));
    const r = state(s, s, name);
    return r.ok ? ok({ state: r.value, y }) : r;
  };
  const peak = optional(p.peak, p.peak_y, "peak");
  if (!peak.ok) return peak;
  const low = optional(p.low, p.low_y, "low");
  if (!low.ok) return low;
  const field = evaluateHeightField(recipe);
  const stats = heightStats(field);
  const floor = recipe.floor ?? Math.max(-64, Math.min(recipe.base, stats.min) - 8);
  const ceiling = recipe.ceiling ?? Math.min(319, Math.max(recipe.base, stats.max) + 8);
  if (floor > stats.min) return fail(mcbError("invalid_request", `floor ${floor} is above the lowest surface ${stats.min}`, { reason: "floor" }));
  if (ceiling < stats.max) return fail(mcbError("invalid_request", `ceiling ${ceiling} is below the highest surface ${stats.max}`, { reason: "ceiling" }));
  const tiles = tileLayout(field, ceiling - floor + 1, maxPlanBlocks);
  if (!tiles.ok) return tiles;
  const terrainId = `t_${createHash("sha256").update(canonicalJson(recipe)).digest("hex").slice(0, 32)}`;
  const materials: TerrainMaterials = {
    surface: resolved["surface"]!,
    subsurface: resolved["subsurface"]!,
    depth: p.depth ?? 3,
    stone: resolved["stone"]!,
    steep: resolved["steep"]!,
    steepDrop: p.steep_drop ?? 3,
    peak: peak.value,
    low: low.value,
  };
  return ok({ terrainId, recipe, field, stats, materials, floor, ceiling, tiles: tiles.value });
}
