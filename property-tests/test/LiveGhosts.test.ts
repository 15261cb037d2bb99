import { PortWorld } from "@mcb/adapter-port";
import type { Bot } from "mineflayer";
import { afterAll, describe, expect, it } from "vitest";
import { joinBot, placeBlock, seenState, waitUntilSeen } from "./support/Bot.js";
import { liveChatRig } from "./support/LiveChatRig.js";

/**
 * Ghost previews on a real server (the 26.1.2 Minestom host, mineflayer clients): `/ai preview a
 * tower` shows the agent's prepared plan to the player who asked, as client-side blocks; the
 * port's read and a second player see the world unchanged; `/ai discard` restores the player's
 * view; `/ai apply` makes the plan real through compare-and-set; a person's edit under a ghost
 * clears it, and the apply stops at it
 * without writing over it.
 */
describe("live: /ai preview shows a plan to one player only; discard, apply, and an edit under the ghost", () => {
  const live = liveChatRig("Seer");
  const { waitHeard } = live;
  let witness: Bot | undefined;
  afterAll(() => witness?.quit());

  /** The hollow 5×5×8 tower of the scripted agent, next to the player at (px, py, pz). */
  function tower(px: number, py: number, pz: number, state: string): Map<string, string> {
    const m = new Map<string, string>();
    for (let y = py; y <= py + 7; y++)
      for (let z = pz + 2; z <= pz + 6; z++)
        for (let x = px + 2; x <= px + 6; x++)
          if (x === px + 2 || x === px + 6 || z === pz + 2 || z === pz + 6 || y === py || y === py + 7) m.set(`${x},${y},${z}`, state);
    return m;
  }

  async function portSees(world: PortWorld, positions: Map<string, string>): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const pos of positions.keys()) {
      const [x, y, z] = pos.split(",").map(Number) as [number, number, number];
      const r = await world.read({ minX: x, minY: y, minZ: z, maxX: x, maxY: y, maxZ: z });
      out.set(pos, r.palette[r.states[0]!]!);
    }
    return out;
  }

  it("the player alone sees the preview; discard restores it; apply writes it for everyone", async () => {
    witness = await joinBot(live.host.gamePort, "Witness");
    const world = await PortWorld.connect({ url: live.host.url, token: live.host.token });
    try {
      live.bot.chat("/ai project create ghosts");
      const created = await waitHeard(/^Project ghosts created and selected/);
      const px = Math.floor(live.bot.entity.position.x),
        py = Math.floor(live.bot.entity.position.y),
        pz = Math.floor(live.bot.entity.position.z);
      const bricks = tower(px, py, pz, "minecraft:stone_bricks");
      const air = tower(px, py, pz, "minecraft:air");
      expect(bricks.size).toBe(146);

      live.bot.chat("/ai preview a tower");
      const shown = await waitHeard(/^Showing 146 blocks only you can see; \/ai apply builds it, \/ai discard drops it\.$/, created);
      await waitHeard(/^✔ done$/, shown);
      expect(await waitUntilSeen(live.bot, bricks)).toEqual([]);
      expect(await waitUntilSeen(witness, air, 1000)).toEqual([]);
      expect(await portSees(world, bricks)).toEqual(air);

      live.bot.chat("/ai discard");
      const discarded = await waitHeard(/^Preview of 146 blocks discarded; nothing was written\.$/, shown);
      expect(await waitUntilSeen(live.bot, air)).toEqual([]);

      live.bot.chat("/ai preview");
      const nothing = await waitHeard(/^Nothing is previewed: \/ai preview <request> first\.$/, discarded);
      live.bot.chat("/ai preview a tower");
      const second = await waitHeard(/^Showing 146 blocks only you can see/, nothing);
      await waitHeard(/^✔ done$/, second);
      live.bot.chat("/ai preview"); // shown again as it is (after a chunk reload, a timeout)
      const again = await waitHeard(/^Showing 146 blocks only you can see/, second + 1);
      expect(await waitUntilSeen(live.bot, bricks)).toEqual([]);
      expect(await portSees(world, bricks)).toEqual(air);

      live.bot.chat("/ai apply");
      const applied = await waitHeard(/^Applied the preview: 146 block\(s\) written by op_\w+\.$/, again);
      const op = /(op_\w+)/.exec(live.heard[applied]!.text)![1]!;
      expect(await portSees(world, bricks)).toEqual(bricks);
      expect(await waitUntilSeen(witness, bricks)).toEqual([]);
      expect(await waitUntilSeen(live.bot, bricks)).toEqual([]);

      // A person's edit under a ghost: the ghost goes, and the apply does not overwrite the edit.
      live.bot.chat(`/ai undo ${op}`);
      const undone = await waitHeard(new RegExp(`^Undid ${op}: 146 block\\(s\\) restored`), applied);
      expect(await waitUntilSeen(witness, air)).toEqual([]);
      live.bot.chat("/ai preview a tower");
      const shown2 = await waitHeard(/^Showing 146 blocks only you can see/, undone);
      await waitHeard(/^✔ done$/, shown2);
      expect(await waitUntilSeen(live.bot, bricks)).toEqual([]);
      const corner = { x: px + 2, y: py, z: pz + 2 };
      await placeBlock(witness, corner.x, corner.y, corner.z, "glass");
      await waitHeard(new RegExp(`^\\[mcb\\] preview #\\d+ cleared: the world changed under it at ${corner.x} ${corner.y} ${corner.z}`), shown2);
      const cleared = new Map(air);
      cleared.set(`${corner.x},${corner.y},${corner.z}`, "minecraft:glass");
      expect(await waitUntilSeen(live.bot, cleared)).toEqual([]);
      live.bot.chat("/ai apply");
      await waitHeard(
        new RegExp(
          `^Stopped at a change: 1 block\\(s\\) changed since the preview was prepared \\(at ${corner.x} ${corner.y} ${corner.z}\\) and nothing was written over them; 0 of 146 written by op_\\w+\\. `,
        ),
        shown2,
      );
      expect((await portSees(world, cleared)).get(`${corner.x},${corner.y},${corner.z}`)).toBe("minecraft:glass");
      expect(seenState(witness, corner.x, corner.y, corner.z)).toBe("minecraft:glass");
    } finally {
      await world.close();
    }
  }, 120_000);
});
