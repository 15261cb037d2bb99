export type { ErrorCode, McbError, Result } from "./McbError.js";
export { ERROR_CODES, mcbError, ok, fail } from "./McbError.js";
export { MAX_STATE_STRING_LENGTH, blockIdOf, parseStateSyntax, formatState, type StateSyntax } from "./BlockStateSyntax.js";
export {
  DEFAULT_MINECRAFT_VERSION,
  createBlockRegistry,
  minecraftVersions,
  type RegistryVersion,
  type BlockProperty,
  type BlockRegistry,
  type BlockState,
  type BlockType,
  type RegistryOptions,
} from "./BlockRegistry.js";
export type { BehaviorHint } from "./BehaviorHints.js";
export { dataVersionOf, describeDataVersion, legacyState, releaseOf } from "./GameVersions.js";
export {
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  createMaterialCatalog,
  type CatalogSummary,
  type MaterialCatalog,
  type MaterialEntry,
} from "./MaterialCatalog.js";
export {
  MAX_CURSOR_LENGTH,
  MAX_QUERY_LENGTH,
  searchMaterials,
  type MaterialKind,
  type MaterialSearchInput,
  type MaterialSearchPage,
} from "./MaterialSearch.js";
export { MAX_MATERIAL_ID_LENGTH, describeMaterial, type MaterialDescription } from "./MaterialDescribe.js";
export { rotateState, mirrorState, type MirrorAxis, type QuarterTurns } from "./StateTransform.js";
export { blockEntityPredicate, blockEntityType } from "./BlockEntities.js";
export { Interner } from "./Interner.js";
export { blockShapes, type BlockShapes, type Face, type FaceRect, type ShapeBox } from "./BlockShapes.js";
export { stairShape, type StairFacing, type StairNeighbour, type StairShape } from "./StairShape.js";
export { boundsOf, boxContains, boxFromCorners, boxJson, boxUnion, boxVolume, boxesIntersect, inBox, posKey, type Box3, type Vec3 } from "./Geometry.js";
export { ECHO_LIMITS, boundEcho, clip } from "./EchoBounds.js";
export { describeIssues, schemaError, type IssueView, type SchemaIssue } from "./SchemaIssues.js";
export { JSON_LIMITS, jsonShapeError, jsonShapeExcess } from "./JsonGuard.js";
export { BLOCK_ENTITY_REMOVALS, BLOCK_UPGRADES, removedBlockEntity, upgradeState, type BlockUpgrade } from "./DataUpgrade.js";
export { AIR_IDS, isAir } from "./Air.js";
