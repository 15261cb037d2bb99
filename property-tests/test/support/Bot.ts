import mineflayer, { type Bot } from "mineflayer";
import loadItem from "prismarine-item";
import { Vec3 } from "vec3";

/** A real Minecraft 26.1 client (mineflayer, offline mode) joined to a loopback server. */
export async function joinBot(gamePort: number, username: string): Promise<Bot> {
  const bot = mineflayer.createBot({ host: "127.0.0.1", port: gamePort, username, version: "26.1", auth: "offline" });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the bot did not spawn within 30 s")), 30_000);
    bot.once("spawn", () => {
      clearTimeout(timer);
      resolve();
    });
    bot.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    bot.once("kicked", (reason) => {
      clearTimeout(timer);
      reject(new Error(`kicked: ${JSON.stringify(reason)}`));
    });
  });
  await bot.waitForChunksToLoad();
  return bot;
}

/** The bot's own view of a block as a canonical state string (every property, keys sorted). */
export function seenState(bot: Bot, x: number, y: number, z: number): string | null {
  const b = bot.blockAt(new Vec3(x, y, z));
  if (b === null) return null;
  const props = b.getProperties() as Record<string, string | number | boolean>;
  const keys = Object.keys(props).sort();
  return keys.length === 0 ? `minecraft:${b.name}` : `minecraft:${b.name}[${keys.map((k) => `${k}=${String(props[k])}`).join(",")}]`;
}

/**
 * Waits (bounded) until the bot sees every expected state; returns the positions it still sees
 * differently (empty when everything matched).
 */
export async function waitUntilSeen(
  bot: Bot,
  expected: ReadonlyMap<string, string>,
  timeoutMs = 15_000,
): Promise<{ pos: string; want: string; seen: string | null }[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const wrong: { pos: string; want: string; seen: string | null }[] = [];
    for (const [pos, want] of expected) {
      const [x, y, z] = pos.split(",").map(Number) as [number, number, number];
      const seen = seenState(bot, x, y, z);
      if (seen !== want) wrong.push({ pos, want, seen });
    }
    if (wrong.length === 0 || Date.now() > deadline) return wrong;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The bot breaks a block (creative: at once) and returns when the server confirms it. */
export async function breakBlock(bot: Bot, x: number, y: number, z: number): Promise<void> {
  const block = bot.blockAt(new Vec3(x, y, z));
  if (block === null) throw new Error(`the bot cannot see ${x},${y},${z}`);
  await bot.dig(block, true);
}

/**
 * The bot places a block by hand as a player does (creative): the item in its hand, a click on the
 * top face of the block below the target; returns when the bot sees the block placed.
 */
export async function placeBlock(bot: Bot, x: number, y: number, z: number, item: string): Promise<void> {
  // A CommonJS module whose typings declare an ES default: at run time the import is the loader itself.
  const Item = (loadItem as unknown as typeof loadItem.default)(bot.registry);
  const def = bot.registry.itemsByName[item];
  if (def === undefined) throw new Error(`no item ${item}`);
  await bot.creative.setInventorySlot(36, new Item(def.id, 1));
  await bot.equip(def.id, "hand");
  const below = bot.blockAt(new Vec3(x, y - 1, z));
  if (below === null) throw new Error(`the bot cannot see ${x},${y - 1},${z}`);
  await bot.lookAt(new Vec3(x + 0.5, y, z + 0.5), true);
  await bot.placeBlock(below, new Vec3(0, 1, 0));
}
