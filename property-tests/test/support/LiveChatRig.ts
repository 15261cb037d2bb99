import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Bot } from "mineflayer";
import { afterAll, beforeAll } from "vitest";
import { startMinestomHost, type MinestomHost } from "../../src/index.js";
import { joinBot } from "./Bot.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const cli = join(root, "packages/bridge/dist/bin.js");
const agent = join(root, "property-tests/dist/acp/ScriptedAgent.js");

/** What a live chat test works with; filled in by `beforeAll`. */
export interface LiveChatRig {
  host: MinestomHost;
  bot: Bot;
  /** The state directory of `mcb chat` (its journal, sessions, cameras). */
  state: string;
  /** Every chat line the player saw, with when. */
  readonly heard: { text: string; at: number }[];
  /** The first line at or after `from` matching `re`, waiting at most `timeoutMs`; its index. */
  waitHeard(re: RegExp, from?: number, timeoutMs?: number): Promise<number>;
}

/**
 * A test file's live chat: a Minestom host on loopback, `mcb chat --world port://…` with the
 * scripted ACP agent, and a mineflayer player named `player` in game, started before the file's
 * tests and stopped after them.
 */
export function liveChatRig(player: string): LiveChatRig {
  let chat: ChildProcessWithoutNullStreams | undefined;
  const chatLog: string[] = [];
  const rig = {
    heard: [] as { text: string; at: number }[],
    async waitHeard(re: RegExp, from = 0, timeoutMs = 60_000): Promise<number> {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const i = rig.heard.findIndex((h, k) => k >= from && re.test(h.text));
        if (i >= 0) return i;
        if (performance.now() > deadline)
          throw new Error(`the player never saw ${re}; saw:\n${rig.heard.map((h) => h.text).join("\n")}\nchat stderr:\n${chatLog.join("")}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  } as LiveChatRig;

  beforeAll(async () => {
    rig.host = await startMinestomHost({ build: "26.1.2" }); // mineflayer 4.39.0 speaks 26.1
    rig.state = mkdtempSync(join(tmpdir(), "mcb-livechat-"));
    chat = spawn(process.execPath, [cli, "chat", "--world", rig.host.url, "--state", rig.state], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", MCB_PORT_TOKEN: rig.host.token, MCB_ACP_COMMAND: process.execPath, MCB_ACP_ARGS: JSON.stringify([agent]) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    chat.stderr.setEncoding("utf8").on("data", (d: string) => chatLog.push(d));
    rig.bot = await joinBot(rig.host.gamePort, player);
    rig.bot.on("messagestr", (text) => {
      rig.heard.push({ text, at: performance.now() });
    });
  }, 120_000);

  afterAll(async () => {
    rig.bot?.quit();
    if (chat !== undefined && chat.exitCode === null) {
      const exited = new Promise((r) => chat!.once("exit", r));
      chat.kill("SIGTERM");
      await exited;
    }
    await rig.host?.stop();
    rig.host?.dispose();
    if (rig.state !== undefined) rmSync(rig.state, { recursive: true, force: true });
  });
  return rig;
}
