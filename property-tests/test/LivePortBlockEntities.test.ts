import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PortWorld } from "@mcb/adapter-port";
import { startMinestomHost, type MinestomHost } from "../src/index.js";

/**
 * Block-entity data through the live port: canonical NBT bytes written by the TypeScript side land
 * in the Minestom world, come back byte for byte, and carry the same SHA-256 digest on both sides.
 */
const vectors = JSON.parse(readFileSync(new URL("../../java/protocol-vectors.json", import.meta.url), "utf8")).canonical_nbt as {
  name: string;
  canonical: string;
  sha256: string;
}[];
const CHEST = "minecraft:chest[facing=north,type=single,waterlogged=false]";
const CHEST_EAST = "minecraft:chest[facing=east,type=single,waterlogged=false]";
const sha = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

describe("live: block-entity data through the world port", () => {
  let host: MinestomHost;
  let world: PortWorld;
  beforeAll(async () => {
    host = await startMinestomHost();
    world = await PortWorld.connect({ url: host.url, token: host.token });
  }, 120_000);
  afterAll(async () => {
    await world?.close();
    await host?.stop();
    host?.dispose();
  });

  it("writes chests with data, reads the same bytes and digests back, keeps data on a same-type state change", async () => {
    const y = 74;
    const writes = vectors.map((v, i) => ({
      x: i,
      y,
      z: 7,
      before: "minecraft:air",
      beforeDigest: null,
      after: CHEST,
      afterData: new Uint8Array(Buffer.from(v.canonical, "base64")),
    }));
    const r = await world.compareAndSet({ checks: [], writes });
    expect(r.written).toBe(vectors.length);
    expect([...r.entityDigests.values()]).toEqual(vectors.map((v) => v.sha256));
    const box = { minX: 0, minY: y, minZ: 7, maxX: vectors.length - 1, maxY: y, maxZ: 7 };
    const read = await world.read(box);
    expect([...read.digests.values()]).toEqual(vectors.map((v) => v.sha256));
    const data = await world.readBlockEntities(box);
    for (const [i, v] of vectors.entries()) expect(Buffer.from(data.get(i)!).toString("base64")).toBe(v.canonical);

    // A chest turned without data keeps its contents (the same block entity), as in the game.
    const turned = await world.compareAndSet({ checks: [], writes: [{ x: 1, y, z: 7, before: CHEST, beforeDigest: vectors[1]!.sha256, after: CHEST_EAST }] });
    expect(turned.entityDigests.get(0)).toBe(vectors[1]!.sha256);
    // A stale digest is a mismatch: nothing replaces a chest whose contents changed.
    const stale = await world.compareAndSet({
      checks: [],
      writes: [{ x: 2, y, z: 7, before: CHEST, beforeDigest: sha(new Uint8Array([10, 0, 0, 0])), after: "minecraft:air" }],
    });
    expect(stale.written).toBe(0);
    expect(stale.mismatches[0]).toMatchObject({ kind: "write", actualDigest: vectors[2]!.sha256 });
    // A new chest without data gets the empty compound, whose digest the memory world uses too.
    const fresh = await world.compareAndSet({ checks: [], writes: [{ x: 5, y, z: 7, before: "minecraft:air", beforeDigest: null, after: CHEST }] });
    expect(fresh.entityDigests.get(0)).toBe(vectors.find((v) => v.name === "empty")!.sha256);
  });

  it("refuses data for a block without a block entity and data that is not NBT, writing nothing", async () => {
    const bad = [
      { x: 20, y: 74, z: 7, before: "minecraft:air", beforeDigest: null, after: "minecraft:stone", afterData: new Uint8Array([10, 0, 0, 0]) },
      { x: 21, y: 74, z: 7, before: "minecraft:air", beforeDigest: null, after: CHEST, afterData: new Uint8Array([1, 2, 3]) },
    ];
    for (const w of bad)
      await expect(
        world.compareAndSet({ checks: [], writes: [{ x: 19, y: 74, z: 7, before: "minecraft:air", beforeDigest: null, after: "minecraft:stone" }, w] }),
      ).rejects.toMatchObject({ name: "SliceRefused", code: "unsupported_block" });
    const r = await world.read({ minX: 19, minY: 74, minZ: 7, maxX: 21, maxY: 74, maxZ: 7 });
    expect([...r.states].map((i) => r.palette[i])).toEqual(["minecraft:air", "minecraft:air", "minecraft:air"]);
  });
});
