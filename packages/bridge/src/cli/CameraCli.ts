import type { CameraPose } from "@mcb/render";
import { CameraStore } from "../workspace/CameraStore.js";
import { captureToFile } from "../workspace/CaptureFile.js";
import { intOption } from "./Args.js";
import type { Command } from "./Command.js";

export const cameraCommand: Command = {
  name: "camera",
  usage: `  mcb camera save <name> x y z yaw pitch [fov]   a viewpoint for camera_list/capture
  mcb camera list
  mcb camera capture (<name> | x y z yaw pitch [fov]) -o <out.png> [--width W] [--height H] [--view-distance N]`,
  async run(c) {
    const [action, name, ...nums] = c.args;
    if (action === "list") {
      if (c.args.length !== 1) return c.usage("camera list takes no arguments");
      const dir = c.stateDir();
      if (!dir.ok) return c.emit(dir, () => "");
      return c.emit({ ok: true, value: new CameraStore(dir.value).list() }, (cs) => cs.map((k) => `${k.camera_id}: ${JSON.stringify(k.pose)}`).join("\n") || "(no cameras)");
    }
    if (action === "save") {
      const v = nums.map(Number);
      if (name === undefined || (v.length !== 5 && v.length !== 6) || !v.every(Number.isFinite)) return c.usage("camera save takes a name and x y z yaw pitch [fov]");
      const dir = c.stateDir();
      if (!dir.ok) return c.emit(dir, () => "");
      const [x, y, z, yaw, pitch, fov] = v as [number, number, number, number, number, number | undefined];
      return c.emit(new CameraStore(dir.value).save(name, { x, y, z, yaw, pitch, ...(fov !== undefined ? { fov } : {}) }), (k) => `saved camera ${k.camera_id}`);
    }
    if (action === "capture") {
      const out = c.values.output;
      if (typeof out !== "string") return c.usage("capture: missing -o <out.png>");
      const sizes = [intOption(c.values.width), intOption(c.values.height), intOption(c.values["view-distance"])];
      if (sizes.includes(null)) return c.usage("--width, --height and --view-distance take positive integers");
      const [width, height, viewDistance] = sizes as (number | undefined)[];
      let view: { camera: string } | { pose: CameraPose };
      if (name !== undefined && nums.length === 0 && !/^-?[\d.]+$/.test(name)) {
        if (width !== undefined || height !== undefined) return c.usage("a saved camera keeps its own size: --width and --height go with a pose");
        view = { camera: name };
      } else {
        const v = c.args.slice(1).map(Number);
        if ((v.length !== 5 && v.length !== 6) || !v.every(Number.isFinite)) return c.usage("camera capture takes a saved camera's name, or x y z yaw pitch [fov]");
        const [x, y, z, yaw, pitch, fov] = v as [number, number, number, number, number, number | undefined];
        view = { pose: { x, y, z, yaw, pitch, ...(fov !== undefined ? { fov } : {}), ...(width !== undefined ? { width } : {}), ...(height !== undefined ? { height } : {}) } };
      }
      return c.withWorkspace(async (w) =>
        c.emit(await captureToFile(w, view, out, viewDistance), (k) => `wrote ${k.output}: ${k.width}×${k.height}, ${k.bytes} bytes, ${Math.round(k.hit_fraction * 100)}% of pixels show blocks${k.inside_block ? " (the eye is inside a block)" : ""}`),
      );
    }
    return c.usage(action === undefined ? "missing the action (save, list or capture)" : `unknown action "${action}"`);
  },
};
