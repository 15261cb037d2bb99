import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { errorOf, mcb, tempDirs } from "../support.js";

const tmp = tempDirs("mcb-bigbuild-");

/** A solid box of `block` from (0, y0, 0), `side` blocks a side. */
function box(side: number, block: string, y0 = 64): unknown {
  return { version: 1, operations: [{ type: "box", min: { x: 0, y: y0, z: 0 }, max: { x: side - 1, y: y0 + side - 1, z: side - 1 }, block }] };
}

const stoneIn = async (state: string, y: number): Promise<number> => {
  const r = JSON.parse((await mcb("inspect", "--state", state, "--json", "--", "0", String(y), "0", "49", String(y), "49")).stdout);
  return r.palette.find((p: { state: string }) => p.state === "minecraft:stone")?.count ?? 0;
};

describe("mcb build of a recipe over one plan's size", () => {
  it("runs in tiles with one progress bar, names one part, resumes as done, and mcb undo <build_id> undoes it whole", async () => {
    const dir = await tmp();
    const file = join(dir, "cube.json");
    writeFileSync(file, JSON.stringify(box(50, "minecraft:stone"))); // 125,000 positions: two tiles
    const state = join(dir, "state");
    const first = await mcb("build", file, "--part", "big cube", "--state", state, "--init", "--json");
    expect(first.code, first.stderr).toBe(0);
    const r = JSON.parse(first.stdout);
    expect(r).toMatchObject({
      mode: "tiles",
      positions: 125_000,
      batch: { tiles: 2, applied: 2, unfinished: 0, written_blocks: 125_000, completed: { part_name: "big cube", part_blocks: 125_000 } },
    });
    expect(r.build_id).toMatch(/^b_[0-9a-f]{24}$/);
    expect(first.stderr).toMatch(/2\/2 tiles {2}125,000 blocks/);
    expect(await stoneIn(state, 64)).toBe(2500);
    expect(await stoneIn(state, 113)).toBe(2500);
    // Run again: the same build, every tile done, nothing written twice.
    const again = JSON.parse((await mcb("build", file, "--state", state, "--json")).stdout);
    expect(again).toMatchObject({ build_id: r.build_id, batch: { skipped_done: 2, written_blocks: 125_000 } });
    const ops = JSON.parse((await mcb("status", "--state", state, "--json")).stdout);
    expect(JSON.stringify(ops)).toContain(r.batch.operation_ids[1]);
    // The text form says what it did and how to undo it.
    const text = await mcb("build", file, "--state", state);
    expect(text.stdout).toMatch(
      new RegExp(
        `^build ${r.build_id} \\(125000 positions\\): 2 of 2 tiles applied, .*part part_\\w+ "big cube" \\(125000 blocks\\).*undo with mcb undo ${r.build_id}\\)$`,
        "m",
      ),
    );
    const undo = await mcb("undo", r.build_id, "--state", state, "--json");
    expect(undo.code, undo.stderr).toBe(0);
    expect(JSON.parse(undo.stdout)).toMatchObject({ batch_id: r.build_id, operations: 2, undone: 2, restored_blocks: 125_000 });
    expect(await stoneIn(state, 64)).toBe(0);
    expect(await stoneIn(state, 113)).toBe(0);
  }, 120_000);

  it("refuses what applies to one plan only (--replace, --take-over) and a recipe over 20,000,000 positions, writing nothing", async () => {
    const dir = await tmp();
    const file = join(dir, "cube.json");
    writeFileSync(file, JSON.stringify(box(50, "minecraft:stone")));
    const state = join(dir, "state");
    const replace = await mcb("build", file, "--replace", "0,64,0", "--state", state, "--init");
    expect(replace.code).toBe(1);
    expect(errorOf(replace)).toMatchObject({ code: "invalid_request", details: { reason: "tiled_build", positions: 125_000, tiles: 2 } });
    const takeOver = await mcb("build", file, "--part", "a", "--take-over", "b", "--state", state);
    expect(errorOf(takeOver)).toMatchObject({ code: "invalid_request", details: { reason: "tiled_build" } });
    expect(await stoneIn(state, 64)).toBe(0);
    const huge = join(dir, "huge.json");
    writeFileSync(huge, JSON.stringify(box(300, "minecraft:stone", -60))); // 27,000,000 positions
    const tooBig = await mcb("build", huge, "--state", state);
    expect(tooBig.code).toBe(1);
    expect(errorOf(tooBig)).toMatchObject({ code: "budget_exceeded" });
  }, 120_000);
});
