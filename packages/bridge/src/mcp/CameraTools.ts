import { randomBytes } from "node:crypto";
import { fail, mcbError, ok } from "@mcb/blocks";
import { CAPTURE_LIMITS, DEFAULT_VIEW_DISTANCE, FRAME_SIDES, MAX_VIEW_DISTANCE, lookAtAngles, type CameraPose } from "@mcb/render";
import { captureFramed } from "../workspace/capture/FramedCapture.js";
import { captureProjectView } from "../workspace/capture/ProjectCapture.js";
import { z } from "zod";
import type { McpContext } from "../workspace/agent/McpContext.js";
import type { ToolTable } from "./ToolTable.js";
import { OperationId, PartId, Pose, PoseOutput, RegionOut, Vec3 } from "./Schemas.js";
import { toolResult, type ToolImage } from "./ToolResult.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { hasEnded, type WorldAdapter } from "@mcb/engine";
import type { Box3 } from "@mcb/blocks";
import { PREVIEW_OVERLAYS, planPreview, type PreviewOverlay } from "../workspace/capture/PlanPreview.js";
import { DEFAULT_FORMAT, DEFAULT_QUALITY, encodeImage, IMAGE_FORMATS } from "../workspace/capture/ImageFormat.js";
import type { Result } from "@mcb/blocks";

/** A pose argument: yaw and pitch, or look_at (turned into them), never both. Errors: invalid_request (`reason: "pose"`). */
function poseOf(arg: z.infer<typeof Pose>): Result<CameraPose> {
  const { yaw, pitch, look_at, ...at } = arg;
  if (look_at !== undefined) {
    if (yaw !== undefined || pitch !== undefined) return fail(mcbError("invalid_request", "give yaw and pitch, or look_at, not both", { reason: "pose" }));
    return ok({ ...at, ...lookAtAngles(at, look_at) });
  }
  if (yaw === undefined || pitch === undefined) return fail(mcbError("invalid_request", "a pose needs yaw and pitch, or look_at", { reason: "pose" }));
  return ok({ ...at, yaw, pitch });
}

type Vec = { x: number; y: number; z: number };

export const CaptureOutput = z.strictObject({
  status: z.literal("completed"),
  capture_id: z.string(),
  mime_type: z.enum(["image/jpeg", "image/webp", "image/png"]),
  quality: z.number().int().nullable(),
  width: z.number().int(),
  height: z.number().int(),
  pose: PoseOutput,
  camera_id: z.string().optional(),
  after_operation_id: z.string().optional(),
  eye: z.strictObject({ x: z.number(), y: z.number(), z: z.number() }),
  observed_at: z.string(),
  renderer: z.string(),
  sections_read: z.number().int(),
  sections_with_blocks: z.number().int(),
  sections_unloaded: z.number().int().describe("unloaded: empty"),
  hit_fraction: z.number(),
  inside_block: z.boolean(),
  frame: z
    .strictObject({ box: RegionOut, sides: z.array(z.enum(FRAME_SIDES)), poses: z.array(PoseOutput), blocked: z.array(z.enum(FRAME_SIDES)).optional() })
    .optional(),
  note: z.string().optional(),
  plan_id: z.string().optional(),
  overlay: z.enum(PREVIEW_OVERLAYS).optional(),
});

const Side = z.enum(FRAME_SIDES);
const Frame = z
  .strictObject({
    part_id: PartId.optional(),
    min: Vec3.optional().describe("box corner"),
    max: Vec3.optional().describe("other corner"),
    side: Side.optional().describe("default iso"),
    views: z.array(Side).min(1).max(4).optional().describe("sides tiled in one image"),
    width: z.number().int().min(16).max(CAPTURE_LIMITS.maxWidth).optional().describe("default 640"),
    height: z.number().int().min(16).max(CAPTURE_LIMITS.maxHeight).optional().describe("default 360"),
  })
  .describe("show a part or box whole");

/** A prepare's `preview`: the plan drawn as if applied, framed on its writes, in the same answer. */
export const PreviewInput = z
  .strictObject({
    side: Side.optional().describe("default iso"),
    views: z.array(Side).min(1).max(4).optional().describe("sides tiled"),
    overlay: z.enum(PREVIEW_OVERLAYS).optional().describe("default changes"),
  })
  .describe("picture, nothing written");

/** What a prepare's answer says of its preview, whose image follows the JSON (camera_capture {capture_id} tells the rest). */
export const PreviewOutput = z.strictObject({ capture_id: z.string(), overlay: z.string(), in_game: z.string().optional() });

/** A prepare's answer with its preview (the image after the JSON), or its refusal. */
export async function withPreview<T extends { readonly plan_id: string; readonly changed_blocks: number }>(
  m: McpContext,
  prepared: Result<T>,
  preview: z.infer<typeof PreviewInput>,
): Promise<CallToolResult> {
  if (!prepared.ok) return toolResult(prepared);
  if (prepared.value.changed_blocks === 0) return toolResult(prepared); // nothing to show: the world already holds it
  const { overlay, ...frame } = preview;
  const view = await captureView(m, { plan_id: prepared.value.plan_id, frame, ...(overlay === undefined ? {} : { overlay }) });
  if (!view.ok) return toolResult(view);
  const { capture_id } = view.value.meta as z.infer<typeof CaptureOutput>;
  const inGame = view.value.inGame;
  return toolResult(ok({ ...prepared.value, preview: { capture_id, overlay: overlay ?? "changes", ...(inGame === undefined ? {} : { in_game: inGame }) } }), [
    view.value.image,
  ]);
}

/** camera_capture's input. */
const CaptureInput = {
  frame: Frame.optional(),
  camera_id: z.string().max(64).optional().describe("saved viewpoint"),
  pose: Pose.optional(),
  capture_id: z.string().max(64).optional().describe("recent capture"),
  format: z.enum(IMAGE_FORMATS).optional().describe(`default ${DEFAULT_FORMAT}`),
  quality: z.number().int().min(1).max(100).optional().describe(`default ${DEFAULT_QUALITY}`),
  after_operation_id: OperationId.optional().describe("wait for this operation"),
  view_distance: z.number().int().min(8).max(MAX_VIEW_DISTANCE).optional().describe(`view distance, 8..${MAX_VIEW_DISTANCE}`),
  refresh: z.boolean().optional().describe("draw capture_id again"),
  plan_id: z.string().max(128).optional().describe("preview: as this plan leaves it"),
  overlay: z.enum(PREVIEW_OVERLAYS).optional().describe("changes (default) or none"),
};
const CaptureArgs = z.object(CaptureInput);
export type CaptureArgs = z.infer<typeof CaptureArgs>;

/** camera_list, camera_capture: the embedded software renderer over authoritative block reads. */
export function registerCameraTools(tools: ToolTable, m: McpContext): void {
  tools.register(
    "camera_list",
    {
      title: "List cameras",
      description: "Saved viewpoints and the renderer's status.",
      inputSchema: {},
      outputSchema: z.strictObject({
        cameras: z.array(z.strictObject({ camera_id: z.string(), pose: PoseOutput })),
        worker: z.strictObject({
          status: z.string(),
          kind: z.string(),
          default_width: z.number().int(),
          default_height: z.number().int(),
          default_fov: z.number(),
          view_distance: z.number().int(),
        }),
      }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async () =>
      toolResult(
        ok({
          cameras: m.cameras.list(),
          worker: {
            status: "ready",
            kind: "embedded_software_renderer",
            default_width: CAPTURE_LIMITS.defaultWidth,
            default_height: CAPTURE_LIMITS.defaultHeight,
            default_fov: CAPTURE_LIMITS.defaultFov,
            view_distance: DEFAULT_VIEW_DISTANCE,
          },
        }),
      ),
  );

  tools.register(
    "camera_capture",
    {
      title: "Capture a camera image",
      description:
        "Render a view: a framed part or box (1–4 sides tiled), a pose or a saved camera; plan_id: a prepared plan as if applied. JPEG 640×360 by default.",
      inputSchema: CaptureInput,
      outputSchema: CaptureOutput,
      annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
    },
    (args) => captureTool(m, args),
  );

  tools.register(
    "camera_save",
    {
      title: "Save a viewpoint",
      description: "Name a pose, or a recent capture's pose, for camera_capture.",
      inputSchema: {
        camera_id: z.string().max(64).describe("name: letters, digits, _ -"),
        pose: Pose.optional(),
        capture_id: z.string().max(64).optional().describe("recent capture (its first view)"),
      },
      outputSchema: z.strictObject({ camera_id: z.string(), pose: PoseOutput }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => {
      if ((args.pose === undefined) === (args.capture_id === undefined))
        return toolResult(fail(mcbError("invalid_request", "give pose or capture_id", { reason: "camera_or_pose" })));
      let pose: CameraPose;
      if (args.capture_id !== undefined) {
        const c = m.captures.get(args.capture_id);
        if (c === undefined) return toolResult(fail(mcbError("not_found", "no such capture (the last 8 are kept until restart)")));
        pose = c.meta.pose as CameraPose;
      } else {
        const p = poseOf(args.pose!);
        if (!p.ok) return toolResult(p);
        pose = p.value;
      }
      return toolResult(m.cameras.save(args.camera_id, pose));
    },
  );
}

/** A capture's answer: what it shows (the tool's structured result) and the image. */
export interface CaptureView {
  /** As CaptureOutput says (checked against it when the tool answers). */
  readonly meta: Record<string, unknown>;
  readonly image: ToolImage;
  /** In chat, what the player who asked was shown of the plan (also in the meta's note). */
  readonly inGame?: string;
}

/** camera_capture as a tool: the capture's answer with its image. */
async function captureTool(m: McpContext, args: CaptureArgs): Promise<CallToolResult> {
  const r = await captureView(m, args);
  return r.ok ? toolResult(ok(r.value.meta), [r.value.image]) : toolResult(r);
}

/**
 * camera_capture: one view (a pose, a saved camera), a framed part or box, or a recent capture
 * again; with plan_id, the world as that prepared plan will leave it (framed on its writes when no
 * view is given), nothing written.
 */
export async function captureView(m: McpContext, args: CaptureArgs): Promise<Result<CaptureView>> {
  const given = [args.frame, args.camera_id, args.pose, args.capture_id].filter((v) => v !== undefined).length;
  if (given !== 1 && !(given === 0 && args.plan_id !== undefined))
    return fail(mcbError("invalid_request", "give exactly one of frame, pose, camera_id and capture_id", { reason: "camera_or_pose" }));
  if (args.capture_id !== undefined) {
    if (args.plan_id !== undefined)
      return fail(mcbError("invalid_request", "a recent capture is not a preview: give plan_id with a view", { reason: "plan_id" }));
    return recapture(m, args.capture_id, args);
  }
  if (args.overlay !== undefined && args.plan_id === undefined)
    return fail(mcbError("invalid_request", "overlay marks a plan's changes: give plan_id with it", { reason: "overlay" }));
  let world: Pick<WorldAdapter, "read" | "info"> = m.world;
  let planBox: Box3 | undefined;
  if (args.plan_id !== undefined) {
    const preview = planPreview(m.engine, m.ctx, m.world, args.plan_id, args.overlay ?? "changes");
    if (!preview.ok) return preview;
    ({ world, box: planBox } = preview.value);
  }
  const named = givenPose(m, args);
  if (!named.ok) return named;
  let pose = named.value;
  const ready = await afterOperation(m, args.after_operation_id);
  if (!ready.ok) return ready;
  let c;
  let frame: { box: { min: Vec; max: Vec }; sides: (typeof FRAME_SIDES)[number][]; poses: CameraPose[]; blocked?: (typeof FRAME_SIDES)[number][] } | undefined;
  if (pose === null) {
    const request = { ...args.frame, ...(planBox === undefined ? {} : { box: planBox }) };
    const r = await captureFramed(m.engine, m.ctx, world, request, args.view_distance);
    if (!r.ok) return r;
    c = r.value.capture;
    pose = r.value.poses[0]!;
    const b = r.value.box;
    frame = {
      box: { min: { x: b.minX, y: b.minY, z: b.minZ }, max: { x: b.maxX, y: b.maxY, z: b.maxZ } },
      sides: [...(request.views ?? [request.side ?? "iso"])],
      poses: [...r.value.poses],
      ...(r.value.blocked.length === 0 ? {} : { blocked: [...r.value.blocked] }),
    };
  } else {
    const r = await captureProjectView(m.engine, m.ctx, world, pose, args.view_distance ?? DEFAULT_VIEW_DISTANCE);
    if (!r.ok) return r;
    c = r.value;
  }
  const image = await encodeImage(c.png, args.format ?? DEFAULT_FORMAT, args.quality ?? DEFAULT_QUALITY);
  if (!image.ok) return image;
  const captureId = `cap_${randomBytes(8).toString("hex")}`;
  // In chat, a preview is shown to the player who asked as well (ghost blocks where the server can).
  const inGame = args.plan_id !== undefined && m.showPlan !== undefined ? await m.showPlan(args.plan_id) : null;
  const notes: string[] = [];
  if (frame?.blocked !== undefined)
    notes.push(
      `the ${frame.blocked.join(" and ")} view's camera stands inside a block (something taller or wider is in the way): look from another side, or give a pose`,
    );
  if (inGame !== null) notes.push(`in game: ${inGame}`);
  const meta = {
    status: "completed" as const,
    capture_id: captureId,
    mime_type: image.value.mimeType,
    quality: image.value.quality,
    width: c.width,
    height: c.height,
    pose,
    ...(args.camera_id !== undefined ? { camera_id: args.camera_id } : {}),
    ...(args.after_operation_id !== undefined ? { after_operation_id: args.after_operation_id } : {}),
    ...(args.plan_id !== undefined ? { plan_id: args.plan_id, overlay: args.overlay ?? "changes" } : {}),
    eye: c.eye,
    observed_at: c.observedAt,
    renderer: "embedded_software_renderer",
    sections_read: c.sectionsRead,
    sections_with_blocks: c.sectionsWithBlocks,
    sections_unloaded: c.sectionsUnloaded,
    hit_fraction: Math.round(c.hitFraction * 10_000) / 10_000,
    inside_block: c.insideBlock,
    ...(frame === undefined ? {} : { frame }),
    ...(notes.length === 0 ? {} : { note: notes.join("; ") }),
  };
  m.captures.put({ captureId, capture: c, image: image.value, meta });
  return ok({ meta, image: { data: image.value.data, mimeType: image.value.mimeType }, ...(inGame === null ? {} : { inGame }) });
}

/** The pose a capture names (a saved camera's, or the pose given), null for a framed view. */
function givenPose(m: McpContext, args: CaptureArgs): Result<CameraPose | null> {
  if (args.camera_id !== undefined) {
    const saved = m.cameras.get(args.camera_id);
    return saved === undefined ? fail(mcbError("camera_unavailable", `no saved camera ${JSON.stringify(args.camera_id)}; see camera_list`)) : ok(saved.pose);
  }
  return args.pose === undefined ? ok(null) : poseOf(args.pose);
}

/** With after_operation_id: ready once that operation ended (capture_not_ready before). */
async function afterOperation(m: McpContext, operationId: string | undefined): Promise<Result<void>> {
  if (operationId === undefined) return ok(undefined);
  const op = await m.engine.operationStatus(m.ctx, { operation_id: operationId });
  if (!op.ok) return op;
  if (!hasEnded(op.value.status))
    return fail(
      mcbError("capture_not_ready", `operation ${op.value.operation_id} is ${op.value.status}; capture after it finishes`, { status: op.value.status }),
    );
  return ok(undefined);
}

/** A recent capture again: as it was, or encoded in another format or quality. */
async function recapture(m: McpContext, captureId: string, args: CaptureArgs): Promise<Result<CaptureView>> {
  const c = m.captures.get(captureId);
  if (c === undefined) return fail(mcbError("not_found", "no such capture (the last 8 are kept until restart)"));
  if (args.refresh === true) {
    // The same view drawn from the world as it is now: the framed box and sides, or the pose.
    const meta = c.meta as {
      pose: CameraPose;
      frame?: { box: { min: Vec; max: Vec }; sides: (typeof FRAME_SIDES)[number][] };
      plan_id?: string;
      overlay?: PreviewOverlay;
    };
    const view = meta.frame === undefined ? { pose: meta.pose } : { frame: { min: meta.frame.box.min, max: meta.frame.box.max, views: meta.frame.sides } };
    const { capture_id: _c, refresh: _r, ...rest } = args;
    const plan = meta.plan_id === undefined ? {} : { plan_id: meta.plan_id, overlay: meta.overlay ?? "changes" };
    return captureView(m, { ...rest, ...plan, ...view });
  }
  if (args.format === undefined && args.quality === undefined) return ok({ meta: c.meta, image: { data: c.image.data, mimeType: c.image.mimeType } });
  const again = await encodeImage(c.capture.png, args.format ?? DEFAULT_FORMAT, args.quality ?? DEFAULT_QUALITY);
  if (!again.ok) return again;
  return ok({
    meta: { ...c.meta, mime_type: again.value.mimeType, quality: again.value.quality },
    image: { data: again.value.data, mimeType: again.value.mimeType },
  });
}
