import { OPERATION_KINDS, OPERATION_STATUSES } from "@mcb/engine";
import { z } from "zod";

/**
 * Shared MCP schemas (zod; tools/list publishes them as JSON Schema). Inputs describe every field.
 * Outputs are strict: every key a tool sends is declared here (a result with an undeclared key is
 * a server bug, never sent), and every declared key is snake_case — one wire spelling everywhere.
 */
const int = z.number().int();

// ---- inputs ------------------------------------------------------------------------------------

export const Vec3 = z
  .strictObject({ x: int.describe("east (+) / west (−)"), y: int.describe("height"), z: int.describe("south (+) / north (−)") })
  .describe("position");
export const Column = z.strictObject({ x: int.describe("east (+) / west (−)"), z: int.describe("south (+) / north (−)") }).describe("column {x, z}");
export const OperationId = z.string().max(128).describe("operation id");
export const PartId = z.string().max(128).describe("part id or name");

/** How a prepare meets people's edits: the inputs every tool that prepares a plan takes. */
export const ManualEditInputs = {
  on_manual_edit: z.enum(["refuse", "keep"]).optional().describe("refuse (default) or keep"),
  replace: z.array(Vec3).max(4096).optional().describe("edits to overwrite (owner agreed)"),
};

export const Pose = z
  .strictObject({
    x: z.number().describe("feet x"),
    y: z.number().describe("feet y"),
    z: z.number().describe("feet z"),
    yaw: z.number().optional().describe("0 south, 90 west"),
    pitch: z.number().min(-90).max(90).optional().describe("+90 down, −90 up"),
    look_at: Vec3.optional().describe("or face this block"),
    fov: z.number().min(30).max(110).optional().describe("default 70"),
    width: int.min(16).max(1920).optional().describe("default 640"),
    height: int.min(16).max(1080).optional().describe("default 360"),
  })
  .describe("camera: yaw+pitch or look_at")
  .meta({ id: "pose" }); // a shared term: published as "pose", defined once in the server instructions

// ---- outputs -----------------------------------------------------------------------------------

const Vec3Out = z.strictObject({ x: int, y: int, z: int });
export const RegionOut = z.strictObject({ min: Vec3Out, max: Vec3Out });
export const ColumnRectOut = z.strictObject({ min: z.strictObject({ x: int, z: int }), max: z.strictObject({ x: int, z: int }) });
export const Status = z.enum(OPERATION_STATUSES);

export const ConflictOutput = z.strictObject({
  pos: Vec3Out,
  kind: z.enum(["write", "dependency"]),
  expected: z.string(),
  actual: z.string(),
  data_changed: z.boolean(),
  changed_since_prepare: z.boolean(),
});

const ManualEditSampleOut = z.strictObject({ pos: Vec3Out, expected: z.string().nullable(), actual: z.string(), new: z.string() });
export const ManualEditsOutput = z.strictObject({
  kept: int,
  conflicts: int,
  replaced: int,
  sample: z.array(ManualEditSampleOut.extend({ outcome: z.enum(["kept", "replaced"]) })),
});

export const PrepareFields = {
  plan_id: z.string(),
  plan_hash: z.string(),
  kind: z.enum(["build", "undo"]),
  changed_blocks: int,
  unchanged_blocks: int,
  filtered_blocks: int,
  dependencies: int,
  region: RegionOut.nullable(),
  expires_at: z.string(),
  materials: z.array(z.strictObject({ state: z.string(), count: int })),
  materials_truncated: z.boolean(),
  warnings: z.array(z.string()),
  manual_edits: ManualEditsOutput,
};
export const PrepareOutput = z.strictObject(PrepareFields);

export const Kind = z.enum(OPERATION_KINDS);
const ErrorOut = z.strictObject({ code: z.string(), message: z.string() });
/** The part an apply named (part_name): pending while both are null. */
export const NamedPart = z.strictObject({ name: z.string(), part_id: z.string().nullable(), error: ErrorOut.nullable() }).nullable();
/** A prepare's `apply`: the operation in brief (operation_status has the rest). */
export const AppliedOutput = z.strictObject({
  operation_id: z.string(),
  status: z.enum(OPERATION_STATUSES),
  written: z.number().int(),
  total: z.number().int(),
  conflicts: z.number().int(),
  part: NamedPart,
  error: ErrorOut.nullable(),
  saved: z.boolean().nullable(),
});
export const OperationOutput = z.strictObject({
  operation_id: z.string(),
  plan_id: z.string(),
  kind: Kind,
  undo_of: z.string().nullable(),
  status: Status,
  counters: z.strictObject({ total: int, written: int, skipped: int, conflicts: int, slices_done: int, slices_total: int, unconfirmed: int, lost: int }),
  saved: z.boolean().nullable(),
  conflicts: z.array(ConflictOutput),
  error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  undoable: z.boolean(),
  undone_by: z.string().nullable(),
  part: NamedPart,
  cancel_requested: z.boolean(),
  client: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const OperationSummaryOutput = z.strictObject({
  operation_id: z.string(),
  kind: Kind,
  status: Status,
  undo_of: z.string().nullable(),
  part_id: z.string().nullable(),
  written: int,
  total: int,
  conflicts: int,
  undoable: z.boolean(),
  undone_by: z.string().nullable(),
  client: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const PartOutput = z.strictObject({
  part_id: z.string(),
  name: z.string(),
  operation_id: z.string(),
  operation_ids: z.array(z.string()),
  bounds: RegionOut.nullable(),
  count: int,
  protection: z.strictObject({ mode: z.literal("exact_mask"), description: z.string() }),
  revision: int,
  retired: z.boolean(),
  created_at: z.string(),
});

/** part_get: a part and the blocks it took over from other parts, by part. */
export const PartDetailOutput = PartOutput.extend({ taken_over: z.array(z.strictObject({ part_id: z.string(), count: int })) });

export const PartDiffOutput = z.strictObject({
  part_id: z.string().nullable(),
  operation_id: z.string().nullable(),
  parts: z.array(z.strictObject({ part_id: z.string(), name: z.string(), positions: int, changed: int, observed: int })).optional(),
  positions: int,
  changed: int,
  observed: int,
  boxes: z.array(RegionOut),
  boxes_truncated: z.boolean(),
  sample: z.array(z.strictObject({ pos: Vec3Out, expected: z.string(), actual: z.string(), observed: z.boolean() })),
  observed_at: z.string(),
});

/** What an import leaves behind, by category (only the categories present). */
export const LossOutput = z.strictObject({
  entities: z.strictObject({ count: int, by_type: z.record(z.string(), int) }).optional(),
  biomes: z.strictObject({ palette: z.array(z.string()), cells: int }).optional(),
  orphaned_block_entities: z
    .strictObject({ count: int, sample: z.array(z.strictObject({ x: int, y: int, z: int, id: z.string(), block: z.string() })) })
    .optional(),
  unknown_fields: z.array(z.string()).optional(),
  unknown_blocks: z.strictObject({ count: int, states: z.array(z.strictObject({ state: z.string(), count: int, why: z.string() })) }).optional(),
  dropped_properties: z.strictObject({ count: int, sample: z.array(z.strictObject({ state: z.string(), dropped: z.array(z.string()) })) }).optional(),
});

export const AssetOutput = z.strictObject({
  asset_id: z.string(),
  name: z.string(),
  width: int,
  height: int,
  length: int,
  block_count: int,
  data_version: int,
  offset: Vec3Out,
  sha256: z.string(),
  bytes: int,
  format: z.enum(["sponge_v1", "sponge_v2", "sponge_v3", "litematic", "structure"]),
  block_entities: int,
  loss: LossOutput,
  source_data_version: int,
  notes: z.array(z.string()),
});

export const PoseOutput = z.strictObject({
  x: z.number(),
  y: z.number(),
  z: z.number(),
  yaw: z.number(),
  pitch: z.number(),
  fov: z.number().optional(),
  width: int.optional(),
  height: int.optional(),
});

/** A background batch's answer (terrain_apply, schematic_paste), its id under `idKey`. */
export function jobOutput<K extends string>(idKey: K) {
  const error = z.strictObject({ code: z.string(), message: z.string() });
  return z.strictObject({
    ...({ [idKey]: z.string() } as Record<K, z.ZodString>),
    state: z.enum(["running", "done", "stopped", "failed"]),
    tiles: z.strictObject({ total: int, applied: int, empty: int, conflicts: int, unfinished: int }),
    written_blocks: int,
    operation_ids: z.array(z.string()),
    current_operation_id: z.string().nullable(),
    part: z.strictObject({ name: z.string(), part_id: z.string().nullable(), error: error.nullable() }).nullable(),
    error: error.nullable(),
  });
}
