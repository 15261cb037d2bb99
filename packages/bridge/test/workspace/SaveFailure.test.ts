import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { RegionFile } from "@mcb/adapter-anvil";
import { errorOf, mcb, openWorld, tempDirs } from "../support.js";

const tmp = tempDirs("mcb-save-failure-");

/**
 * A save that cannot be written (a full disk: the test wrapper makes every region write fail with
 * ENOSPC, in this process only) is a structured error, never a stack trace, and no operation
 * claims what is not on disk: `mcb build` reports the failure instead of "saved to disk", and the
 * next run (the disk freed) names exactly the blocks the save did not get.
 */
describe("a save that fails to save", () => {
  it("mcb build on a full disk: a structured error (busy, save_failed), nothing claimed saved; the next run names every lost block", async () => {
    const state = await tmp();
    const recipe = join(state, "wall.json");
    writeFileSync(
      recipe,
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 0, y: 64, z: 0 }, max: { x: 9, y: 66, z: 0 }, block: "minecraft:stone_bricks" }] }),
    );
    expect((await mcb("status", "--state", state, "--init")).code).toBe(0);
    const full = vi.spyOn(RegionFile.prototype, "write").mockImplementation(() => {
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    });
    let built: Awaited<ReturnType<typeof mcb>>;
    try {
      built = await mcb("build", recipe, "--state", state);
    } finally {
      full.mockRestore();
    }
    expect(built.code).toBe(1);
    expect(built.stdout).not.toMatch(/saved to disk/);
    expect(built.stdout + built.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(errorOf(built)).toMatchObject({ code: "busy", retryable: true, details: { reason: "save_failed", errno: "ENOSPC" } });
    expect(errorOf(built).message).toMatch(/could not save the changed chunks .*ENOSPC.*nothing was marked saved/);
    // The process ended with the writes unsaved: the next one finds exactly what the save lacks.
    const w = await openWorld(state);
    try {
      const ops = await w.engine.operationList(w.ctx, {});
      expect(ops.ok && ops.value.operations[0]).toMatchObject({ status: "recovery_required" });
      const status = await w.engine.operationStatus(w.ctx, { operation_id: ops.ok ? ops.value.operations[0]!.operation_id : "" });
      expect(status.ok && status.value).toMatchObject({ counters: { lost: 30 }, error: { code: "lost_after_host_crash" } });
    } finally {
      await w.close();
    }
  });
});
