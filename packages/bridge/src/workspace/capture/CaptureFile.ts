import { writeFile } from "node:fs/promises";
import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { CameraPose, Capture } from "@mcb/render";
import { captureFramed, type FrameRequest } from "./FramedCapture.js";
import { captureProjectView } from "./ProjectCapture.js";
import type { Workspace } from "../world/Workspace.js";
import { CameraStore } from "./CameraStore.js";
import { planPreview, type PreviewOverlay } from "./PlanPreview.js";
import type { WorldAdapter } from "@mcb/engine";
import { DEFAULT_QUALITY, encodeImage, formatOfFile, type ImageFormat } from "./ImageFormat.js";

export interface CaptureReport {
  readonly output: string;
  readonly width: number;
  readonly height: number;
  readonly hit_fraction: number;
  readonly sections_read: number;
  readonly inside_block: boolean;
  readonly format: ImageFormat;
  /** JPEG/WebP quality; null for PNG. */
  readonly quality: number | null;
  readonly bytes: number;
}

/**
 * `mcb camera capture (<camera_id> | -- x y z yaw pitch [fov] | --frame …) -o out.png`: what
 * camera_capture renders, written to a PNG, JPEG or WebP file by its extension (JPEG and WebP at
 * `quality`, default 80); with `plan`, the world as that prepared plan leaves it (a preview: nothing
 * written). Errors: camera_unavailable (unknown camera), invalid_request, those of `planPreview`.
 */
export async function captureToFile(
  w: Workspace,
  view: { camera: string } | { pose: CameraPose } | { frame: FrameRequest },
  output: string,
  viewDistance?: number,
  quality = DEFAULT_QUALITY,
  plan?: { readonly planId: string; readonly overlay: PreviewOverlay },
): Promise<Result<CaptureReport>> {
  const format = formatOfFile(output);
  if (format === null) return fail(mcbError("invalid_request", "the output file must end in .png, .jpg, .jpeg or .webp", { reason: "format" }));
  let world: Pick<WorldAdapter, "read" | "info"> = w.world;
  if (plan !== undefined) {
    // A preview: the world as the plan leaves it, framed on its writes unless a part or box is named.
    const preview = planPreview(w.engine, w.ctx, w.world, plan.planId, plan.overlay);
    if (!preview.ok) return preview;
    world = preview.value.world;
    if ("frame" in view) view = { frame: { ...view.frame, box: preview.value.box } };
  }
  let r: Result<Capture>;
  if ("frame" in view) {
    const f = await captureFramed(w.engine, w.ctx, world, view.frame, viewDistance);
    r = f.ok ? ok(f.value.capture) : f;
  } else {
    let pose: CameraPose;
    if ("camera" in view) {
      const saved = new CameraStore(w.dir).get(view.camera);
      if (saved === undefined) return fail(mcbError("camera_unavailable", `no saved camera ${JSON.stringify(view.camera)}; see mcb camera list`));
      pose = saved.pose;
    } else pose = view.pose;
    r = await captureProjectView(w.engine, w.ctx, world, pose, viewDistance);
  }
  if (!r.ok) return r;
  const image = await encodeImage(r.value.png, format, quality);
  if (!image.ok) return image;
  await writeFile(output, image.value.data);
  const c = r.value;
  return ok({
    output,
    width: c.width,
    height: c.height,
    hit_fraction: Math.round(c.hitFraction * 10_000) / 10_000,
    sections_read: c.sectionsRead,
    inside_block: c.insideBlock,
    format,
    quality: image.value.quality,
    bytes: image.value.data.length,
  });
}
