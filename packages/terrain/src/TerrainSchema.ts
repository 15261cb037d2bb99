import { z } from "zod";

/** Bounds of the terrain language (docs/DESIGN.md "Limits and budgets"; previews and tiles stay bounded). */
export const TERRAIN_LIMITS = Object.freeze({
  /** Columns along x or z in one recipe. */
  maxSide: 1024,
  maxFeatures: 64,
  maxPreserve: 64,
  maxRadius: 512,
  maxHeight: 256,
  maxOctaves: 6,
  /** Columns × feature cost (noise octaves count one each): bounds the evaluation time (~1 s). */
  maxWork: 16_000_000,
});

const H = 30_000_000;
const coord = z.number().int().min(-H).max(H);
/** A column {x, z} of the world (shared by terrain recipes and brushes). */
export const Column = z.strictObject({ x: coord.describe("east (+) / west (−)"), z: coord.describe("south (+) / north (−)") }).describe("column {x, z}");
export const yCoord = z.number().int().min(-64).max(319);
const radius = z.number().positive().max(TERRAIN_LIMITS.maxRadius);
const height = z.number().min(-TERRAIN_LIMITS.maxHeight).max(TERRAIN_LIMITS.maxHeight);
const state = z.string().min(1).max(1024);
const center = Column.describe("centre column");

export const FeatureSchema = z.discriminatedUnion("type", [
  z
    .strictObject({
      type: z.literal("hill").describe("rounded hill"),
      center,
      radius: radius.describe("blocks from the centre to the foot"),
      height: height.refine((h) => h > 0, "a hill rises (height > 0)").describe("rise at the centre"),
    })
    .describe("hill: height × (1 − (d/r)²)²"),
  z
    .strictObject({
      type: z.literal("ridge").describe("ridge along a segment"),
      from: Column.describe("one end"),
      to: Column.describe("other end"),
      width: radius.describe("half-width of the rounded cross-section"),
      height: height.refine((h) => h > 0, "a ridge rises").describe("rise at from"),
      height_end: height.optional().describe("rise at to (default = height): a taper"),
    })
    .describe("ridge, rounded in cross-section, tapering to height_end"),
  z
    .strictObject({
      type: z.literal("plateau").describe("flat-topped plateau"),
      center,
      radius: radius.describe("outer radius"),
      height: height.describe("top at base + height"),
      edge: z.number().min(0).max(TERRAIN_LIMITS.maxRadius).optional().describe("eased rim width in blocks (default radius / 4)"),
    })
    .describe("plateau: flat top inside radius − edge, eased over edge"),
  z
    .strictObject({
      type: z.literal("basin").describe("dry bowl"),
      center,
      radius: radius.describe("rim radius"),
      depth: z.number().positive().max(TERRAIN_LIMITS.maxHeight).describe("depth at the centre"),
    })
    .describe("basin: −depth × (1 − (d/r)²)²"),
  z
    .strictObject({
      type: z.literal("channel").describe("dry channel along a segment"),
      from: Column.describe("one end"),
      to: Column.describe("other end"),
      width: radius.describe("half-width"),
      depth: z.number().positive().max(TERRAIN_LIMITS.maxHeight).describe("depth along the centre line"),
    })
    .describe("channel"),
  z
    .strictObject({
      type: z.literal("noise").describe("seeded value noise"),
      amplitude: z.number().min(0).max(TERRAIN_LIMITS.maxHeight).describe("± blocks"),
      scale: z.number().min(2).max(4096).describe("feature size in blocks"),
      octaves: z.number().int().min(1).max(TERRAIN_LIMITS.maxOctaves).optional().describe("each octave halves size and amplitude; default 1"),
      seed: z.number().int().min(0).max(2 ** 31 - 1).optional().describe("overrides the recipe seed"),
    })
    .describe("noise: ± amplitude, feature size scale"),
  z
    .strictObject({
      type: z.literal("terrace").describe("terraces"),
      step: z.number().int().min(2).max(64).describe("heights snap towards multiples of step"),
      sharpness: z.number().min(0).max(1).optional().describe("0 (none) .. 1 (flat steps)"),
    })
    .describe("terrace: reshapes the heights of the features before it"),
]).describe("one terrain feature, chosen by type; features apply in order");

export const TerrainPaletteSchema = z
  .strictObject({
    surface: state.optional().describe("top block (default minecraft:grass_block)"),
    subsurface: state.optional().describe("blocks under the surface (default minecraft:dirt)"),
    depth: z.number().int().min(0).max(16).optional().describe("blocks of subsurface under the surface (default 3)"),
    stone: state.optional().describe("everything deeper (default minecraft:stone)"),
    steep: state.optional().describe("surface where the drop to a neighbour is at least steep_drop blocks"),
    steep_drop: z.number().int().min(1).max(64).optional().describe("drop that makes a column steep"),
    peak: state.optional().describe("surface at or above peak_y"),
    peak_y: yCoord.optional().describe("level of peaks"),
    low: state.optional().describe("surface at or below low_y (dry basin floors, channel beds)"),
    low_y: yCoord.optional().describe("level of lowlands"),
  })
  .describe("limited terrain palette (block state strings)");

const ColumnRect = z.strictObject({ min: Column.describe("one corner column"), max: Column.describe("opposite corner column") });

export const TerrainRecipeSchema = z
  .strictObject({
    version: z.literal(1).describe("terrain language version: 1"),
    seed: z.number().int().min(0).max(2 ** 31 - 1).optional().describe("noise seed; default 0"),
    area: ColumnRect.describe("inclusive column rectangle (at most 1024 a side)"),
    base: yCoord.describe("surface height before features"),
    floor: yCoord.optional().describe("lowest y a tile writes (default base − 8); below is never touched"),
    ceiling: yCoord.optional().describe("highest y a tile clears to air (default: highest surface + 8)"),
    features: z.array(FeatureSchema).max(TERRAIN_LIMITS.maxFeatures).describe("features, applied in order"),
    palette: TerrainPaletteSchema.optional(),
    preserve: z.array(ColumnRect.describe("inclusive column rectangle")).max(TERRAIN_LIMITS.maxPreserve).optional().describe("column rectangles never written (existing builds, paths)"),
  })
  .describe("a deterministic height-field terrain recipe");

export type TerrainRecipe = z.infer<typeof TerrainRecipeSchema>;
export type TerrainFeature = z.infer<typeof FeatureSchema>;
export type TerrainPalette = z.infer<typeof TerrainPaletteSchema>;
