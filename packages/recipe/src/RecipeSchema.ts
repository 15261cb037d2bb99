import { z } from "zod";
import { MAX_HORIZONTAL } from "./Limits.js";

/** Local recipe coordinates may exceed the world so that transforms can bring them back; results are checked. */
const LOCAL = 4 * MAX_HORIZONTAL;
const coord = z.number().int().min(-LOCAL).max(LOCAL);

export const Vec3Schema = z
  .strictObject({ x: coord.describe("east (+) / west (−)"), y: coord.describe("height"), z: coord.describe("south (+) / north (−)") })
  .describe("integer block position {x, y, z}");
export type Vec3 = z.infer<typeof Vec3Schema>;

const PALETTE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** A block state string (validated against the registry at compile time) or a palette reference. */
export const BlockRefSchema = z
  .union([
    z.string().min(1).max(1024).describe('block state "minecraft:id[property=value,...]"; omitted properties take the game defaults'),
    z.strictObject({ palette: z.string().regex(PALETTE_NAME).describe("name of a palette in the recipe's palettes") }).describe("a weighted pick from a named palette"),
  ])
  .describe('a block state string such as "minecraft:oak_stairs[facing=north]", or {"palette": name}');
export type BlockRef = z.infer<typeof BlockRefSchema>;

/** Boxes left out of an operation (openings): nothing is written there, whatever is there stays. */
const ExcludeSchema = z
  .array(z.strictObject({ min: Vec3Schema.describe("corner"), max: Vec3Schema.describe("opposite corner") }))
  .min(1)
  .max(64)
  .optional()
  .describe("boxes left unwritten (openings such as doors and windows)");

export const BoxSchema = z.strictObject({
  type: z.literal("box").describe("inclusive box"),
  min: Vec3Schema.describe("one corner (inclusive)"),
  max: Vec3Schema.describe("the opposite corner (inclusive)"),
  block: BlockRefSchema,
  hollow: z.union([z.boolean(), z.literal("walls")]).optional().describe('true: only the six faces; "walls": the four sides, no floor or ceiling; default false'),
  exclude: ExcludeSchema,
}).describe("box(min, max, block, hollow?, exclude?)");

export const LineSchema = z.strictObject({
  type: z.literal("line").describe("digital line, both ends included"),
  from: Vec3Schema.describe("first end"),
  to: Vec3Schema.describe("last end"),
  block: BlockRefSchema,
}).describe("line(from, to, block)");

export const CylinderSchema = z.strictObject({
  type: z.literal("cylinder").describe("cylinder along an axis"),
  center: Vec3Schema.describe("centre of the base disk; the cylinder extends height blocks along +axis"),
  radius: z.number().int().min(0).max(256).describe("cells with u² + v² ≤ r² + r are inside"),
  height: z.number().int().min(1).max(4096).describe("blocks along +axis, base included"),
  block: BlockRefSchema,
  hollow: z.boolean().optional().describe("side wall only, no caps (a tube); default false"),
  axis: z.enum(["x", "y", "z"]).optional().describe("default y (upright)"),
  exclude: ExcludeSchema,
}).describe("cylinder(center, radius, height, block, hollow?, axis?, exclude?)");

export const ArchSchema = z.strictObject({
  type: z.literal("arch").describe("semi-elliptical arch ring"),
  min: Vec3Schema.describe("corner: the arch spans min..max along axis and rises from min.y (springline) to max.y"),
  max: Vec3Schema.describe("opposite corner; the arch is as deep as the box along the other horizontal axis"),
  axis: z.enum(["x", "z"]).describe("horizontal direction the arch spans"),
  block: BlockRefSchema,
  thickness: z.number().int().min(1).max(1024).optional().describe("ring thickness measured inward; default 1"),
}).describe("arch(min, max, axis, block, thickness?)");

export const ReplaceSchema = z.strictObject({
  type: z.literal("replace").describe("box written only where the current block matches"),
  min: Vec3Schema.describe("one corner (inclusive)"),
  max: Vec3Schema.describe("the opposite corner (inclusive)"),
  from: z
    .array(z.string().min(1).max(1024).describe('"minecraft:id" matches every state of the block, "minecraft:id[...]" one exact state'))
    .min(1)
    .max(64)
    .describe("source filter, resolved against the world at preparation"),
  block: BlockRefSchema,
  exclude: ExcludeSchema,
}).describe("replace(min, max, from[], block, exclude?)");

/** Most single blocks one operation lists. */
export const MAX_LISTED_BLOCKS = 4096;

export const BlocksSchema = z.strictObject({
  type: z.literal("blocks").describe("single blocks"),
  blocks: z
    .array(z.strictObject({ x: coord.describe("x"), y: coord.describe("y"), z: coord.describe("z"), block: BlockRefSchema }))
    .min(1)
    .max(MAX_LISTED_BLOCKS)
    .describe(`up to ${MAX_LISTED_BLOCKS} {x, y, z, block}, each position once`),
}).describe("blocks([{x, y, z, block}])");

const ColumnSchema = z.strictObject({ x: coord.describe("x"), z: coord.describe("z") });

export const RoofSchema = z.strictObject({
  type: z.literal("roof").describe("roof over a rectangle"),
  min: ColumnSchema.describe("one corner column of the walls' outline"),
  max: ColumnSchema.describe("opposite corner column"),
  y: coord.describe("height of the lowest course over the outline (wall top + 1); eaves step down from it"),
  style: z.enum(["gable", "hip", "flat"]).describe("gable: two slopes and end triangles; hip: four slopes; flat: one slab layer"),
  axis: z.enum(["x", "z"]).optional().describe("gable ridge direction (default: the longer side)"),
  stairs: z.string().min(1).max(256).optional().describe('stairs block for the slopes, e.g. "spruce_stairs" (gable and hip)'),
  slab: z.string().min(1).max(256).describe('slab block for the ridge (and the half steps of pitch 2), e.g. "spruce_slab"'),
  pitch: z.literal([1, 2]).optional().describe("run per block of rise: 1 (45°, default) or 2 (half steps)"),
  overhang: z.number().int().min(0).max(2).optional().describe("eaves beyond the outline, 0–2 (default 1)"),
  gable_block: BlockRefSchema.optional().describe("fills the gable end triangles under the roof"),
}).describe("roof(min, max, y, style, stairs?, slab, axis?, pitch?, overhang?, gable_block?): stairs face up-slope, hips get outer corners, slabs cap the ridge");

export const RepeatSchema = z.strictObject({
  type: z.literal("repeat").describe("copies of nested operations"),
  count: z.number().int().min(1).max(1_024).describe("number of copies (copy 0 is unshifted)"),
  offset: Vec3Schema.describe("copy k is shifted by k × offset"),
  get operations(): z.ZodArray<typeof OperationSchema> {
    return z.array(OperationSchema).min(1).max(1_000).describe("operations to repeat");
  },
}).describe("repeat(count, offset, operations)");

export const TransformSchema = z.strictObject({
  type: z.literal("transform").describe("rotate, mirror and move nested operations (block states turn with them)"),
  anchor: Vec3Schema.optional().describe("centre of rotation and mirroring; default {0,0,0}"),
  rotate: z.literal([0, 90, 180, 270]).optional().describe("clockwise degrees seen from above, applied after the mirror: 0, 90, 180 or 270"),
  mirror: z.enum(["x", "z"]).optional().describe("flip along this axis, before the rotation"),
  translate: Vec3Schema.optional().describe("added after the rotation"),
  get operations(): z.ZodArray<typeof OperationSchema> {
    return z.array(OperationSchema).min(1).max(1_000).describe("operations to transform");
  },
}).describe("transform(anchor?, rotate?, mirror?, translate?, operations): p ↦ anchor + R(M(p − anchor)) + translate");

export const OperationSchema: z.ZodDiscriminatedUnion<
  [typeof BoxSchema, typeof LineSchema, typeof CylinderSchema, typeof ArchSchema, typeof ReplaceSchema, typeof BlocksSchema, typeof RoofSchema, typeof RepeatSchema, typeof TransformSchema],
  "type"
> = z
  .discriminatedUnion("type", [BoxSchema, LineSchema, CylinderSchema, ArchSchema, ReplaceSchema, BlocksSchema, RoofSchema, RepeatSchema, TransformSchema])
  .describe("one operation, chosen by type");

export type BoxOp = z.infer<typeof BoxSchema>;
export type LineOp = z.infer<typeof LineSchema>;
export type CylinderOp = z.infer<typeof CylinderSchema>;
export type ArchOp = z.infer<typeof ArchSchema>;
export type ReplaceOp = z.infer<typeof ReplaceSchema>;
export type RepeatOp = z.infer<typeof RepeatSchema>;
export type TransformOp = z.infer<typeof TransformSchema>;
export type BlocksOp = z.infer<typeof BlocksSchema>;
export type RoofOp = z.infer<typeof RoofSchema>;
export type Operation = z.infer<typeof OperationSchema>;

const OperationsSchema = z.array(OperationSchema).min(1).max(1_000).describe("operations in order; later ones win where positions overlap");

export const PaletteSchema = z
  .strictObject({
    choices: z
      .array(
        z.strictObject({
          block: z.string().min(1).max(1024).describe("block state string"),
          weight: z.number().int().min(1).max(1_000_000).describe("relative weight"),
        }),
      )
      .min(1)
      .max(64)
      .describe("weighted block states"),
    seed: z.number().int().min(0).max(0xffffffff).optional().describe("overrides the recipe seed for this palette"),
  })
  .describe("weighted palette: picks depend only on (seed, palette name, world position)");
export type Palette = z.infer<typeof PaletteSchema>;

export const RecipeSchema = z
  .strictObject({
    version: z.literal(1).describe("recipe language version: 1"),
    seed: z.number().int().min(0).max(0xffffffff).optional().describe("seed of weighted palettes; default 0. Same seed, same plan"),
    palettes: z
      .record(z.string().regex(PALETTE_NAME), PaletteSchema)
      .refine((p) => Object.keys(p).length <= 64, "at most 64 palettes")
      .optional()
      .describe("named weighted palettes (at most 64), used as block: {palette: name}"),
    operations: OperationsSchema,
    connections: z
      .enum(["auto", "pinned"])
      .optional()
      .describe(
        'fences, panes, bars, walls and stairs: "auto" (default) computes their connections and stair corners from their neighbours at preparation, and existing ones next to the build join it; "pinned" keeps every state exactly as written',
      ),
  })
  .describe("a building recipe (JSON data, never code)");
export type Recipe = z.infer<typeof RecipeSchema>;

