import { paletteCounts, type Plan } from "./Plan.js";
import { boxJson } from "@mcb/blocks";

/** Compact, JSON-ready description of a plan for people and models: never the block list. */
export interface PlanSummary {
  readonly plan_hash: string;
  readonly changed_blocks: number;
  readonly bounds: { readonly min: { x: number; y: number; z: number }; readonly max: { x: number; y: number; z: number } } | null;
  /** Counts per canonical state, largest first (ties by state). */
  readonly palette: ReadonlyArray<{ readonly state: string; readonly count: number }>;
  readonly filtered_blocks: number;
  readonly dependencies: number;
  readonly minecraft_version: string;
}

export function summarizePlan(plan: Plan): PlanSummary {
  const palette = [...paletteCounts(plan)].map(([state, count]) => ({ state, count })).sort((a, b) => b.count - a.count || (a.state < b.state ? -1 : 1));
  let filtered = 0;
  for (let r = 0; r < plan.runs.length.length; r++) if (plan.runs.filter[r] !== 0) filtered += plan.runs.length[r]!;
  const b = plan.bounds;
  return {
    plan_hash: plan.planHash,
    changed_blocks: plan.count,
    bounds: b === null ? null : boxJson(b),
    palette,
    filtered_blocks: filtered,
    dependencies: plan.reads.length / 3,
    minecraft_version: plan.minecraftVersion,
  };
}
