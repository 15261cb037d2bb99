// A mineflayer client (Minecraft 26.1, offline) in a process of its own, as a player's game is:
// joins the server on argv[2] as argv[3], says "ready" over IPC once it stands in the world, then
// answers {id, positions: ["x,y,z", …]} with the states it sees there (canonical strings, null for
// an unloaded block) and reports "ended" if the server drops it.
import mineflayer from "mineflayer";
import { Vec3 } from "vec3";

const bot = mineflayer.createBot({ host: "127.0.0.1", port: Number(process.argv[2]), username: process.argv[3], version: "26.1", auth: "offline" });
const seen = (x, y, z) => {
  const b = bot.blockAt(new Vec3(x, y, z));
  if (b === null) return null;
  const props = b.getProperties();
  const keys = Object.keys(props).sort();
  return keys.length === 0 ? `minecraft:${b.name}` : `minecraft:${b.name}[${keys.map((k) => `${k}=${String(props[k])}`).join(",")}]`;
};
bot.once("spawn", async () => {
  await bot.waitForChunksToLoad();
  process.send({ type: "ready" });
});
let lastError = null;
bot.on("error", (e) => (lastError = String(e?.stack ?? e)));
bot._client.on("error", (e) => (lastError = String(e?.stack ?? e)));
bot.on("end", (reason) => process.send({ type: "ended", reason: `end: ${reason}${lastError === null ? "" : `; error: ${lastError}`}` }));
bot.on("kicked", (reason) => process.send({ type: "ended", reason: JSON.stringify(reason) }));
process.on("message", (m) => {
  if (m.type === "quit") {
    bot.quit();
    setTimeout(() => process.exit(0), 200);
    return;
  }
  process.send({ type: "seen", id: m.id, states: m.positions.map((p) => seen(...p.split(",").map(Number))) });
});
