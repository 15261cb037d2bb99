import { z } from "zod";
import { MAX_HORIZONTAL } from "./Limits.js";

/** Local recipe coordinates may exceed the world so that transforms can bring them back; results are checked. */
const LOCAL = 4 * MAX_HORIZONTAL;
const coord = z.number().int().min(-LOCAL).max(LOCAL);

export const Vec3Schema = z
  .strictObject({ x: coord.describe("east (+) / west (−)"), y: coord.describe("height"), z: coord.describe("south (+) / north (−)") })
  .describe("position");
export type Vec3 = z.infer<typeof Vec3Schema>;

const PALETTE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** A block state string (validated against the registry at compile time) or a palette reference. */
export const BlockRefSchema = z
  .union([
    z.string().min(1).max(1024).describe('block state "minecraft:id[property=value,...]"; omitted properties take the game defaults'),
    z
      .strictObject({ palette: z.string().regex(PALETTE_NAME).describe("name of a palette in the recipe's palettes") })
      .describe("a weighted pick from a named palette"),
  ])
  .meta({ id: "block" })
  .describe("block");
export type BlockRef = z.infer<typeof BlockRefSchema>;

/** Boxes left out of an operation (openings): nothing is written there, whatever is there stays. */
const ExcludeSchema = z
  .array(z.strictObject({ min: Vec3Schema.describe("corner"), max: Vec3Schema.describe("other corner") }))
  .min(1)
  .max(64)
  .optional()
  .describe("openings");

export const BoxSchema = z
  .strictObject({
    type: z.literal("box").describe("inclusive box"),
    min: Vec3Schema.describe("corner"),
    max: Vec3Schema.describe("other corner"),
    block: BlockRefSchema,
    hollow: z
      .union([z.boolean(), z.literal("walls")])
      .optional()
      .describe('true: 6 faces; "walls": 4 sides'),
    exclude: ExcludeSchema,
  })
  .describe("box");

export const LineSchema = z
  .strictObject({
    type: z.literal("line").describe("digital line, both ends included"),
    from: Vec3Schema.describe("first end"),
    to: Vec3Schema.describe("last end"),
    block: BlockRefSchema,
  })
  .describe("line");

export const CylinderSchema = z
  .strictObject({
    type: z.literal("cylinder").describe("cylinder along an axis"),
    center: Vec3Schema.describe("base centre"),
    radius: z.number().int().min(0).max(256).describe("radius"),
    height: z.number().int().min(1).max(4096).describe("length"),
    block: BlockRefSchema,
    hollow: z.boolean().optional().describe("no caps"),
    axis: z.enum(["x", "y", "z"]).optional().describe("default y"),
    exclude: ExcludeSchema,
  })
  .describe("cylinder");

export const ArchSchema = z
  .strictObject({
    type: z.literal("arch").describe("half-ellipse ring, springline min.y"),
    min: Vec3Schema.describe("corner"),
    max: Vec3Schema.describe("other corner"),
    axis: z.enum(["x", "z"]).describe("span axis"),
    block: BlockRefSchema,
    thickness: z.number().int().min(1).max(1024).optional().describe("default 1"),
  })
  .describe("half-ellipse ring, springline min.y");

export const ReplaceSchema = z
  .strictObject({
    type: z.literal("replace").describe("box written only where the current block matches"),
    min: Vec3Schema.describe("corner"),
    max: Vec3Schema.describe("other corner"),
    from: z.array(z.string().min(1).max(1024).describe("id or exact state")).min(1).max(64).describe("replaced blocks"),
    block: BlockRefSchema,
    exclude: ExcludeSchema,
  })
  .describe("only over from blocks");

/** Most single blocks one operation lists. */
export const MAX_LISTED_BLOCKS = 4096;

export const BlocksSchema = z
  .strictObject({
    type: z.literal("blocks").describe("listed blocks"),
    blocks: z
      .array(
        z
          .strictObject({ x: coord.describe("east"), y: coord.describe("height"), z: coord.describe("south"), block: BlockRefSchema })
          .describe("block at a position"),
      )
      .min(1)
      .max(MAX_LISTED_BLOCKS)
      .describe("distinct positions"),
  })
  .describe("listed blocks");

const ColumnSchema = z.strictObject({ x: coord.describe("x"), z: coord.describe("z") });

export const RoofSchema = z
  .strictObject({
    type: z.literal("roof").describe("roof over a rectangle"),
    min: ColumnSchema.optional().describe("corner"),
    max: ColumnSchema.optional().describe("other corner"),
    footprint: z
      .array(z.strictObject({ min: ColumnSchema, max: ColumnSchema }))
      .min(1)
      .max(8)
      .optional()
      .describe("L/T/U: rectangles, not min/max"),
    y: coord.describe("wall top + 1"),
    style: z.enum(["gable", "hip", "flat"]).describe("style"),
    axis: z.enum(["x", "z"]).optional().describe("ridge axis"),
    stairs: z.string().min(1).max(256).optional().describe('e.g. "spruce_stairs"'),
    slab: z.string().min(1).max(256).describe('e.g. "spruce_slab"'),
    pitch: z.literal([1, 2]).optional().describe("run per rise, default 1"),
    overhang: z.number().int().min(0).max(2).optional().describe("default 1"),
    gable_block: BlockRefSchema.optional().describe("fills the gable ends"),
  })
  .describe("over the walls' outline");

export const RepeatSchema = z
  .strictObject({
    type: z.literal("repeat").describe("copies of nested operations"),
    count: z.number().int().min(1).max(1_024).describe("copies"),
    offset: Vec3Schema.describe("shift per copy"),
    get operations(): z.ZodArray<typeof OperationSchema> {
      return z.array(OperationSchema).min(1).max(1_000).describe("operations");
    },
  })
  .describe("copies");

export const TransformSchema = z
  .strictObject({
    type: z.literal("transform").describe("rotate, mirror and move nested operations (block states turn with them)"),
    anchor: Vec3Schema.optional().describe("pivot"),
    rotate: z.literal([0, 90, 180, 270]).optional().describe("clockwise, after mirror"),
    mirror: z.enum(["x", "z"]).optional().describe("flip axis"),
    translate: Vec3Schema.optional().describe("added last"),
    get operations(): z.ZodArray<typeof OperationSchema> {
      return z.array(OperationSchema).min(1).max(1_000).describe("operations");
    },
  })
  .describe("states turn too");

export const OperationSchema: z.ZodDiscriminatedUnion<
  [
    typeof BoxSchema,
    typeof LineSchema,
    typeof CylinderSchema,
    typeof ArchSchema,
    typeof ReplaceSchema,
    typeof BlocksSchema,
    typeof RoofSchema,
    typeof RepeatSchema,
    typeof TransformSchema,
  ],
  "type"
> = z
  .discriminatedUnion("type", [BoxSchema, LineSchema, CylinderSchema, ArchSchema, ReplaceSchema, BlocksSchema, RoofSchema, RepeatSchema, TransformSchema])
  .describe("operation");

/** The operation types, in the schema's order: what docs, guidance and test generators are checked against. */
export const OPERATION_TYPES: readonly Operation["type"][] = OperationSchema.options.map((o) => o.shape.type.value);

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

const OperationsSchema = z.array(OperationSchema).min(1).max(1_000).describe("in order; later ones win");

export const PaletteSchema = z
  .strictObject({
    choices: z
      .array(
        z.strictObject({
          block: z.string().min(1).max(1024).describe("state"),
          weight: z.number().int().min(1).max(1_000_000).describe("weight"),
        }),
      )
      .min(1)
      .max(64)
      .describe("choices"),
    seed: z.number().int().min(0).max(0xffffffff).optional().describe("own seed"),
  })
  .describe("weighted palette");
export type Palette = z.infer<typeof PaletteSchema>;

export const RecipeSchema = z
  .strictObject({
    version: z.literal(1).describe("1"),
    seed: z.number().int().min(0).max(0xffffffff).optional().describe("default 0"),
    palettes: z
      .record(z.string().regex(PALETTE_NAME), PaletteSchema)
      .refine((p) => Object.keys(p).length <= 64, "at most 64 palettes")
      .optional()
      .describe("use as block {palette: name}"),
    operations: OperationsSchema,
    connections: z.enum(["auto", "pinned"]).optional().describe("auto: fences, walls, stairs join (default)"),
  })
  .describe("recipe");
export type Recipe = z.infer<typeof RecipeSchema>;
