import { randomBytes } from "node:crypto";
import { fail, mcbError, ok } from "@mcb/blocks";
import { CAPTURE_LIMITS, DEFAULT_VIEW_DISTANCE, MAX_VIEW_DISTANCE, type CameraPose } from "@mcb/render";
import { captureProjectView } from "../workspace/ProjectCapture.js";
import { z } from "zod";
import type { McpContext } from "../workspace/McpContext.js";
import type { ToolTable } from "./ToolTable.js";
import { OperationId, Pose, PoseOutput } from "./Schemas.js";
import { toolResult } from "./ToolResult.js";
import { hasEnded } from "@mcb/engine";


const CaptureOutput = z.strictObject({
  status: z.literal("completed"),
  capture_id: z.string(),
  mime_type: z.literal("image/png"),
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
  sections_unloaded: z.number().int().describe("sections in view that the server has not loaded: drawn as nothing"),
  hit_fraction: z.number(),
  inside_block: z.boolean(),
});

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
        "Render a PNG (flat colours, no textures): frame a part or box from a side, a pose with look_at, a saved camera, or up to 4 framed views tiled; default 640×360.",
      inputSchema: {
        camera_id: z.string().max(64).optional().describe("saved viewpoint"),
        pose: Pose.optional(),
        capture_id: z.string().max(64).optional().describe("recent capture"),
        after_operation_id: OperationId.optional().describe("wait for this operation"),
        view_distance: z.number().int().min(8).max(MAX_VIEW_DISTANCE).optional().describe(`blocks rendered before fog, 8..${MAX_VIEW_DISTANCE}`),
      },
      outputSchema: CaptureOutput,
      annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      const given = [args.camera_id, args.pose, args.capture_id].filter((v) => v !== undefined).length;
      if (given !== 1) return toolResult(fail(mcbError("invalid_request", "give exactly one of camera_id, pose and capture_id", { reason: "camera_or_pose" })));
      if (args.capture_id !== undefined) {
        const c = m.captures.get(args.capture_id);
        if (c === undefined) return toolResult(fail(mcbError("not_found", "no such capture (the last 8 are kept until restart)")));
        return toolResult(ok(c.meta), [{ data: c.capture.png, mimeType: "image/png" }]);
      }
      let pose: CameraPose;
      if (args.camera_id !== undefined) {
        const saved = m.cameras.get(args.camera_id);
        if (saved === undefined) return toolResult(fail(mcbError("camera_unavailable", `no saved camera ${JSON.stringify(args.camera_id)}; see camera_list`)));
        pose = saved.pose;
      } else pose = args.pose!;
      if (args.after_operation_id !== undefined) {
        const op = await m.engine.operationStatus(m.ctx, { operation_id: args.after_operation_id });
        if (!op.ok) return toolResult(op);
        if (!hasEnded(op.value.status))
          return toolResult(fail(mcbError("capture_not_ready", `operation ${op.value.operation_id} is ${op.value.status}; capture after it finishes`, { status: op.value.status })));
      }
      const r = await captureProjectView(m.engine, m.ctx, m.world, pose, args.view_distance ?? DEFAULT_VIEW_DISTANCE);
      if (!r.ok) return toolResult(r);
      const c = r.value;
      const captureId = `cap_${randomBytes(8).toString("hex")}`;
      const meta = {
        status: "completed" as const,
        capture_id: captureId,
        mime_type: c.mimeType,
        width: c.width,
        height: c.height,
        pose,
        ...(args.camera_id !== undefined ? { camera_id: args.camera_id } : {}),
        ...(args.after_operation_id !== undefined ? { after_operation_id: args.after_operation_id } : {}),
        eye: c.eye,
        observed_at: c.observedAt,
        renderer: "embedded_software_renderer",
        sections_read: c.sectionsRead,
        sections_with_blocks: c.sectionsWithBlocks,
        sections_unloaded: c.sectionsUnloaded,
        hit_fraction: Math.round(c.hitFraction * 10_000) / 10_000,
        inside_block: c.insideBlock,
      };
      m.captures.put({ captureId, capture: c, meta });
      return toolResult(ok(meta), [{ data: c.png, mimeType: "image/png" }]);
    },
  );
}
