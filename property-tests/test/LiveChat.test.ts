import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { waitUntilSeen } from "./support/Bot.js";
import { liveChatRig } from "./support/LiveChatRig.js";

/**
 * The whole in-game path on a real server: a mineflayer player types `/ai …` on the Minestom
 * host, `mcb chat --world port://…` polls it, the scripted ACP agent builds through MCP, the
 * replies arrive in the player's chat and the player sees the tower's blocks.
 */
describe("live: /ai in game → mcb chat → ACP agent → MCP → world port → Minestom, seen by mineflayer", () => {
  const live = liveChatRig("Mason");
  const { heard, waitHeard } = live;

  it("the player creates a project, types /ai build a tower, reads the replies and sees the tower", async () => {
    live.bot.chat("/ai project create keep");
    const created = await waitHeard(/^Project keep created and selected: x -32\.\.31, y -64\.\.319, z -32\.\.31\.$/);
    const px = Math.floor(live.bot.entity.position.x),
      py = Math.floor(live.bot.entity.position.y),
      pz = Math.floor(live.bot.entity.position.z);
    live.bot.chat("/ai build a tower");
    const done = await waitHeard(/^✔ done$/, created, 60_000);
    // the host acknowledges each /ai itself ("[mcb] queued #n"); the rest is the bridge's
    const turn = heard.slice(created + 1, done + 1).filter((h) => !h.text.startsWith("[mcb] queued"));
    const texts = turn.map((h) => h.text);
    expect(texts[0]).toBe("· minecraft-builder project_context");
    expect(texts).toContain("Building in project keep.");
    expect(texts).toContain("Prepared a tower of 146 blocks.");
    expect(texts.some((t) => /^Tower finished: 146 blocks written by op_\w+, part part_\w+\.$/.test(t))).toBe(true);
    expect(texts.indexOf("Prepared a tower of 146 blocks.")).toBeLessThan(texts.findIndex((t) => t.startsWith("Tower finished")));
    expect(texts.every((t) => t.length <= 240)).toBe(true);
    for (let i = 4; i < turn.length; i++) expect(turn[i]!.at - turn[i - 4]!.at).toBeGreaterThanOrEqual(900);
    // the tower the agent placed next to the player's server-side position, as the player sees it
    const expected = new Map<string, string>();
    for (let y = py; y <= py + 7; y++)
      for (let z = pz + 2; z <= pz + 6; z++)
        for (let x = px + 2; x <= px + 6; x++) {
          const shell = x === px + 2 || x === px + 6 || z === pz + 2 || z === pz + 6 || y === py || y === py + 7;
          if (shell) expected.set(`${x},${y},${z}`, "minecraft:stone_bricks");
        }
    expect(expected.size).toBe(146);
    expect(await waitUntilSeen(live.bot, expected)).toEqual([]);
  }, 120_000);

  it("camera save takes the player's position and view from the server; status and stop answer in game", async () => {
    const from = heard.length;
    live.bot.chat("/ai camera save gate");
    await waitHeard(/^Camera gate saved at your position and view\.$/, from);
    const cameras = JSON.parse(readFileSync(join(live.state, "cameras.json"), "utf8")) as {
      cameras: { camera_id: string; pose: { x: number; y: number; z: number; yaw: number; pitch: number } }[];
    };
    const gate = cameras.cameras.find((c) => c.camera_id === "gate")!;
    expect(gate.pose).toMatchObject({
      x: Math.floor(live.bot.entity.position.x) + 0.5,
      y: Math.floor(live.bot.entity.position.y),
      z: Math.floor(live.bot.entity.position.z) + 0.5,
    });
    expect(Number.isFinite(gate.pose.yaw) && Number.isFinite(gate.pose.pitch)).toBe(true);
    live.bot.chat("/ai status");
    await waitHeard(/^Project keep: x -32\.\.31/, from);
    await waitHeard(/^No request running\.$/, from);
    live.bot.chat("/ai stop");
    await waitHeard(/^Nothing was running\.$/, from);
  }, 60_000);
});
