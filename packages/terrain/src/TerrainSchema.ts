import { z } from "zod";

/** Bounds of the terrain language (DESIGN §17 budgets; previews and tiles stay bounded). */
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
const Column = z.strictObject({ x: coord, z: coord });
const yCoord = z.number().int().min(-64).max(319);
const radius = z.number().positive().max(TERRAIN_LIMITS.maxRadius);
const height = z.number().min(-TERRAIN_LIMITS.maxHeight).max(TERRAIN_LIMITS.maxHeight);
const state = z.string().min(1).max(1024);

export const FeatureSchema = z.discriminatedUnion("type", [
  /** A rounded hill: height × (1 − (d/r)²)². */
  z.strictObject({ type: z.literal("hill"), center: Column, radius, height: height.refine((h) => h > 0, "a hill rises (height > 0)") }),
  /** A ridge along a segment, rounded in cross-section, tapering to `height_end` (default = height). */
  z.strictObject({ type: z.literal("ridge"), from: Column, to: Column, width: radius, height: height.refine((h) => h > 0, "a ridge rises"), height_end: height.optional() }),
  /** Flat top at base + height inside radius − edge, eased over `edge` blocks (default radius / 4). */
  z.strictObject({ type: z.literal("plateau"), center: Column, radius, height, edge: z.number().min(0).max(TERRAIN_LIMITS.maxRadius).optional() }),
  /** A dry bowl: −depth × (1 − (d/r)²)². */
  z.strictObject({ type: z.literal("basin"), center: Column, radius, depth: z.number().positive().max(TERRAIN_LIMITS.maxHeight) }),
  /** A dry channel along a segment. */
  z.strictObject({ type: z.literal("channel"), from: Column, to: Column, width: radius, depth: z.number().positive().max(TERRAIN_LIMITS.maxHeight) }),
  /** Seeded value noise: ± amplitude, feature size `scale` blocks, octaves halve size and amplitude. */
  z.strictObject({
    type: z.literal("noise"),
    amplitude: z.number().min(0).max(TERRAIN_LIMITS.maxHeight),
    scale: z.number().min(2).max(4096),
    octaves: z.number().int().min(1).max(TERRAIN_LIMITS.maxOctaves).optional(),
    seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
  }),
  /** Terraces: heights snap towards multiples of `step`; `sharpness` 0 (none) .. 1 (flat steps). */
  z.strictObject({ type: z.literal("terrace"), step: z.number().int().min(2).max(64), sharpness: z.number().min(0).max(1).optional() }),
]);

export const TerrainPaletteSchema = z.strictObject({
  surface: state.optional(),
  subsurface: state.optional(),
  /** Blocks of subsurface under the surface (default 3). */
  depth: z.number().int().min(0).max(16).optional(),
  stone: state.optional(),
  /** Surface where the drop to a neighbour is at least `steep_drop` blocks. */
  steep: state.optional(),
  steep_drop: z.number().int().min(1).max(64).optional(),
  /** Surface at or above `peak_y`. */
  peak: state.optional(),
  peak_y: yCoord.optional(),
  /** Surface at or below `low_y` (dry basin floors, channel beds). */
  low: state.optional(),
  low_y: yCoord.optional(),
});

export const TerrainRecipeSchema = z.strictObject({
  version: z.literal(1),
  seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
  /** Inclusive column rectangle. */
  area: z.strictObject({ min: Column, max: Column }),
  /** Surface height before features. */
  base: yCoord,
  /** Lowest y a tile writes (default base − 8); below is never touched. */
  floor: yCoord.optional(),
  /** Highest y a tile clears to air (default: highest surface + 8). */
  ceiling: yCoord.optional(),
  features: z.array(FeatureSchema).max(TERRAIN_LIMITS.maxFeatures),
  palette: TerrainPaletteSchema.optional(),
  /** Column rectangles never written (existing builds, paths). */
  preserve: z.array(z.strictObject({ min: Column, max: Column })).max(TERRAIN_LIMITS.maxPreserve).optional(),
});

export type TerrainRecipe = z.infer<typeof TerrainRecipeSchema>;
export type TerrainFeature = z.infer<typeof FeatureSchema>;
export type TerrainPalette = z.infer<typeof TerrainPaletteSchema>;
