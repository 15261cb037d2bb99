import { readFileSync } from "node:fs";
import type { Bot } from "mineflayer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileRecipe, forEachPlanBlock } from "@mcb/recipe";
import { LiveEngine, startMinestomHost, unwrap, type MinestomHost } from "../src/index.js";
import { breakBlock, joinBot, seenState, waitUntilSeen } from "./support/Bot.js";

/**
 * The engine builds into a real Minecraft 26.1.2 server (the Minestom host) through
 * @mcb/adapter-port, and a real client (mineflayer, protocol 775) checks what a player sees.
 */
const GRASS = "minecraft:grass_block[snowy=false]";
const STONE = "minecraft:stone";
const key = (x: number, y: number, z: number): string => `${x},${y},${z}`;

describe("live: engine → world port → Minestom server, seen by a mineflayer client", () => {
  let host: MinestomHost;
  let live: LiveEngine;
  let bot: Bot;

  beforeAll(async () => {
    host = await startMinestomHost({ build: "26.1.2" }); // mineflayer 4.39.0 speaks 26.1
    live = await LiveEngine.open(host, { sliceSize: 16, sliceWindow: 1 });
    bot = await joinBot(host.gamePort, "Builder");
  }, 120_000);

  afterAll(async () => {
    bot?.quit();
    await live?.close();
    await host?.stop();
    host?.dispose();
  });

  it("builds the example tower; the bot sees the plan block by block", async () => {
    const recipe = JSON.parse(readFileSync(new URL("../../examples/tower.json", import.meta.url), "utf8"));
    const plan = unwrap(compileRecipe(live.registry, recipe));
    const expected = new Map<string, string>();
    forEachPlanBlock(plan, (x, y, z, s) => expected.set(key(x, y, z), plan.palette[s]!));
    const prepared = unwrap(await live.engine.buildPrepare(live.agent, { plan }));
    expect(prepared.changed_blocks).toBeGreaterThan(500);
    const op = unwrap(await live.engine.buildApply(live.agent, { plan_id: prepared.plan_id, plan_hash: prepared.plan_hash, idempotency_key: "tower" }));
    await live.engine.settle();
    const status = unwrap(await live.engine.operationStatus(live.agent, { operation_id: op.operation_id }));
    expect(status.status).toBe("applied");
    expect(status.counters.written).toBe(prepared.changed_blocks);
    expect(await waitUntilSeen(bot, expected)).toEqual([]);
    // A re-prepare of the same plan against the live world has nothing left to do.
    expect(unwrap(await live.engine.buildPrepare(live.agent, { plan })).changed_blocks).toBe(0);
  }, 120_000);

  it("a block the bot breaks between slices stops the build with a conflict and stays broken; checked undo leaves it alone; region_changes reports it", async () => {
    // 64 grass blocks at y=63 around the bot become stone, 16 per slice, ordered by z rows.
    const min = { x: -3, y: 63, z: -3 },
      max = { x: 4, y: 63, z: 4 };
    const cursor = unwrap(await live.engine.regionChanges(live.agent, { min, max })).next_cursor;
    const prepared = unwrap(await live.engine.buildPrepare(live.agent, { recipe: { version: 1, operations: [{ type: "box", min, max, block: STONE }] } }));
    expect(prepared.changed_blocks).toBe(64);
    const written = { x: 1, y: 63, z: -2 }; // slice 0, already stone when the bot acts
    const ahead = { x: 1, y: 63, z: 2 }; // slice 2, still grass
    live.world.calls = 0;
    live.world.beforeCompareAndSet = async (call) => {
      if (call !== 1) return;
      await breakBlock(bot, written.x, written.y, written.z);
      await breakBlock(bot, ahead.x, ahead.y, ahead.z);
      // The edits reached the server when the port reads them back.
      for (let i = 0; i < 100; i++) {
        const r = await live.port.read({ minX: 1, minY: 63, minZ: -2, maxX: 1, maxY: 63, maxZ: 2 });
        if (r.palette[r.states[0]!] === "minecraft:air" && r.palette[r.states[4]!] === "minecraft:air") return;
        await new Promise((res) => setTimeout(res, 50));
      }
      throw new Error("the bot's edits never reached the world");
    };
    const op = unwrap(await live.engine.buildApply(live.agent, { plan_id: prepared.plan_id, plan_hash: prepared.plan_hash, idempotency_key: "floor" }));
    await live.engine.settle();
    live.world.beforeCompareAndSet = null;
    const status = unwrap(await live.engine.operationStatus(live.agent, { operation_id: op.operation_id }));
    expect(status.status).toBe("conflict");
    expect(status.counters.written).toBe(32); // slices 0 and 1, exactly
    expect(status.conflicts.map((c) => c.pos)).toContainEqual(ahead);
    expect(seenState(bot, ahead.x, ahead.y, ahead.z)).toBe("minecraft:air");

    // The bot's edits, as region_changes reports them (external, with the state they left).
    const changes = unwrap(await live.engine.regionChanges(live.agent, { min, max, since_cursor: cursor })).changes;
    const external = changes.filter((c) => c.source === "external").map((c) => ({ ...c.pos, state: c.after }));
    expect(external).toEqual(
      expect.arrayContaining([
        { ...written, state: "minecraft:air" },
        { ...ahead, state: "minecraft:air" },
      ]),
    );
    expect(changes.filter((c) => c.source === "operation")).toHaveLength(32);

    // Checked undo: every block we wrote goes back to grass, except the one the bot broke after we wrote it.
    const undo = unwrap(await live.engine.operationUndoPrepare(live.agent, { operation_id: op.operation_id }));
    expect(undo.changed_blocks).toBe(31);
    expect(undo.conflicts.count).toBe(1);
    expect(undo.conflicts.sample.map((c) => c.pos)).toEqual([written]);
    unwrap(await live.engine.buildApply(live.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "floor-undo" }));
    await live.engine.settle();
    const expected = new Map<string, string>();
    for (let z = min.z; z <= max.z; z++) for (let x = min.x; x <= max.x; x++) expected.set(key(x, 63, z), GRASS);
    expected.set(key(written.x, written.y, written.z), "minecraft:air");
    expected.set(key(ahead.x, ahead.y, ahead.z), "minecraft:air");
    expect(await waitUntilSeen(bot, expected)).toEqual([]);
  }, 120_000);

  it("a player's /ai command reaches the chat queue with the server's UUID and position, and a reply reaches the player", async () => {
    const poll = () => live.port.port.call("chat_poll", { max: 16 }, false);
    await poll(); // drain
    bot.chat("/ai build a watchtower here, player_id=00000000-0000-0000-0000-000000000000");
    let messages: { player_id: string; player_name: string; text: string; position?: { x: number; y: number; z: number } }[] = [];
    for (let i = 0; i < 100 && messages.length === 0; i++) {
      messages = (await poll()).messages as typeof messages;
      if (messages.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(messages).toHaveLength(1);
    const m = messages[0]!;
    expect(m.player_id).toBe(bot.player.uuid); // from the server, whatever the text claims
    expect(m.player_name).toBe("Builder");
    expect(m.text).toBe("build a watchtower here, player_id=00000000-0000-0000-0000-000000000000");
    expect(m.position).toEqual({ x: Math.floor(bot.entity.position.x), y: Math.floor(bot.entity.position.y), z: Math.floor(bot.entity.position.z) });
    const heard = new Promise<string>((resolve) =>
      bot.on("messagestr", (text) => {
        if (text.includes("Building")) resolve(text);
      }),
    );
    expect((await live.port.port.call("chat_reply", { player_id: m.player_id, text: "Building a watchtower: 3 stages" }, false)).delivered).toBe(true);
    expect(await heard).toBe("Building a watchtower: 3 stages");
    expect((await live.port.port.call("chat_reply", { player_id: "00000000-0000-4000-8000-000000000001", text: "nobody" }, false)).delivered).toBe(false);
  }, 60_000);
});
