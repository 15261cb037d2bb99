import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMinestomHost, type MinestomHost } from "../src/index.js";
import { joinBot, waitUntilSeen } from "./support/Bot.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const cli = join(root, "packages/bridge/dist/cli.js");
const agent = join(root, "property-tests/dist/acp/ScriptedAgent.js");

/**
 * The whole in-game path on a real server: a mineflayer player types `/ai …` on the Minestom
 * host, `mcb chat --world port://…` polls it, the scripted ACP agent builds through MCP, the
 * replies arrive in the player's chat and the player sees the tower's blocks.
 */
describe("live: /ai in game → mcb chat → ACP agent → MCP → world port → Minestom, seen by mineflayer", () => {
  let host: MinestomHost;
  let bot: Bot;
  let chat: ChildProcessWithoutNullStreams;
  let state: string;
  const heard: { text: string; at: number }[] = [];
  const chatLog: string[] = [];

  const waitHeard = async (re: RegExp, from = 0, timeoutMs = 30_000): Promise<number> => {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const i = heard.findIndex((h, k) => k >= from && re.test(h.text));
      if (i >= 0) return i;
      if (performance.now() > deadline) throw new Error(`the player never saw ${re}; saw:\n${heard.map((h) => h.text).join("\n")}\nchat stderr:\n${chatLog.join("")}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    host = await startMinestomHost();
    state = mkdtempSync(join(tmpdir(), "mcb-livechat-"));
    chat = spawn(process.execPath, [cli, "chat", "--world", host.url, "--state", state], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", MCB_PORT_TOKEN: host.token, MCB_ACP_COMMAND: process.execPath, MCB_ACP_ARGS: JSON.stringify([agent]) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    chat.stderr.setEncoding("utf8").on("data", (d: string) => chatLog.push(d));
    bot = await joinBot(host.gamePort, "Mason");
    bot.on("messagestr", (text) => {
      heard.push({ text, at: performance.now() });
    });
  }, 120_000);

  afterAll(async () => {
    bot?.quit();
    if (chat !== undefined && chat.exitCode === null) {
      const exited = new Promise((r) => chat.once("exit", r));
      chat.kill("SIGTERM");
      await exited;
    }
    await host?.stop();
    host?.dispose();
    if (state !== undefined) rmSync(state, { recursive: true, force: true });
  });

  it("the player creates a project, types /ai build a tower, reads the replies and sees the tower", async () => {
    bot.chat("/ai project create keep");
    const created = await waitHeard(/^Project keep created and selected: x -32\.\.31, y -64\.\.319, z -32\.\.31\.$/);
    const px = Math.floor(bot.entity.position.x), py = Math.floor(bot.entity.position.y), pz = Math.floor(bot.entity.position.z);
    bot.chat("/ai build a tower");
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
    expect(await waitUntilSeen(bot, expected)).toEqual([]);
  }, 120_000);

  it("camera save takes the player's position and view from the server; status and stop answer in game", async () => {
    const from = heard.length;
    bot.chat("/ai camera save gate");
    await waitHeard(/^Camera gate saved at your position and view\.$/, from);
    const cameras = JSON.parse(readFileSync(join(state, "cameras.json"), "utf8")) as { cameras: { camera_id: string; pose: { x: number; y: number; z: number; yaw: number; pitch: number } }[] };
    const gate = cameras.cameras.find((c) => c.camera_id === "gate")!;
    expect(gate.pose).toMatchObject({ x: Math.floor(bot.entity.position.x) + 0.5, y: Math.floor(bot.entity.position.y), z: Math.floor(bot.entity.position.z) + 0.5 });
    expect(Number.isFinite(gate.pose.yaw) && Number.isFinite(gate.pose.pitch)).toBe(true);
    bot.chat("/ai status");
    await waitHeard(/^Project keep: x -32\.\.31/, from);
    await waitHeard(/^No request running\.$/, from);
    bot.chat("/ai stop");
    await waitHeard(/^Nothing was running\.$/, from);
  }, 60_000);
});
