import { z } from "zod";

/** Shared MCP input/output schemas (zod; the SDK publishes them as JSON Schema). */
const int = z.number().int();
export const Vec3 = z.strictObject({ x: int, y: int, z: int });
export const Region = z.object({ min: Vec3, max: Vec3 });

export const PrepareOutput = z.looseObject({
  plan_id: z.string(),
  plan_hash: z.string(),
  kind: z.enum(["build", "undo"]),
  changed_blocks: int,
  unchanged_blocks: int,
  filtered_blocks: int,
  dependencies: int,
  region: Region.nullable(),
  expires_at: z.string(),
  materials: z.array(z.object({ state: z.string(), count: int })),
  materials_truncated: z.boolean(),
  warnings: z.array(z.string()),
});

export const OperationOutput = z.looseObject({
  operation_id: z.string(),
  plan_id: z.string(),
  kind: z.enum(["build", "undo"]),
  undo_of: z.string().nullable(),
  status: z.string(),
  counters: z.object({ total: int, written: int, skipped: int, conflicts: int, slices_done: int, slices_total: int, unconfirmed: int }),
  conflicts: z.array(z.looseObject({ pos: Vec3, kind: z.string(), expected: z.string(), actual: z.string() })),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  undoable: z.boolean(),
  undone_by: z.string().nullable(),
});

export const PartOutput = z.looseObject({ part_id: z.string(), name: z.string(), operation_id: z.string(), bounds: Region, count: int });

export const AssetOutput = z.object({
  assetId: z.string(),
  name: z.string(),
  width: int,
  height: int,
  length: int,
  blockCount: int,
  dataVersion: int,
  offset: Vec3,
  sha256: z.string(),
  bytes: int,
});

export const Pose = z.strictObject({
  x: z.number(),
  y: z.number(),
  z: z.number(),
  yaw: z.number(),
  pitch: z.number().min(-90).max(90),
  fov: z.number().min(30).max(110).optional(),
  width: int.min(16).max(1920).optional(),
  height: int.min(16).max(1080).optional(),
});
