import { z } from "zod";
import { MAX_HORIZONTAL } from "./Limits.js";

/** Local recipe coordinates may exceed the world so that transforms can bring them back; results are checked. */
const LOCAL = 4 * MAX_HORIZONTAL;
const coord = z.number().int().min(-LOCAL).max(LOCAL);

export const Vec3Schema = z.strictObject({ x: coord, y: coord, z: coord });
export type Vec3 = z.infer<typeof Vec3Schema>;

const PALETTE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** A block state string (validated against the registry at compile time) or a palette reference. */
export const BlockRefSchema = z.union([
  z.string().min(1).max(1024),
  z.strictObject({ palette: z.string().regex(PALETTE_NAME) }),
]);
export type BlockRef = z.infer<typeof BlockRefSchema>;

export const BoxSchema = z.strictObject({
  type: z.literal("box"),
  min: Vec3Schema,
  max: Vec3Schema,
  block: BlockRefSchema,
  /** Only the six faces. */
  hollow: z.boolean().optional(),
});

export const LineSchema = z.strictObject({
  type: z.literal("line"),
  from: Vec3Schema,
  to: Vec3Schema,
  block: BlockRefSchema,
});

export const CylinderSchema = z.strictObject({
  type: z.literal("cylinder"),
  /** Centre of the base disk; the cylinder extends `height` blocks along +axis. */
  center: Vec3Schema,
  radius: z.number().int().min(0).max(256),
  height: z.number().int().min(1).max(4096),
  block: BlockRefSchema,
  /** Side wall only, no caps (a tube). */
  hollow: z.boolean().optional(),
  axis: z.enum(["x", "y", "z"]).optional(),
});

export const ArchSchema = z.strictObject({
  type: z.literal("arch"),
  /** The arch spans min..max along `axis`, rises from min.y (springline) to max.y, and is as deep as the box along the other horizontal axis. */
  min: Vec3Schema,
  max: Vec3Schema,
  axis: z.enum(["x", "z"]),
  block: BlockRefSchema,
  /** Ring thickness measured inward; default 1. */
  thickness: z.number().int().min(1).max(1024).optional(),
});

export const ReplaceSchema = z.strictObject({
  type: z.literal("replace"),
  min: Vec3Schema,
  max: Vec3Schema,
  /** Source filter: `minecraft:id` matches every state of the block, `minecraft:id[...]` one exact state. */
  from: z.array(z.string().min(1).max(1024)).min(1).max(64),
  block: BlockRefSchema,
});

export const RepeatSchema = z.strictObject({
  type: z.literal("repeat"),
  count: z.number().int().min(1).max(1_024),
  /** Added once per iteration: copy k is shifted by k × offset. */
  offset: Vec3Schema,
  get operations(): z.ZodArray<typeof OperationSchema> {
    return z.array(OperationSchema).min(1).max(1_000);
  },
});

export const TransformSchema = z.strictObject({
  type: z.literal("transform"),
  /** Centre of rotation and mirroring; default origin. */
  anchor: Vec3Schema.optional(),
  /** Clockwise degrees seen from above, applied after the mirror. */
  rotate: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).optional(),
  mirror: z.enum(["x", "z"]).optional(),
  /** Added after rotation. */
  translate: Vec3Schema.optional(),
  get operations(): z.ZodArray<typeof OperationSchema> {
    return z.array(OperationSchema).min(1).max(1_000);
  },
});

export const OperationSchema: z.ZodDiscriminatedUnion<
  [typeof BoxSchema, typeof LineSchema, typeof CylinderSchema, typeof ArchSchema, typeof ReplaceSchema, typeof RepeatSchema, typeof TransformSchema],
  "type"
> = z.discriminatedUnion("type", [BoxSchema, LineSchema, CylinderSchema, ArchSchema, ReplaceSchema, RepeatSchema, TransformSchema]);

export type BoxOp = z.infer<typeof BoxSchema>;
export type LineOp = z.infer<typeof LineSchema>;
export type CylinderOp = z.infer<typeof CylinderSchema>;
export type ArchOp = z.infer<typeof ArchSchema>;
export type ReplaceOp = z.infer<typeof ReplaceSchema>;
export type RepeatOp = z.infer<typeof RepeatSchema>;
export type TransformOp = z.infer<typeof TransformSchema>;
export type Operation = z.infer<typeof OperationSchema>;

const OperationsSchema = z.array(OperationSchema).min(1).max(1_000);

export const PaletteSchema = z.strictObject({
  choices: z
    .array(z.strictObject({ block: z.string().min(1).max(1024), weight: z.number().int().min(1).max(1_000_000) }))
    .min(1)
    .max(64),
  /** Overrides the recipe seed for this palette. */
  seed: z.number().int().min(0).max(0xffffffff).optional(),
});
export type Palette = z.infer<typeof PaletteSchema>;

export const RecipeSchema = z.strictObject({
  version: z.literal(1),
  /** Seed of weighted palettes; default 0. Same seed, same plan. */
  seed: z.number().int().min(0).max(0xffffffff).optional(),
  palettes: z
    .record(z.string().regex(PALETTE_NAME), PaletteSchema)
    .refine((p) => Object.keys(p).length <= 64, "at most 64 palettes")
    .optional(),
  operations: OperationsSchema,
});
export type Recipe = z.infer<typeof RecipeSchema>;

