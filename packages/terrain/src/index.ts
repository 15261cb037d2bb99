export { TERRAIN_LIMITS, TerrainRecipeSchema, type TerrainFeature, type TerrainPalette, type TerrainRecipe } from "./TerrainSchema.js";
export { heightAt, type HeightField, type HeightStats } from "./HeightField.js";
export { compileTerrain, type CompiledTerrain, type TerrainMaterials } from "./TerrainCompile.js";
export { tileBounds, type TileBounds, type TileLayout } from "./Tiling.js";
export { NATURAL_IDS, surfaceState, terrainTilePlan, type TilePlan } from "./TilePlan.js";
export { PREVIEW_DEFAULT_RESOLUTION, PREVIEW_MAX_RESOLUTION, heightPreviewPng, type PreviewOptions } from "./HeightPreview.js";
export { MAX_SCAN_LEVELS, scanSurface, type BoxReader, type ColumnKind, type ScannedColumn } from "./SurfaceScan.js";
export { BrushSchema, brushColumns, parseBrush, planBrush, type Brush, type BrushResult } from "./Brush.js";
