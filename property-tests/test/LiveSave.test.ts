import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AnvilWorld, RegionFile } from "@mcb/adapter-anvil";
import { PortWorld } from "@mcb/adapter-port";
import { NbtReader, TAG, type NbtCompound } from "@mcb/nbt";
import { createBlockRegistry, type BlockRegistry } from "@mcb/blocks";
import { amulet, sharedRegistry, startMinestomHost, stdlibChunks, unwrap, type HostBuild } from "../src/index.js";
import { joinBot, seenState } from "./support/Bot.js";

/**
 * One save, three programs: mcb builds it offline (adapter-anvil), the Minestom host serves it (to a
 * real client on the 26.1.2 build: mineflayer speaks 26.1) and saves into it, mcb and amulet read
 * what the host saved, with the fields the game needs (Status, isLightOn, heightmaps), the host's
 * DataVersion, and the tags the host does not write kept. Both host builds, each with its version's save.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const BUILDS: readonly { readonly build: HostBuild; readonly registry: BlockRegistry; readonly dataVersion: number; readonly bot: boolean }[] = [
  { build: "26.2", registry: sharedRegistry(), dataVersion: 4903, bot: false },
  { build: "26.1.2", registry: unwrap(createBlockRegistry({ version: "26.1" })), dataVersion: 4790, bot: true },
];
const write = (x: number, y: number, z: number, after: string) => ({ x, y, z, before: "minecraft:air", beforeDigest: null, after });

function storedChunk(save: string, x: number, z: number): NbtCompound {
  const r = RegionFile.open(join(save, "dimensions", "minecraft", "overworld", "region", `r.${x >> 5}.${z >> 5}.mca`), x >> 5, z >> 5, false)!;
  const c = r.read(x, z)!;
  r.close();
  const reader = new NbtReader(c.nbt);
  reader.root();
  return reader.compoundValue();
}

describe.each(BUILDS)("saves shared by mcb offline and the Minestom $build host", ({ build, registry, dataVersion, bot: withBot }) => {
  const options = (dir: string, flatGround: boolean) => ({ dir, registry, flatGround, idleSaveMs: 0 });
  it(`a ${registry.minecraftVersion} save built offline opens on the host${withBot ? " and a player sees it" : ""}; what the host saves carries its DataVersion, Status, isLightOn and heightmaps, keeps our tags, and mcb and amulet read it`, async () => {
    const save = join(mkdtempSync(join(tmpdir(), "mcb-live-save-")), "world");
    dirs.push(join(save, ".."));
    const offline = await AnvilWorld.open(options(save, true));
    const wall = [2, 3, 4, 5, 6].flatMap((x) => [64, 65, 66].map((y) => write(x, y, 3, "minecraft:stone_bricks")));
    expect((await offline.compareAndSet({ checks: [], writes: wall })).written).toBe(15);
    await offline.close();

    const host = await startMinestomHost({ worldDir: save, build });
    try {
      const port = await PortWorld.connect({ url: host.url, token: host.token });
      const box = { minX: 0, minY: 62, minZ: 3, maxX: 7, maxY: 67, maxZ: 3 };
      const seen = await port.read(box);
      const reopened = await AnvilWorld.open(options(save, false)).catch((e: unknown) => e);
      expect(reopened).toMatchObject({ code: "busy" }); // the host holds session.lock
      const states = [...seen.states].map((i) => seen.palette[i]);
      for (let y = 62; y <= 67; y++)
        for (let x = 0; x <= 7; x++) {
          const want =
            x >= 2 && x <= 6 && y >= 64 && y <= 66
              ? "minecraft:stone_bricks"
              : y === 63
                ? "minecraft:grass_block[snowy=false]"
                : y < 63
                  ? "minecraft:dirt"
                  : "minecraft:air";
          expect(states[x - 0 + (y - 62) * 8], `${x} ${y} 3`).toBe(want);
        }
      if (withBot) {
        const bot = await joinBot(host.gamePort, "viewer");
        try {
          expect(seenState(bot, 4, 65, 3)).toBe("minecraft:stone_bricks");
          expect(seenState(bot, 0, 63, 0)).toBe("minecraft:grass_block[snowy=false]");
        } finally {
          bot.quit();
        }
      }
      // The host writes into a chunk we made and into one it generates (its ground is ours).
      const r = await port.compareAndSet({ checks: [], writes: [write(10, 64, 10, "minecraft:gold_block"), write(-40, 64, -40, "minecraft:diamond_block")] });
      expect(r.written).toBe(2);
      await port.flush!();
      await port.close();
    } finally {
      await host.stop();
    }

    const after = await AnvilWorld.open(options(save, false)); // as a person's save: nothing generated
    try {
      expect(after.stateAt(10, 64, 10)).toBe("minecraft:gold_block");
      expect(after.stateAt(-40, 64, -40)).toBe("minecraft:diamond_block");
      expect(after.stateAt(-40, 63, -40)).toBe("minecraft:grass_block[snowy=false]");
      expect(after.stateAt(4, 66, 3)).toBe("minecraft:stone_bricks");
    } finally {
      await after.close();
    }
    for (const [x, z] of [
      [0, 0],
      [-3, -3],
    ] as const) {
      const c = storedChunk(save, x, z);
      expect(c.v.get("DataVersion")).toEqual({ t: TAG.Int, v: dataVersion }); // the host saves every chunk it wrote in its own version
      expect(c.v.get("Status")).toEqual({ t: TAG.String, v: "minecraft:full" });
      expect(c.v.get("isLightOn")).toEqual({ t: TAG.Byte, v: 0 });
      expect(c.v.has("status")).toBe(false);
      expect([...(c.v.get("Heightmaps") as NbtCompound).v.keys()].sort()).toEqual(["MOTION_BLOCKING", "WORLD_SURFACE"]);
    }
    // Tags the host does not write itself survive its save (our chunk had them).
    expect(storedChunk(save, 0, 0).v.has("structures")).toBe(true);
    // Every block of the two chunks the host wrote, block for block against the stdlib reader.
    const theirs = await stdlibChunks(join(save, "dimensions", "minecraft", "overworld", "region"), [
      [0, 0],
      [-3, -3],
    ]);
    const mine = await AnvilWorld.open(options(save, false));
    try {
      const diffs: string[] = [];
      for (const [cx, cz] of [
        [0, 0],
        [-3, -3],
      ] as const) {
        const chunk = theirs[`${cx},${cz}`]!;
        expect(chunk.DataVersion).toBe(dataVersion);
        for (let y = -64; y < 320; y += 16) {
          const ours = await mine.read({ minX: cx * 16, minY: y, minZ: cz * 16, maxX: cx * 16 + 15, maxY: y + 15, maxZ: cz * 16 + 15 });
          const sec = chunk.sections[String(y >> 4)];
          for (let i = 0; i < 4096; i++) {
            const raw = sec === undefined ? "minecraft:air" : sec.palette[sec.indices[i]!]!;
            const r = registry.resolveState(raw);
            const want = r.ok ? r.value.canonical : raw;
            if (ours.palette[ours.states[i]!] !== want && diffs.length < 5) diffs.push(`${cx},${cz} ${i} ${y}: ${ours.palette[ours.states[i]!]} ≠ ${want}`);
          }
        }
      }
      expect(diffs).toEqual([]);
    } finally {
      await mine.close();
    }
    const raw = await amulet<{ states: string[]; chunks: Record<string, { Status: string; DataVersion: number }> }>("raw", save, [
      [10, 64, 10],
      [-40, 64, -40],
      [4, 66, 3],
    ]);
    expect(raw.states).toEqual(["minecraft:gold_block", "minecraft:diamond_block", "minecraft:stone_bricks"]);
    expect(raw.chunks).toMatchObject({ "0,0": { Status: "minecraft:full" }, "-3,-3": { Status: "minecraft:full", DataVersion: dataVersion } });
  }, 180_000);

  it(`a new host world is a ${build} save with the same flat ground (grass at 63) and a level.dat`, async () => {
    const host = await startMinestomHost({ build });
    dirs.push(host.worldDir);
    try {
      const port = await PortWorld.connect({ url: host.url, token: host.token });
      const col = await port.read({ minX: 5, minY: -64, minZ: 5, maxX: 5, maxY: 64, maxZ: 5 });
      const states = [...col.states].map((i) => col.palette[i]);
      expect(states[0]).toBe("minecraft:bedrock");
      expect(states.slice(1, 124).every((s) => s === "minecraft:stone")).toBe(true);
      expect(states.slice(124)).toEqual(["minecraft:dirt", "minecraft:dirt", "minecraft:dirt", "minecraft:grass_block[snowy=false]", "minecraft:air"]);
      await port.flush!();
      await port.close();
    } finally {
      await host.stop();
    }
    expect(existsSync(join(host.worldDir, "level.dat"))).toBe(true);
    expect(existsSync(join(host.worldDir, "dimensions", "minecraft", "overworld", "region"))).toBe(true);
    expect(existsSync(join(host.worldDir, "region"))).toBe(false);
    const w = await AnvilWorld.open({ dir: host.worldDir });
    try {
      expect([w.version.release, w.version.dataVersion, w.version.access.mode, w.version.registry.minecraftVersion]).toEqual([
        build,
        dataVersion,
        "edit",
        registry.minecraftVersion,
      ]);
      expect(w.stateAt(0, 63, 0)).toBe("minecraft:grass_block[snowy=false]");
    } finally {
      await w.close();
    }
  }, 120_000);
});
