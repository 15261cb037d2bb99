import { describe, expect, it } from "vitest";
import { Vec3 } from "vec3";
import { placeBlock, waitUntilSeen } from "./support/Bot.js";
import { liveChatRig } from "./support/LiveChatRig.js";

/**
 * The chat stage's acceptance on a real server: a mineflayer player asks for a tower with a named roof
 * (`/ai` → mcb chat → scripted ACP agent → MCP → world port → Minestom), puts a window into its
 * wall by hand, and the agent's roof edit, two more floors and a new roof keep that window, while
 * stairs across it are refused naming exactly its position. The player sees every block.
 */
describe("live: keep my windows — a player's window on the Minestom host survives the agent's rebuilds", () => {
  const live = liveChatRig("Glazier");
  const { waitHeard } = live;

  it("tower with a roof → the player's glass pane in the wall → copper roof, two floors, new roof keep it → stairs over it refused with its position", async () => {
    live.bot.chat("/ai project create windows");
    const created = await waitHeard(/^Project windows created and selected/);
    const px = Math.floor(live.bot.entity.position.x),
      py = Math.floor(live.bot.entity.position.y),
      pz = Math.floor(live.bot.entity.position.z);
    const base = { x: px + 2, y: py, z: pz + 2 };
    live.bot.chat("/ai build a tower with a roof");
    const built = await waitHeard(/^Tower with a roof: walls part_\w+ \(146 blocks\), roof part_\w+ \(35 blocks\)\.$/, created);

    // The player's window: break a wall block, put a glass pane in its place, by hand.
    const w = { x: base.x + 2, y: base.y + 3, z: base.z };
    await waitUntilSeen(live.bot, new Map([[`${w.x},${w.y},${w.z}`, "minecraft:stone_bricks"]]));
    const wall = live.bot.blockAt(new Vec3(w.x, w.y, w.z));
    await live.bot.dig(wall!, true);
    await placeBlock(live.bot, w.x, w.y, w.z, "glass_pane");
    // placed by hand between two wall blocks, the pane joins both, as the game's does
    const pane = "minecraft:glass_pane[east=true,north=false,south=false,waterlogged=false,west=true]";
    expect(await waitUntilSeen(live.bot, new Map([[`${w.x},${w.y},${w.z}`, pane]]))).toEqual([]);

    live.bot.chat("/ai make it a copper roof");
    const copper = await waitHeard(/^Roof part_\w+ is copper now: 35 blocks changed, nothing outside it\.$/, built);
    live.bot.chat("/ai add two floors and redo the roof");
    await waitHeard(new RegExp(`^You changed 1 block\\(s\\) of the walls by hand \\(at ${w.x} ${w.y} ${w.z}\\); I will keep them\\.$`), copper);
    const floors = await waitHeard(
      new RegExp(`^Added two floors \\(\\d+ blocks; kept 1 you placed by hand\\) and redid the roof at y ${base.y + 16} \\(part_\\w+\\)\\.$`),
      copper,
    );
    live.bot.chat("/ai put stairs in front of my window");
    await waitHeard(
      new RegExp(
        `^Conflict: 1 block\\(s\\) you changed by hand are where the stairs would go: ${w.x} ${w.y} ${w.z} \\(minecraft:glass_pane\\)\\. Keep them or replace them\\?$`,
      ),
      floors,
    );

    // What the player sees: the pane, the walls around it (no stairs), 16 levels of wall, the new roof.
    const expected = new Map<string, string>([[`${w.x},${w.y},${w.z}`, pane]]);
    for (let x = base.x; x <= base.x + 4; x++) if (x !== w.x) expected.set(`${x},${w.y},${w.z}`, "minecraft:stone_bricks");
    expected.set(`${base.x},${base.y + 15},${base.z}`, "minecraft:stone_bricks");
    for (let d = 0; d <= 2; d++) expected.set(`${base.x + d},${base.y + 16 + d},${base.z + d}`, "minecraft:oak_planks");
    expected.set(`${base.x + 2},${base.y + 8},${base.z + 2}`, "minecraft:air"); // the old roof's top, cleared
    expect(await waitUntilSeen(live.bot, expected)).toEqual([]);
  }, 180_000);
});
