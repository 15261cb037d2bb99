import { describe, expect, it } from "vitest";
import { mcb } from "../support.js";
import { chatFixture } from "./ChatProcess.js";

const { state, chat, countBlocks } = chatFixture();

/**
 * The chat stage is ready when chat creates a tower with a named roof; editing the roof
 * preserves the wall and a manually added window; a conflict between stairs and a manual window
 * returns the exact intersection. Over the built `mcb chat --console` with the scripted ACP agent
 * (real MCP calls, no model) on the embedded world; the window is placed with `mcb edit` while the
 * chat holds the world.
 */
describe("keep my windows over mcb chat (the chat stage's acceptance)", () => {
  it("a tower with a named roof; the person's window survives a copper roof, two more floors and a new roof; stairs over it are refused naming it", async () => {
    const dir = state();
    const c = chat(dir);
    c.send("/ai build a tower with a roof");
    const built = await c.waitFor(/^Tower with a roof: walls part_\w+ \(146 blocks\), roof part_\w+ \(35 blocks\)\.$/, 0, 60_000);
    await c.waitFor(/^✔ done$/, built);

    // The console player's tower stands at x 2..6, z 2..6 from y 64; the window goes into the north wall.
    const edit = await mcb("edit", "4", "67", "2", "minecraft:glass_pane", "--state", dir);
    expect(edit.code, edit.stderr).toBe(0);

    c.send("/ai make it a copper roof");
    const copper = await c.waitFor(/^Roof part_\w+ is copper now: 35 blocks changed, nothing outside it\.$/, built, 60_000);
    c.send("/ai add two floors and redo the roof");
    await c.waitFor(/^You changed 1 block\(s\) of the walls by hand \(at 4 67 2\); I will keep them\.$/, copper, 60_000);
    const floors = await c.waitFor(/^Added two floors \(\d+ blocks; kept 1 you placed by hand\) and redid the roof at y 80 \(part_\w+\)\.$/, copper, 60_000);
    c.send("/ai put stairs in front of my window");
    await c.waitFor(
      /^Conflict: 1 block\(s\) you changed by hand are where the stairs would go: 4 67 2 \(minecraft:glass_pane\)\. Keep them or replace them\?$/,
      floors,
      60_000,
    );
    await c.waitFor(/^✔ done$/, floors + 1);
    expect(await c.end()).toBe(0);

    const box = (x1: number, y1: number, z1: number, x2: number, y2: number, z2: number) => ({ minX: x1, minY: y1, minZ: z1, maxX: x2, maxY: y2, maxZ: z2 });
    expect(await countBlocks(dir, box(4, 67, 2, 4, 67, 2), "minecraft:glass_pane[east=true,north=false,south=false,waterlogged=false,west=true]")).toBe(1); // joined to the wall as the game places it
    expect(await countBlocks(dir, box(2, 67, 2, 6, 67, 2), "minecraft:stone_bricks")).toBe(4); // no stairs written
    expect(await countBlocks(dir, box(2, 64, 2, 6, 79, 6), "minecraft:stone_bricks")).toBe(146 + 2 * 64 + 9 - 1); // 16 levels of wall, the old ceiling inside, minus the window
    expect(await countBlocks(dir, box(2, 72, 2, 6, 74, 6), "minecraft:cut_copper")).toBe(0); // the old roof undone
    expect(await countBlocks(dir, box(2, 80, 2, 6, 82, 6), "minecraft:oak_planks")).toBe(35); // the new one on top
  }, 120_000);
});
