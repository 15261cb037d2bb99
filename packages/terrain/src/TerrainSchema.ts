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
export const Column = z.strictObject({ x: coord.describe("east (+) / west (−)"), z: coord.describe("south (+) / north (−)") }).describe("column");
export const yCoord = z.number().int().min(-64).max(319);
const radius = z.number().positive().max(TERRAIN_LIMITS.maxRadius);
const height = z.number().min(-TERRAIN_LIMITS.maxHeight).max(TERRAIN_LIMITS.maxHeight);
const state = z.string().min(1).max(1024);
const center = Column.describe("centre");

export const FeatureSchema = z
  .discriminatedUnion("type", [
    z
      .strictObject({
        type: z.literal("hill").describe("rounded hill"),
        center,
        radius: radius.describe("radius"),
        height: height.refine((h) => h > 0, "a hill rises (height > 0)").describe("rise"),
      })
      .describe("rounded hill"),
    z
      .strictObject({
        type: z.literal("ridge").describe("ridge along a segment"),
        from: Column.describe("one end"),
        to: Column.describe("other end"),
        width: radius.describe("half-width"),
        height: height.refine((h) => h > 0, "a ridge rises").describe("rise"),
        height_end: height.optional().describe("rise at to"),
      })
      .describe("rounded ridge"),
    z
      .strictObject({
        type: z.literal("plateau").describe("flat-topped plateau"),
        center,
        radius: radius.describe("radius"),
        height: height.describe("rise"),
        edge: z.number().min(0).max(TERRAIN_LIMITS.maxRadius).optional().describe("rim width"),
      })
      .describe("flat top"),
    z
      .strictObject({
        type: z.literal("basin").describe("dry bowl"),
        center,
        radius: radius.describe("radius"),
        depth: z.number().positive().max(TERRAIN_LIMITS.maxHeight).describe("depth"),
      })
      .describe("dry bowl"),
    z
      .strictObject({
        type: z.literal("channel").describe("dry channel along a segment"),
        from: Column.describe("one end"),
        to: Column.describe("other end"),
        width: radius.describe("half-width"),
        depth: z.number().positive().max(TERRAIN_LIMITS.maxHeight).describe("depth"),
      })
      .describe("dry channel"),
    z
      .strictObject({
        type: z.literal("noise").describe("seeded value noise"),
        amplitude: z.number().min(0).max(TERRAIN_LIMITS.maxHeight).describe("± blocks"),
        scale: z.number().min(2).max(4096).describe("size"),
        octaves: z.number().int().min(1).max(TERRAIN_LIMITS.maxOctaves).optional().describe("default 1"),
        seed: z
          .number()
          .int()
          .min(0)
          .max(2 ** 31 - 1)
          .optional()
          .describe("own seed"),
      })
      .describe("value noise"),
    z
      .strictObject({
        type: z.literal("terrace").describe("terraces"),
        step: z.number().int().min(2).max(64).describe("step height"),
        sharpness: z.number().min(0).max(1).optional().describe("0..1"),
      })
      .describe("terraces"),
  ])
  .describe("feature");

export const TerrainPaletteSchema = z
  .strictObject({
    surface: state.optional().describe("grass_block"),
    subsurface: state.optional().describe("default dirt"),
    depth: z.number().int().min(0).max(16).optional().describe("default 3"),
    stone: state.optional().describe("default stone"),
    steep: state.optional().describe("on slopes"),
    steep_drop: z.number().int().min(1).max(64).optional().describe("steep drop"),
    peak: state.optional().describe("from peak_y"),
    peak_y: yCoord.optional().describe("peak level"),
    low: state.optional().describe("to low_y"),
    low_y: yCoord.optional().describe("low level"),
  })
  .describe("block states");

const ColumnRect = z.strictObject({ min: Column.describe("corner"), max: Column.describe("other corner") });

export const TerrainRecipeSchema = z
  .strictObject({
    version: z.literal(1).describe("1"),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional()
      .describe("default 0"),
    area: ColumnRect.describe("≤ 1024 a side"),
    base: yCoord.describe("ground level"),
    floor: yCoord.optional().describe("lowest y written"),
    ceiling: yCoord.optional().describe("highest y cleared"),
    features: z.array(FeatureSchema).max(TERRAIN_LIMITS.maxFeatures).describe("in order"),
    palette: TerrainPaletteSchema.optional(),
    preserve: z.array(ColumnRect.describe("rectangle")).max(TERRAIN_LIMITS.maxPreserve).optional().describe("kept rectangles"),
  })
  .describe("terrain recipe");

export type TerrainRecipe = z.infer<typeof TerrainRecipeSchema>;
export type TerrainFeature = z.infer<typeof FeatureSchema>;
export type TerrainPalette = z.infer<typeof TerrainPaletteSchema>;
