import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import { forEachPlanBlock, type Plan } from "@mcb/recipe";
import { AIR, canonicalSchematic, type Schematic } from "./Schematic.js";
import { DEFAULT_SCHEMATIC_LIMITS } from "./SchematicLimits.js";

export interface FromPlanOptions {
  /** Paste anchor; default the plan's minimum corner (offset 0). */
  readonly origin?: { readonly x: number; readonly y: number; readonly z: number };
  /** Largest bounding volume (default 4096, the library's import limit). */
  readonly maxPositions?: number;
  readonly name?: string;
}

/**
 * A compiled plan as a dense schematic over its bounds; positions the plan does not write are air.
 * Refuses plans with source filters (a schematic cannot say "only where the world holds X"),
 * empty plans, and bounds over `maxPositions` (budget_exceeded).
 */
export function schematicFromPlan(plan: Plan, options: FromPlanOptions = {}): Result<Schematic> {
  const b = plan.bounds;
  if (b === null) return fail(mcbError("invalid_request", "the plan writes no blocks; there is nothing to save", { reason: "empty_plan" }));
  if (plan.filters.length > 0)
    return fail(mcbError("invalid_request", "the plan has replace filters, which a schematic cannot express", { reason: "source_filters" }));
  const width = b.maxX - b.minX + 1,
    height = b.maxY - b.minY + 1,
    length = b.maxZ - b.minZ + 1;
  const max = options.maxPositions ?? DEFAULT_SCHEMATIC_LIMITS.maxPositions;
  const volume = width * height * length;
  if (volume > max)
    return fail(
      mcbError("budget_exceeded", `the plan's bounds hold ${volume} positions; the limit is ${max}`, { reason: "positions", limit: max, requested: volume }),
    );
  if (width > 0xffff || height > 0xffff || length > 0xffff)
    return fail(mcbError("budget_exceeded", "a schematic side is at most 65535 blocks", { limit: 0xffff }));
  let air = plan.palette.indexOf(AIR);
  const palette = [...plan.palette];
  if (air < 0) air = palette.push(AIR) - 1;
  const blocks = new Uint32Array(volume).fill(air);
  forEachPlanBlock(plan, (x, y, z, s) => {
    blocks[x - b.minX + (z - b.minZ) * width + (y - b.minY) * width * length] = s;
  });
  const origin = options.origin ?? { x: b.minX, y: b.minY, z: b.minZ };
  return ok(
    canonicalSchematic({
      width,
      height,
      length,
      offset: { x: b.minX - origin.x, y: b.minY - origin.y, z: b.minZ - origin.z },
      dataVersion: plan.dataVersion,
      palette,
      blocks,
      blockEntities: [],
      ...(options.name === undefined ? {} : { name: options.name }),
    }),
  );
}
