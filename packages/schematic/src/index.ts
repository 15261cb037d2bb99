export { canonicalSchematic, type Schematic, type SchematicBlockEntity } from "./Schematic.js";
export { DEFAULT_SCHEMATIC_LIMITS, MAX_SCHEMATIC_LIMITS, schematicLimits, type SchematicLimits } from "./SchematicLimits.js";
export {
  DROP_CATEGORIES,
  SPONGE_V1_DATA_VERSION,
  readSchematic,
  type DropCategory,
  type LossReport,
  type ReadOptions,
  type ReadResult,
} from "./SchematicRead.js";
export type { SchematicFormat } from "./read/Decoded.js";
export { STRUCTURE_VOID } from "./read/StructureRead.js";
export { writeSchematic, type SpongeHeader, type WriteOptions } from "./SchematicWrite.js";
export { rotateSchematic } from "./SchematicRotate.js";
export { PASTE_TILE_BLOCKS, SchematicPaste, schematicToPlan, type PasteInput, type PasteTile } from "./SchematicPlan.js";
export { missingEntities, regionEntities, schematicFromRegion, type FromRegionInput, type RegionBlocks, type RegionEntities } from "./SchematicFromRegion.js";
export {
  ASSET_ID,
  MAX_LIBRARY_FILES,
  SchematicLibrary,
  infoOf,
  type AssetInfo,
  type AssetReservation,
  type LoadedAsset,
  type StreamedAsset,
} from "./SchematicLibrary.js";
export { SpongeStream, type StreamTotals } from "./SpongeStream.js";
export { schematicFromPlan, type FromPlanOptions } from "./SchematicFromPlan.js";
