import { writeFile } from "node:fs/promises";
import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { CameraPose, Capture } from "@mcb/render";
import { captureFramed, type FrameRequest } from "./FramedCapture.js";
import { captureProjectView } from "./ProjectCapture.js";
import type { Workspace } from "./Workspace.js";
import { CameraStore } from "./CameraStore.js";

export interface CaptureReport {
  readonly output: string;
  readonly width: number;
  readonly height: number;
  readonly hit_fraction: number;
  readonly sections_read: number;
  readonly inside_block: boolean;
  readonly bytes: number;
}

/**
 * `mcb camera capture (<camera_id> | -- x y z yaw pitch [fov] | --frame …) -o out.png`: what
 * camera_capture renders, written to a PNG file. Errors: camera_unavailable (unknown camera), invalid_request.
 */
export async function captureToFile(w: Workspace, view: { camera: string } | { pose: CameraPose } | { frame: FrameRequest }, output: string, viewDistance?: number): Promise<Result<CaptureReport>> {
  let r: Result<Capture>;
  if ("frame" in view) {
    const f = await captureFramed(w.engine, w.ctx, w.world, view.frame, viewDistance);
    r = f.ok ? ok(f.value.capture) : f;
  } else {
    let pose: CameraPose;
    if ("camera" in view) {
      const saved = new CameraStore(w.dir).get(view.camera);
      if (saved === undefined) return fail(mcbError("camera_unavailable", `no saved camera ${JSON.stringify(view.camera)}; see mcb camera list`));
      pose = saved.pose;
    } else pose = view.pose;
    r = await captureProjectView(w.engine, w.ctx, w.world, pose, viewDistance);
  }
  if (!r.ok) return r;
  await writeFile(output, r.value.png);
  const c = r.value;
  return ok({ output, width: c.width, height: c.height, hit_fraction: Math.round(c.hitFraction * 10_000) / 10_000, sections_read: c.sectionsRead, inside_block: c.insideBlock, bytes: c.png.length });
}
