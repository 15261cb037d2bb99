import { setTimeout as sleep } from "node:timers/promises";
import type { PortClient } from "@mcb/adapter-port";
import type { ChatMessage, ChatSource } from "./ChatSource.js";

const POLL_INTERVAL_MS = 250;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function num(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

/**
 * The game's `/ai` queue through the world port (`chat_poll` / `chat_reply`). The player's UUID,
 * name, position and view come from the server. A poll consumes messages, so it is never retried.
 */
export class PortChat implements ChatSource {
  readonly ended = false;
  private last = 0;

  constructor(private readonly client: PortClient) {}

  async poll(): Promise<readonly ChatMessage[]> {
    const wait = this.last + POLL_INTERVAL_MS - performance.now();
    if (wait > 0) await sleep(wait);
    this.last = performance.now();
    const r = await this.client.call("chat_poll", { max: 16 }, false);
    const dropped = typeof r.dropped === "number" ? r.dropped : 0;
    if (dropped > 0) process.stderr.write(`mcb chat: the server's /ai queue overflowed; ${dropped} messages were lost\n`);
    const out: ChatMessage[] = [];
    for (const m of Array.isArray(r.messages) ? r.messages : []) {
      const o = m as Record<string, unknown>;
      if (typeof o.player_id !== "string" || !UUID.test(o.player_id) || typeof o.text !== "string") continue;
      const pos = o.position as Record<string, unknown> | undefined;
      const look = o.look as Record<string, unknown> | undefined;
      out.push({
        playerId: o.player_id,
        playerName: typeof o.player_name === "string" ? o.player_name : o.player_id,
        text: o.text,
        ...(pos !== undefined && num(pos.x) && num(pos.y) && num(pos.z) ? { position: { x: pos.x, y: pos.y, z: pos.z } } : {}),
        ...(look !== undefined && num(look.yaw) && num(look.pitch) ? { look: { yaw: look.yaw, pitch: look.pitch } } : {}),
      });
    }
    return out;
  }

  async reply(playerId: string, text: string): Promise<boolean> {
    const r = await this.client.call("chat_reply", { player_id: playerId, text }, false);
    return r.delivered === true;
  }

  async close(): Promise<void> {}
}
