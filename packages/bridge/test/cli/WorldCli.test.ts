import sharp from "sharp";
import { existsSync, writeFileSync } from "node:fs";
import { stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { errorOf, mcb, openWorld, tempDirs, tower } from "../support.js";
import { describe, expect, it } from "vitest";
import type { AnvilWorld } from "@mcb/adapter-anvil";
import { CrashingWorld, KillableSave } from "@mcb/property-tests";
import { openWorkspace } from "../../src/index.js";

const stateDir = tempDirs("mcb-cli-state-");

describe("mcb build / undo / inspect / status on the embedded world (built CLI)", () => {
  it("builds the example tower across processes, undoes it, and keeps state on disk", async () => {
    const state = await stateDir();
    const built = await mcb("build", tower, "--state", state, "--json");
    expect(built.code).toBe(0);
    const report = JSON.parse(built.stdout) as {
      plan: { changed_blocks: number };
      operation: { operation_id: string; status: string; counters: { written: number } };
    };
    expect(report.operation.status).toBe("applied");
    expect(report.operation.counters.written).toBe(report.plan.changed_blocks);
    expect(report.plan.changed_blocks).toBeGreaterThan(800);

    const again = JSON.parse((await mcb("build", tower, "--state", state, "--json")).stdout) as { plan: { changed_blocks: number }; operation: unknown };
    expect(again.plan.changed_blocks).toBe(0); // the world (in another process) already holds it
    expect(again.operation).toBeNull(); // and a plan with nothing to change creates no operation

    const inspected = await mcb("inspect", "--state", state, "--json", "--", "-5", "64", "-5", "5", "64", "5");
    const palette = (JSON.parse(inspected.stdout) as { palette: { state: string; count: number }[] }).palette;
    expect(palette.find((p) => p.state === "minecraft:polished_andesite")?.count).toBe(97);

    const undo = await mcb("undo", report.operation.operation_id, "--state", state);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toContain(`${report.plan.changed_blocks} blocks to restore, 0 left`);
    const after = JSON.parse((await mcb("inspect", "--state", state, "--json", "--", "-5", "64", "-5", "5", "64", "5")).stdout) as { palette: unknown[] };
    expect(after.palette).toEqual([{ state: "minecraft:air", count: 121 }]);

    const status = await mcb("status", "--state", state);
    expect(status.stdout).toContain("no recovery pending");
    expect(status.stdout.match(/ applied/g)?.length).toBe(2); // the build and its undo
    expect(status.stdout).toMatch(new RegExp(`${report.operation.operation_id} build applied, undone by op_[0-9a-f]+ `)); // the build says it was undone
  });

  it("mcb build --part names the built blocks as a part in the same command; the name of a part grows it, and an undo shrinks it back", async () => {
    const state = await stateDir();
    const built = await mcb("build", tower, "--part", "tower", "--state", state);
    expect(built.code).toBe(0);
    expect(built.stdout).toMatch(/part "tower": part_[0-9a-f]+/);
    const list = await mcb("part", "list", "--state", state, "--json");
    expect(JSON.parse(list.stdout)).toMatchObject([{ name: "tower", retired: false }]);
    // The part, framed from the east, and a box framed from above: the whole thing in view.
    const partId = (JSON.parse(list.stdout) as { part_id: string }[])[0]!.part_id;
    const east = await mcb("camera", "capture", "--frame", partId, "--side", "east", "-o", join(state, "east.png"), "--state", state, "--json");
    expect(east.code, east.stderr).toBe(0);
    expect(JSON.parse(east.stdout)).toMatchObject({ output: join(state, "east.png") });
    expect(JSON.parse(east.stdout).hit_fraction).toBeGreaterThan(0.4);
    const top = await mcb("camera", "capture", "--frame=-6,64,-6,6,80,6", "--side", "top", "-o", join(state, "top.png"), "--state", state);
    expect(top.code, top.stderr).toBe(0);
    // The same view as JPEG at quality 60: a real JPEG of the same size (decoded by libvips), far smaller.
    const jpeg = await mcb(
      "camera",
      "capture",
      "--frame=-6,64,-6,6,80,6",
      "--side",
      "top",
      "-o",
      join(state, "top.jpg"),
      "--quality",
      "60",
      "--state",
      state,
      "--json",
    );
    expect(jpeg.code, jpeg.stderr).toBe(0);
    expect(JSON.parse(jpeg.stdout)).toMatchObject({ format: "jpeg", quality: 60 });
    const [pngMeta, jpegMeta] = [await sharp(join(state, "top.png")).metadata(), await sharp(join(state, "top.jpg")).metadata()];
    expect([jpegMeta.format, jpegMeta.width, jpegMeta.height]).toEqual(["jpeg", pngMeta.width, pngMeta.height]);
    expect((await stat(join(state, "top.jpg"))).size).toBeLessThan((await stat(join(state, "top.png"))).size / 2);
    expect((await mcb("camera", "capture", "--frame=-6,64,-6,6,80,6", "-o", join(state, "top.gif"), "--state", state)).code).toBe(2);
    expect((await mcb("camera", "capture", "--frame", partId, "--side", "up", "-o", join(state, "x.png"), "--state", state)).code).toBe(2);
    await writeFile(
      join(state, "post.json"),
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 20, y: 64, z: 20 }, max: { x: 20, y: 66, z: 20 }, block: "stone" }] }),
    );
    // the name of an existing part: the build grows it (a post beside the tower joins the part "tower")
    const before = (JSON.parse((await mcb("part", "list", "--state", state, "--json")).stdout) as { name: string; count: number }[]).find(
      (p) => p.name === "tower",
    )!;
    const grown = await mcb("build", join(state, "post.json"), "--part", "tower", "--state", state, "--json");
    expect(grown.code).toBe(0);
    const after = (JSON.parse((await mcb("part", "list", "--state", state, "--json")).stdout) as { name: string; count: number }[]).find(
      (p) => p.name === "tower",
    )!;
    expect(after.count).toBe(before.count + 3);
    const undoPost = await mcb("undo", (JSON.parse(grown.stdout) as { operation: { operation_id: string } }).operation.operation_id, "--state", state);
    expect(undoPost.code).toBe(0);
    const back = (JSON.parse((await mcb("part", "list", "--state", state, "--json")).stdout) as { name: string; count: number }[]).find(
      (p) => p.name === "tower",
    )!;
    expect(back.count).toBe(before.count);
    // --take-over: a new part takes a block of the tower (its floor's centre, polished andesite).
    const towerBlocks = (JSON.parse((await mcb("part", "list", "--state", state, "--json")).stdout) as { count: number }[])[0]!.count;
    await writeFile(
      join(state, "cap.json"),
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 0, y: 64, z: 0 }, max: { x: 0, y: 64, z: 0 }, block: "gold_block" }] }),
    );
    expect(errorOf(await mcb("build", join(state, "cap.json"), "--part", "cap", "--state", state, "--json"))).toMatchObject({
      details: { reason: "part_overlap", name: "tower" },
    });
    const cap = await mcb("build", join(state, "cap.json"), "--part", "cap", "--take-over", "tower", "--state", state, "--json");
    expect(cap.code, cap.stderr).toBe(0);
    const parts = JSON.parse((await mcb("part", "list", "--state", state, "--json")).stdout) as { name: string; count: number }[];
    expect(parts.map((p) => [p.name, p.count])).toEqual([
      ["tower", towerBlocks - 1],
      ["cap", 1],
    ]);
  });

  it("reports structured errors and a non-applied exit status", async () => {
    const state = await stateDir();
    const bad = join(state, "bad.json");
    await writeFile(
      bad,
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 0, y: 64, z: 0 }, max: { x: 9000, y: 64, z: 0 }, block: "minecraft:stone" }] }),
    );
    const out = await mcb("build", bad, "--state", state);
    expect(out.code).toBe(1);
    expect(errorOf(out).code).toBe("out_of_bounds");
    expect((await mcb("undo", "op_missing", "--state", state)).code).toBe(1);
    const inspect = await mcb("inspect", "--state", state, "--", "1", "2");
    expect([inspect.code, inspect.stderr.split("\n")[0]]).toEqual([2, "mcb inspect: expected six integers: x1 y1 z1 x2 y2 z2"]);
    expect((await mcb("frobnicate")).code).toBe(2);
  });

  it("one process per state directory: a live owner makes others busy, a dead owner's lock is taken over", async () => {
    const state = await stateDir();
    const held = await openWorld(state);
    const locked = await mcb("status", "--state", state);
    expect(locked.code).toBe(1);
    expect(JSON.parse(locked.stderr).error).toMatchObject({ code: "busy", retryable: true, details: { reason: "state_locked", pid: process.pid } });
    expect(await openWorkspace(state)).toMatchObject({ ok: false, error: { code: "busy" } }); // not twice in one process either
    await held.close();
    expect((await mcb("status", "--state", state)).code).toBe(0);
    writeFileSync(join(state, "lock"), "999999999\n"); // a pid that cannot be alive
    expect((await mcb("status", "--state", state)).code).toBe(0);
    expect(existsSync(join(state, "lock"))).toBe(false);
  });

  it("after a crash, status shows recovery_required with exactly the lost writes, and the administrator review/abandon unblocks writes", async () => {
    const state = await stateDir();
    let crashing: CrashingWorld | undefined;
    const opened = await openWorkspace(state, { decorateWorld: (world) => (crashing = new CrashingWorld(KillableSave.around(world as AnvilWorld))) });
    if (!opened.ok) throw new Error(opened.error.message);
    const w = opened.value;
    crashing!.faults.crashAt("mid_slice", 1);
    const plan = await w.engine.buildPrepare(w.ctx, {
      recipe: { version: 1, operations: [{ type: "box", min: { x: 0, y: 64, z: 0 }, max: { x: 31, y: 64, z: 31 }, block: "minecraft:stone" }] },
    });
    if (!plan.ok) throw new Error(plan.error.message);
    const op = await w.engine.buildApply(w.ctx, { plan_id: plan.value.plan_id, plan_hash: plan.value.plan_hash, idempotency_key: "crash" });
    if (!op.ok) throw new Error(op.error.message);
    await w.close(); // the process "died" mid-slice: the confirmed first slice was not saved yet

    const status = await mcb("status", "--state", state);
    expect(status.stdout).toContain(`recovery required: ${op.value.operation_id}`);
    const elsewhere = join(state, "elsewhere.json");
    writeFileSync(
      elsewhere,
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 100, y: 64, z: 100 }, max: { x: 101, y: 64, z: 101 }, block: "minecraft:stone" }] }),
    );
    const blocked = await mcb("build", elsewhere, "--state", state);
    expect(blocked.code).toBe(1);
    expect(JSON.parse(blocked.stderr).error.code).toBe("recovery_required");
    const review = JSON.parse((await mcb("recovery", "review", op.value.operation_id, "--state", state, "--json")).stdout) as {
      positions: number;
      lost: number;
      matches_after: number;
      matches_before: number;
      current_digest: string;
    };
    // Nothing of the operation reached the save: the confirmed slice is lost (exactly its 512 blocks), the unfinished one never written.
    expect(review).toMatchObject({ positions: 1024, lost: 512, matches_after: 0, matches_before: 1024 });
    const text = await mcb("recovery", "review", op.value.operation_id, "--state", state);
    expect(text.stdout).toContain(`to leave the world as it is: mcb recovery abandon ${op.value.operation_id} ${review.current_digest}`);
    const abandoned = await mcb("recovery", "abandon", op.value.operation_id, review.current_digest, "--state", state);
    expect(abandoned.code).toBe(0);
    expect(abandoned.stdout).toContain("failed");
    expect(abandoned.stdout).toContain("512 blocks lost");
    expect((await mcb("build", tower, "--state", state)).code).toBe(0);
  });
});
