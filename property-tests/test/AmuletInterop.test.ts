import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AnvilWorld } from "@mcb/adapter-anvil";
import type { CasWrite } from "@mcb/engine";
import { amulet, sharedRegistry } from "../src/index.js";

/**
 * Interop with an independent implementation: amulet-core (Python: its own region reader, NBT,
 * long-array decoder and block translation) reads what AnvilWorld writes, and AnvilWorld reads
 * what amulet writes.
 */
const registry = sharedRegistry();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempSave(): string {
  const d = mkdtempSync(join(tmpdir(), "mcb-amulet-"));
  dirs.push(d);
  return join(d, "save");
}

function open(dir: string, flatGround: boolean): Promise<AnvilWorld> {
  return AnvilWorld.open({ dir, registry, flatGround, idleSaveMs: 0 });
}

/** Every block type's default state, plus every state of a few blocks with many (stairs, walls, redstone). */
function sampleStates(): string[] {
  const states = [...registry.blockTypes.values()].map((t) => t.defaultState).filter((s) => !/^minecraft:(air|void_air|cave_air)$/.test(s));
  for (const id of ["minecraft:oak_stairs", "minecraft:redstone_wire"]) {
    const t = registry.blockTypes.get(id)!;
    const combos = t.properties.reduce<Record<string, string>[]>((acc, p) => acc.flatMap((c) => p.values.map((v) => ({ ...c, [p.name]: v }))), [{}]);
    for (const c of combos.slice(0, 400)) {
      const r = registry.resolveState(
        `${id}[${Object.entries(c)
          .map(([k, v]) => `${k}=${v}`)
          .join(",")}]`,
      );
      if (!r.ok) throw new Error(r.error.message);
      states.push(r.value.canonical);
    }
  }
  return states;
}

const withoutWaterlogged = (s: string): string =>
  s
    .replace(/,?waterlogged=(true|false)/, "")
    .replace("[,", "[")
    .replace("[]", "");

describe("amulet-core reads what AnvilWorld writes, and the other way round", () => {
  it("every state of the registry, a chest with items and the chunk fields the game needs, read back identically by amulet", async () => {
    const dir = tempSave();
    const world = await open(dir, true);
    const states = sampleStates();
    // Spread over two chunks (x 0..15 and 16..31), up to 9-bit palettes in one section.
    const at = (i: number) => ({ x: i % 32, y: 64 + (i >> 9), z: (i >> 5) % 16 });
    const writes: CasWrite[] = states.map((s, i) => ({ ...at(i), before: "minecraft:air", beforeDigest: null, after: s }));
    const chest = { x: 40, y: 64, z: 3 };
    const items = new Uint8Array([
      10, 0, 0, 9, 0, 5, 73, 116, 101, 109, 115, 10, 0, 0, 0, 1, 8, 0, 2, 105, 100, 0, 17, 109, 105, 110, 101, 99, 114, 97, 102, 116, 58, 100, 105, 97, 109,
      111, 110, 100, 3, 0, 5, 99, 111, 117, 110, 116, 0, 0, 0, 7, 1, 0, 4, 83, 108, 111, 116, 0, 0, 0,
    ]);
    writes.push({
      ...chest,
      before: "minecraft:air",
      beforeDigest: null,
      after: "minecraft:chest[facing=north,type=single,waterlogged=false]",
      afterData: items,
    });
    const r = await world.compareAndSet({ checks: [], writes });
    expect(r.written).toBe(writes.length);
    await world.close();

    const positions = states.map((_, i) => [at(i).x, at(i).y, at(i).z]);
    const raw = await amulet<{ states: string[]; chunks: Record<string, { Status: string; DataVersion: number; isLightOn: number; Heightmaps: string[] }> }>(
      "raw",
      dir,
      [...positions, [chest.x, chest.y, chest.z], [0, 63, 0], [0, -64, 0]],
    );
    expect(raw.states.slice(0, states.length)).toEqual(states);
    expect(raw.states.slice(states.length)).toEqual([
      "minecraft:chest[facing=north,type=single,waterlogged=false]",
      "minecraft:grass_block[snowy=false]",
      "minecraft:bedrock",
    ]);
    for (const c of Object.values(raw.chunks))
      expect(c).toEqual({
        Status: "minecraft:full",
        DataVersion: registry.dataVersion,
        isLightOn: 0,
        Heightmaps: ["MOTION_BLOCKING", "MOTION_BLOCKING_NO_LEAVES", "OCEAN_FLOOR", "WORLD_SURFACE"],
      });
    // Through amulet's own block model (which keeps waterlogging as a second block).
    const read = await amulet<{ states: string[]; entities: Record<string, { id: string; nbt: string }> }>("read", dir, [
      ...positions,
      [chest.x, chest.y, chest.z],
    ]);
    expect(read.states.slice(0, states.length).map(withoutWaterlogged)).toEqual(states.map(withoutWaterlogged));
    expect(read.entities[String(states.length)]).toMatchObject({ id: "minecraft:chest" });
    expect(read.entities[String(states.length)]!.nbt).toContain("minecraft:diamond");
  }, 180_000);

  it("what amulet writes into a save (into an existing chunk and into a chunk it creates), AnvilWorld reads as written", async () => {
    const dir = tempSave();
    const world = await open(dir, true);
    await world.compareAndSet({ checks: [], writes: [{ x: 0, y: 64, z: 0, before: "minecraft:air", beforeDigest: null, after: "minecraft:stone" }] });
    await world.close();
    const states = sampleStates().filter((_, i) => i % 5 === 0);
    const at = (i: number) => ({ x: (i % 16) + (i % 2 === 0 ? 0 : 160), y: 70 + (i >> 8), z: (i >> 4) % 16 });
    await amulet(
      "write",
      dir,
      states.map((s, i) => [at(i).x, at(i).y, at(i).z, s]),
    );
    const save = await open(dir, false); // now as a person's save: nothing generated
    try {
      const seen = states.map((_, i) => save.stateAt(at(i).x, at(i).y, at(i).z));
      expect(seen.map(withoutWaterlogged)).toEqual(states.map(withoutWaterlogged));
      expect(save.stateAt(0, 64, 0)).toBe("minecraft:stone");
    } finally {
      await save.close();
    }
  }, 180_000);
});
