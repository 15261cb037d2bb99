import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcb, mcbProcess, openWorld } from "../../support.js";
import { serve, holderKit, startMcb } from "./Holder.js";

const kit = holderKit();

/** 64 × 40 × 64 = 163,840 positions of stone in the air: two tiles of `mcb build`. */
const BIG = { version: 1, operations: [{ type: "box", min: { x: 0, y: 100, z: 0 }, max: { x: 63, y: 139, z: 63 }, block: "minecraft:stone" }] };
const POSITIONS = 64 * 40 * 64;

describe("the holder killed with -9 in the middle of a caller's build", () => {
  it("is detected and replaced: the next process takes the world over, recovery goes as on its own, the build resumes, nothing is lost or applied twice", async () => {
    const state = kit.state();
    const recipe = join(state, "big.json");
    writeFileSync(recipe, JSON.stringify(BIG));
    // Paced so that the kill lands while it writes.
    const first = await serve(state, ["--max-rate", "40000"]);
    kit.defer(() => void first.child.kill("SIGKILL"));
    const build = startMcb(["build", recipe, "--state", state]);
    await build.until(/writes 100000 blocks/);
    await new Promise((r) => setTimeout(r, 1000));
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    // The caller is told its holder went away; nothing it was told is done is lost.
    expect(await build.exited).toBe(1);
    expect(build.stderr()).toMatch(/"reason":"holder_gone"/);

    // The next process (on its own: nobody serves) takes the dead holder's lock over and finds the operation it left.
    const status = await mcb("status", "--state", state, "--json");
    expect(status.code, status.stderr).toBe(0);
    const left = (JSON.parse(status.stdout) as { recent_operations: { operation_id: string; status: string }[] }).recent_operations;
    const crashed = left.find((o) => o.status === "recovery_required");
    expect(crashed, status.stdout).toBeDefined();

    // A new holder replaces it; recovery and the resumed build go through it as they would on their own.
    const second = await serve(state);
    kit.defer(() => second.stop());
    const review = await mcbProcess("recovery", "review", crashed!.operation_id, "--state", state, "--json");
    expect(review.code, review.stderr).toBe(0);
    const digest = (JSON.parse(review.stdout) as { current_digest: string }).current_digest;
    expect((await mcbProcess("recovery", "abandon", crashed!.operation_id, digest, "--state", state)).code).toBe(0);
    const resumed = await mcbProcess("build", recipe, "--state", state);
    expect(resumed.code, resumed.stderr).toBe(0);
    const jobs = readdirSync(join(state, "builds")).filter((f) => f.endsWith(".json"));
    expect(jobs).toHaveLength(1); // the same build, resumed
    expect(resumed.stdout).toContain(`build ${jobs[0]!.replace(/\.json$/, "")} (${POSITIONS} positions): 2 of 2 tiles applied`);
    expect(await second.stop()).toBe(0);

    // The world holds the box exactly, and every block was written once, but for those the killed holder had not saved.
    const w = await openWorld(state);
    try {
      let stone = 0;
      for (let y = 99; y <= 140; y += 6) {
        const r = await w.world.read({ minX: 0, minY: y, minZ: 0, maxX: 63, maxY: Math.min(y + 5, 140), maxZ: 63 });
        stone += r.states.filter((i) => r.palette[i] === "minecraft:stone").length;
      }
      expect(stone).toBe(POSITIONS);
      const ops = await w.engine.operationList(w.admin, { limit: 50 });
      expect(ops.ok).toBe(true);
      let effective = 0;
      for (const o of ops.ok ? ops.value.operations : []) {
        const s = await w.engine.operationStatus(w.admin, { operation_id: o.operation_id });
        if (s.ok) effective += s.value.counters.written - s.value.counters.lost;
      }
      expect(effective).toBe(POSITIONS);
    } finally {
      await w.close();
    }
  }, 120_000);
});
