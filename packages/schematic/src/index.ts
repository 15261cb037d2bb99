export { canonicalSchematic, type Schematic } from "./Schematic.js";
export { DEFAULT_SCHEMATIC_LIMITS, type SchematicLimits } from "./SchematicLimits.js";
export { readSchematic } from "./SchematicRead.js";
export { writeSchematic } from "./SchematicWrite.js";
export { rotateSchematic } from "./SchematicRotate.js";
export { schematicToPlan, type PasteInput } from "./SchematicPlan.js";
export { schematicFromRegion, type FromRegionInput, type RegionBlocks } from "./SchematicFromRegion.js";
export { ASSET_ID, MAX_LIBRARY_FILES, SchematicLibrary, infoOf, type AssetInfo, type LoadedAsset } from "./SchematicLibrary.js";
export { schematicFromPlan, type FromPlanOptions } from "./SchematicFromPlan.js";
