import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeSchematic } from "@mcb/schematic";
import { ProgressLines } from "../../src/chat/ProgressLines.js";
import { chatFixture } from "./ChatProcess.js";

const { state, chat, countBlocks } = chatFixture();

/** A 63³ cube of stone (250,047 blocks): three tiles of a paste. */
function cube(): Buffer {
  const n = 63;
  return writeSchematic({
    width: n,
    height: n,
    length: n,
    offset: { x: 0, y: 0, z: 0 },
    dataVersion: 4903,
    palette: ["minecraft:stone"],
    blocks: new Uint8Array(n * n * n),
    blockEntities: [],
  });
}

describe("the chat tells the player how an agent's long job goes", () => {
  it("progress lines at most one per interval while a job runs, and always one at its end", () => {
    let t = 0;
    const said: string[] = [];
    const lines = new ProgressLines(
      (s) => said.push(s),
      5_000,
      () => t,
    );
    const at = (ms: number, done: number, blocks: number, state: "running" | "done" | "stopped" | "failed" = "running") => {
      t = ms;
      lines.report({ kind: "paste", id: "p_1", done, total: 10, blocks, state });
    };
    at(0, 1, 100_000);
    at(1_000, 2, 200_000); // within 5 s of the first line: not said
    at(5_000, 5, 500_000);
    at(6_000, 6, 600_000);
    at(10_000, 10, 1_000_000, "done");
    expect(said).toEqual([
      "Pasting p_1: 1 of 10 tiles, 100,000 blocks written.",
      "Pasting p_1: 5 of 10 tiles, 500,000 blocks written, 100,000 blocks/s.",
      "Paste p_1 done: 1,000,000 blocks written in 10.0 s.",
    ]);
    said.length = 0;
    t = 0;
    lines.report({ kind: "undo", id: "p_1", done: 3, total: 10, blocks: 30_000, state: "running" });
    lines.report({ kind: "undo", id: "p_1", done: 3, total: 10, blocks: 30_000, state: "stopped" });
    lines.report({ kind: "terrain", id: "t_2", done: 0, total: 4, blocks: 0, state: "failed" });
    expect(said).toEqual([
      "Undoing p_1: 3 of 10 operations, 30,000 blocks restored.",
      "Undo of p_1 stopped after 3 of 10 operations (30,000 blocks restored); asking again goes on.",
      "Terrain t_2 failed after 0 blocks written; /ai status shows what stands.",
    ]);
  });

  it("/ai paste: the agent's one schematic_paste call, its progress said in chat while the agent waits, the end said once", async () => {
    const dir = state();
    mkdirSync(join(dir, "schematics"));
    writeFileSync(join(dir, "schematics", "cube.schem"), cube());
    const c = chat(dir, ["--progress-every", "1"]);
    c.send("/ai paste cube");
    const first = await c.waitFor(/^Pasting p_\w+: [0-3] of 3 tiles, [\d,]+ blocks written/, 0, 60_000);
    const end = await c.waitFor(/^Paste p_\w+ done: 250,047 blocks written in [\d.]+ s\.$/, first, 60_000);
    const agent = await c.waitFor(/^Paste done: 250047 blocks, part part_\w+\.$/, 0, 60_000);
    await c.waitFor(/^✔ done$/, agent);
    const id = /^Pasting (p_\w+)/.exec(c.texts()[first]!)![1];
    expect(c.texts()[end]).toContain(id);
    expect(c.texts().filter((l) => /^Paste p_\w+ (done|stopped|failed)/.test(l))).toHaveLength(1);
    expect(await c.end()).toBe(0);
    // the bottom and top layers of the cube stand in the world (63 × 63 each)
    expect(await countBlocks(dir, { minX: 2, minY: 64, minZ: 2, maxX: 64, maxY: 64, maxZ: 64 }, "minecraft:stone")).toBe(63 * 63);
    expect(await countBlocks(dir, { minX: 2, minY: 126, minZ: 2, maxX: 64, maxY: 126, maxZ: 64 }, "minecraft:stone")).toBe(63 * 63);
  });
});
