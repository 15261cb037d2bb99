import { readFileSync } from "node:fs";
import { writeJsonAtomic } from "../world/JsonFile.js";
import { join } from "node:path";
import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import { resolvePose, type CameraPose } from "@mcb/render";

export const CAMERA_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const MAX_CAMERAS = 32;

export interface SavedCamera {
  readonly camera_id: string;
  readonly pose: CameraPose;
}

/**
 * Saved viewpoints in `cameras.json` of the state directory (atomic replace). A camera is a pose,
 * not an entity in the world.
 */
export class CameraStore {
  private readonly file: string;
  constructor(dir: string) {
    this.file = join(dir, "cameras.json");
  }

  list(): SavedCamera[] {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw e;
    }
    const parsed = JSON.parse(text) as { cameras?: SavedCamera[] };
    return (parsed.cameras ?? []).slice().sort((a, b) => (a.camera_id < b.camera_id ? -1 : 1));
  }

  get(id: string): SavedCamera | undefined {
    return this.list().find((c) => c.camera_id === id);
  }

  /** Saves or replaces a viewpoint. Errors: invalid_request (name, pose), budget_exceeded (32). */
  save(id: string, pose: CameraPose): Result<SavedCamera> {
    if (!CAMERA_NAME.test(id)) return fail(mcbError("invalid_request", "camera names match [A-Za-z0-9][A-Za-z0-9_-]{0,63}", { reason: "camera_id" }));
    const p = resolvePose(pose);
    if (!p.ok) return p;
    const rest = this.list().filter((c) => c.camera_id !== id);
    if (rest.length >= MAX_CAMERAS) return fail(mcbError("budget_exceeded", `at most ${MAX_CAMERAS} saved cameras`, { limit: MAX_CAMERAS }));
    const camera = { camera_id: id, pose };
    writeJsonAtomic(this.file, { cameras: [...rest, camera] }, { mode: 0o644 });
    return ok(camera);
  }
}
