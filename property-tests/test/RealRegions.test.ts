import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { Anvil as prismarineAnvil } from "prismarine-provider-anvil";
import { Vec3 } from "vec3";
import { AnvilWorld, RegionFile, decodeChunk } from "@mcb/adapter-anvil";
import { blockEntityPredicate, formatState } from "@mcb/blocks";
import { encodeNbt, nbt, upgradeState } from "@mcb/schematic";
import { sharedRegistry } from "../src/index.js";

/** Region files the game saved (fixtures of prismarine-provider-anvil, MIT; see fixtures/…/README.md). */
const FIXTURES = join(import.meta.dirname, "..", "fixtures", "prismarine-provider-anvil");
const registry = sharedRegistry();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A save around a fixture region: level.dat of that version, the region in the older layout. */
function saveOf(region: string, dataVersion: number): string {
  const dir = join(mkdtempSync(join(tmpdir(), "mcb-real-")), "save");
  dirs.push(join(dir, ".."));
  mkdirSync(join(dir, "region"), { recursive: true });
  copyFileSync(join(FIXTURES, region), join(dir, "region", "r.0.0.mca"));
  writeFileSync(join(dir, "level.dat"), gzipSync(encodeNbt("", nbt.compound([["Data", nbt.compound([["DataVersion", nbt.int(dataVersion)]])]]))));
  return dir;
}

const open = (dir: string) => AnvilWorld.open({ dir, minecraftVersion: registry.minecraftVersion, dataVersion: registry.dataVersion, hasBlockEntity: blockEntityPredicate(registry), registry, idleSaveMs: 0 });

describe("real region files saved by the game", () => {
  it("1.21.1: every chunk decodes, and every block of three chunks equals what prismarine-provider-anvil reads (upgraded to 26.1)", async () => {
    const dir = saveOf("1.21.1-r.0.0.mca", 3955);
    const region = RegionFile.open(join(dir, "region", "r.0.0.mca"), 0, 0, false)!;
    const chunks = region.chunks();
    expect(chunks).toHaveLength(225);
    const fullChunks: [number, number][] = [];
    for (const c of chunks) {
      const stored = region.read(c.x, c.z)!;
      const { chunk, full } = decodeChunk(stored.nbt, c.x, c.z, stored.compression, { dataVersion: registry.dataVersion, maxDataVersion: 4790 }, "r.0.0.mca");
      expect(chunk.dataVersion).toBe(3955);
      if (full) fullChunks.push([c.x, c.z]);
    }
    expect(fullChunks.length).toBe(16); // the other 209 were still being generated when the game saved (Status before full)
    const sample = [fullChunks[0]!, fullChunks[Math.floor(fullChunks.length / 2)]!, fullChunks.at(-1)!];
    region.close();
    const Peer = prismarineAnvil("1.21.1");
    const peer = new Peer(join(dir, "region"));
    const w = await open(dir);
    try {
      const canonical = (name: string, props: Record<string, string | number | boolean>): string => {
        const s = upgradeState(formatState(`minecraft:${name}`, Object.fromEntries(Object.entries(props).map(([k, v]) => [k, String(v)]))), 3955, registry.dataVersion).state;
        const r = registry.resolveState(s);
        return r.ok ? r.value.canonical : s;
      };
      let compared = 0;
      for (const [cx, cz] of sample) {
        const theirs = await peer.load(cx, cz);
        for (let y = -64; y < 320; y += 16) {
          const ours = await w.read({ minX: cx * 16, minY: y, minZ: cz * 16, maxX: cx * 16 + 15, maxY: y + 15, maxZ: cz * 16 + 15 });
          for (let i = 0; i < 4096; i++) {
            const x = i & 15, z = (i >> 4) & 15, dy = i >> 8;
            const b = theirs.getBlock(new Vec3(x, y + dy, z));
            expect(ours.palette[ours.states[i]!], `${cx * 16 + x} ${y + dy} ${cz * 16 + z}`).toBe(canonical(b.name, b.getProperties() as Record<string, string>));
            compared++;
          }
        }
      }
      expect(compared).toBe(3 * 384 * 256);
      // An older chunk is read, never written: the game must upgrade it first.
      await expect(w.compareAndSet({ checks: [], writes: [{ x: 1, y: 200, z: 1, before: "minecraft:air", beforeDigest: null, after: "minecraft:stone" }] })).rejects.toMatchObject({ code: "version_mismatch" });
    } finally {
      await w.close();
    }
  }, 120_000);

  it("1.17.1 (the Level layout): a clear version_mismatch naming the chunk and what to do", async () => {
    const dir = saveOf("1.17.1-r.0.0.mca", 2730);
    const w = await open(dir);
    try {
      const c = RegionFile.open(join(dir, "region", "r.0.0.mca"), 0, 0, false)!;
      const first = c.chunks()[0]!;
      c.close();
      await expect(w.read({ minX: first.x * 16, minY: 60, minZ: first.z * 16, maxX: first.x * 16, maxY: 60, maxZ: first.z * 16 })).rejects.toMatchObject({
        code: "version_mismatch",
        message: expect.stringMatching(new RegExp(`chunk ${first.x},${first.z} .*before Minecraft 1\\.18.*open and save the world once`)),
      });
    } finally {
      await w.close();
    }
  });
});
