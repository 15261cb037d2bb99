export {
  RecipeSchema,
  OperationSchema,
  OPERATION_TYPES,
  Vec3Schema,
  type Recipe,
  type Operation,
  type Vec3,
  type BlockRef,
  type BoxOp,
  type LineOp,
  type CylinderOp,
  type ArchOp,
  type ReplaceOp,
  type RepeatOp,
  type TransformOp,
  type Palette,
} from "./RecipeSchema.js";
export { DEFAULT_LIMITS, MAX_HORIZONTAL, MAX_Y, MIN_Y, type CompileLimits } from "./Limits.js";
export { compileRecipe, createRecipeCompiler, type CompileOptions, type RecipeCompiler } from "./Compiler.js";
export { forEachPlanBlock, paletteCounts, type Plan, type PlanBlockData, type PlanRuns, type SourceFilter } from "./Plan.js";
export { planHash } from "./PlanHash.js";
export { planFromBlocks, type PlanBlocks, type PlanFromBlocksInput } from "./PlanAssembly.js";
export { summarizePlan, type PlanSummary } from "./PlanSummary.js";
export { PLAN_TILE_BLOCKS, PlanTiles } from "./PlanTiles.js";
