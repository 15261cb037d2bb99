import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { HeightField } from "./HeightField.js";

/** Square tiles of `size` columns in row-major order (index = tz × columns + tx). */
export interface TileLayout {
  readonly size: number;
  readonly columns: number;
  readonly rows: number;
  readonly count: number;
}

export interface TileBounds {
  readonly minX: number;
  readonly minZ: number;
  readonly maxX: number;
  readonly maxZ: number;
}

/** The largest tile (32, 16 or 8 columns) whose full column range fits one plan. */
export function tileLayout(field: HeightField, levels: number, maxPlanBlocks: number): Result<TileLayout> {
  for (const size of [32, 16, 8]) {
    if (size * size * levels > maxPlanBlocks) continue;
    const columns = Math.ceil(field.width / size),
      rows = Math.ceil(field.length / size);
    return ok({ size, columns, rows, count: columns * rows });
  }
  return fail(
    mcbError("budget_exceeded", `floor..ceiling spans ${levels} levels; an 8×8 tile would exceed the plan limit of ${maxPlanBlocks}`, { limit: maxPlanBlocks }),
  );
}

export function tileBounds(field: HeightField, layout: TileLayout, index: number): TileBounds | null {
  if (!Number.isInteger(index) || index < 0 || index >= layout.count) return null;
  const tx = index % layout.columns,
    tz = Math.floor(index / layout.columns);
  const minX = field.minX + tx * layout.size,
    minZ = field.minZ + tz * layout.size;
  return { minX, minZ, maxX: Math.min(minX + layout.size, field.minX + field.width) - 1, maxZ: Math.min(minZ + layout.size, field.minZ + field.length) - 1 };
}
