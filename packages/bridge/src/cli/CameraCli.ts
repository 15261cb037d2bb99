import { FRAME_SIDES, type CameraPose, type FrameSide } from "@mcb/render";
import type { FrameRequest } from "../workspace/capture/FramedCapture.js";
import { CameraStore } from "../workspace/capture/CameraStore.js";
import { captureToFile } from "../workspace/capture/CaptureFile.js";
import { formatOfFile } from "../workspace/capture/ImageFormat.js";
import { intOption } from "./Args.js";
import type { Command } from "./Command.js";
import type { Invocation } from "./Invocation.js";

export const cameraCommand: Command = {
  name: "camera",
  usage: `  mcb camera save <name> x y z yaw pitch [fov]   a viewpoint for camera_list/capture
  mcb camera list
  mcb camera capture (<name> | x y z yaw pitch [fov]) -o <out.png> [--width W] [--height H] [--view-distance N]
  mcb camera capture --frame (<part_id> | x1,y1,z1,x2,y2,z2) [--side north|south|east|west|top|iso] -o <out.png>
                                     the whole part or box in view, from that side (default iso);
                                     -o out.jpg or out.webp writes JPEG or WebP [--quality 1..100, default 80]`,
  async run(c) {
    const [action, name, ...nums] = c.args;
    if (action === "list") {
      if (c.args.length !== 1) return c.usage("camera list takes no arguments");
      const dir = c.stateDir();
      if (!dir.ok) return c.emit(dir, () => "");
      return c.emit(
        { ok: true, value: new CameraStore(dir.value).list() },
        (cs) => cs.map((k) => `${k.camera_id}: ${JSON.stringify(k.pose)}`).join("\n") || "(no cameras)",
      );
    }
    if (action === "save") {
      const v = nums.map(Number);
      if (name === undefined || (v.length !== 5 && v.length !== 6) || !v.every(Number.isFinite))
        return c.usage("camera save takes a name and x y z yaw pitch [fov]");
      const dir = c.stateDir();
      if (!dir.ok) return c.emit(dir, () => "");
      const [x, y, z, yaw, pitch, fov] = v as [number, number, number, number, number, number | undefined];
      return c.emit(
        new CameraStore(dir.value).save(name, { x, y, z, yaw, pitch, ...(fov !== undefined ? { fov } : {}) }),
        (k) => `saved camera ${k.camera_id}`,
      );
    }
    if (action === "capture") return capture(c);
    return c.usage(action === undefined ? "missing the action (save, list or capture)" : `unknown action "${action}"`);
  },
};

/** `mcb camera capture`: the view (a framed part or box, a saved camera, or a pose) rendered to a file. */
async function capture(c: Invocation): Promise<number> {
  const out = typeof c.values.output === "string" ? c.file(c.values.output) : undefined;
  if (typeof out !== "string") return c.usage("capture: missing -o <out.png>");
  const format = formatOfFile(out);
  if (format === null) return c.usage("-o names a .png, .jpg, .jpeg or .webp file");
  const quality = intOption(c.values.quality);
  if (quality === null || (quality !== undefined && (format === "png" || quality > 100))) return c.usage("--quality takes 1..100, for a .jpg or .webp file");
  const sizes = [intOption(c.values.width), intOption(c.values.height), intOption(c.values["view-distance"])];
  if (sizes.includes(null)) return c.usage("--width, --height and --view-distance take positive integers");
  const [width, height, viewDistance] = sizes as (number | undefined)[];
  const view = captureView(c, width, height);
  if (typeof view === "string") return c.usage(view);
  return c.withWorkspace(async (w) =>
    c.emit(
      await captureToFile(w, view, out, viewDistance, quality),
      (k) =>
        `wrote ${k.output}: ${k.width}×${k.height} ${k.format}${k.quality === null ? "" : ` (quality ${k.quality})`}, ${k.bytes} bytes, ${Math.round(k.hit_fraction * 100)}% of pixels show blocks${k.inside_block ? " (the eye is inside a block)" : ""}`,
    ),
  );
}

/** What a capture's arguments ask for: `--frame` (a part or a box), a saved camera's name, or a pose; else the usage problem. */
function captureView(
  c: Invocation,
  width: number | undefined,
  height: number | undefined,
): { camera: string } | { pose: CameraPose } | { frame: FrameRequest } | string {
  const [, name, ...nums] = c.args;
  const frame = c.values.frame;
  const side = c.values.side;
  if (side !== undefined && (typeof side !== "string" || !(FRAME_SIDES as readonly string[]).includes(side)))
    return `--side is one of ${FRAME_SIDES.join(", ")}`;
  const size = { ...(width !== undefined ? { width } : {}), ...(height !== undefined ? { height } : {}) };
  if (typeof frame === "string") {
    if (c.args.length !== 1) return "--frame takes the place of a camera name or pose";
    const box = frame.split(",").map(Number);
    const framed = { ...size, ...(side !== undefined ? { side: side as FrameSide } : {}) };
    if (box.length === 6 && box.every(Number.isSafeInteger))
      return { frame: { min: { x: box[0]!, y: box[1]!, z: box[2]! }, max: { x: box[3]!, y: box[4]!, z: box[5]! }, ...framed } };
    if (/^part_[0-9a-f]+$/.test(frame)) return { frame: { part_id: frame, ...framed } };
    return "--frame takes a part id or a box x1,y1,z1,x2,y2,z2";
  }
  if (name !== undefined && nums.length === 0 && !/^-?[\d.]+$/.test(name)) {
    if (width !== undefined || height !== undefined) return "a saved camera keeps its own size: --width and --height go with a pose";
    return { camera: name };
  }
  const v = c.args.slice(1).map(Number);
  if ((v.length !== 5 && v.length !== 6) || !v.every(Number.isFinite)) return "camera capture takes a saved camera's name, or x y z yaw pitch [fov]";
  const [x, y, z, yaw, pitch, fov] = v as [number, number, number, number, number, number | undefined];
  return { pose: { x, y, z, yaw, pitch, ...(fov !== undefined ? { fov } : {}), ...size } };
}
