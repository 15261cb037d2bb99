import { existsSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { errorOf, mcb, tempDirs, tower } from "../support.js";

const stateDir = tempDirs("mcb-preview-");

describe("mcb build --preview and mcb preview: a person sees a plan before it is built", () => {
  it("--preview prepares and draws the plan into a file and writes nothing; mcb preview draws it again by its id; the build then applies it", async () => {
    const state = await stateDir();
    const out = join(state, "tower.jpg");
    const r = await mcb("build", tower, "--preview", "-o", out, "--side", "south", "--state", state, "--json");
    expect(r.code).toBe(0);
    const v = JSON.parse(r.stdout) as {
      plan: { plan_id: string; changed_blocks: number };
      preview: { output: string; width: number; height: number; format: string };
    };
    expect(v.preview).toMatchObject({ output: out, format: "jpeg" });
    expect((await sharp(out).metadata()).width).toBe(v.preview.width);
    const status = await mcb("status", "--state", state, "--json");
    expect(JSON.parse(status.stdout).recent_operations).toEqual([]); // nothing was written: no operation
    const plain = join(state, "plain.png");
    const again = await mcb("preview", v.plan.plan_id, "-o", plain, "--overlay", "none", "--state", state);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`preview written to ${plain}`);
    expect(again.stdout).toContain("nothing was written to the world");
    const built = await mcb("build", tower, "--state", state);
    expect(built.code).toBe(0);
    expect(built.stdout).toContain("applied");
    // now the design stands: nothing to preview, and no file
    const none = join(state, "none.png");
    const after = await mcb("build", tower, "--preview", "-o", none, "--state", state);
    expect(after.stdout).toContain("nothing to preview: the world already holds this design");
    expect(existsSync(none)).toBe(false);
  });

  it("refuses a missing file, a bad side or overlay, and a plan it does not know, naming each", async () => {
    const state = await stateDir();
    expect((await mcb("build", tower, "--preview", "--state", state)).stderr).toContain("missing -o <out.png> for the preview");
    expect((await mcb("preview", "plan_x", "-o", "p.png", "--side", "up", "--state", state)).stderr).toContain("--side is one of");
    expect((await mcb("preview", "plan_x", "-o", "p.png", "--overlay", "bright", "--state", state)).stderr).toContain("--overlay is one of changes, none");
    const unknown = await mcb("preview", "plan_x", "-o", join(state, "p.png"), "--state", state);
    expect(unknown.code).toBe(1);
    expect(errorOf(unknown).code).toBe("not_found");
  });
});
