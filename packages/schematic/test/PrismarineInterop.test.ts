import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { readSchematic, writeSchematic, type Schematic } from "../src/index.js";
import { contents, registry } from "./support.js";

const require = createRequire(import.meta.url);
const { Schematic: PSchematic } = require("prismarine-schematic") as { Schematic: { read(b: Buffer, v?: string): Promise<PSchem> } };
const { Vec3 } = require("vec3") as { Vec3: new (x: number, y: number, z: number) => unknown };
interface PSchem {
  size: { x: number; y: number; z: number };
  offset: { x: number; y: number; z: number };
  getBlock(p: unknown): { name: string; getProperties(): Record<string, unknown> };
  write(): Promise<Buffer>;
}

function stateName(b: { name: string; getProperties(): Record<string, unknown> }): string {
  const props = Object.entries(b.getProperties())
    .map(([k, v]) => `${k}=${String(v)}`)
    .sort();
  return `minecraft:${b.name}${props.length ? `[${props.join(",")}]` : ""}`;
}

describe("interoperability with prismarine-schematic (independent implementation)", () => {
  const palette = ["minecraft:air", "minecraft:stone", "minecraft:oak_log[axis=x]", "minecraft:glass", "minecraft:oak_planks"];
  const s: Schematic = {
    width: 4,
    height: 3,
    length: 2,
    offset: { x: -2, y: 1, z: 3 },
    dataVersion: 3953,
    palette,
    blocks: Uint32Array.from({ length: 24 }, (_, i) => (i * 7) % 5),
    blockEntities: [],
  };

  it("prismarine-schematic reads what we write", async () => {
    const p = await PSchematic.read(writeSchematic(s, { version: 2 }), "1.21.1");
    expect(p.size).toMatchObject({ x: 4, y: 3, z: 2 });
    expect(p.offset).toMatchObject({ x: -2, y: 1, z: 3 });
    for (const [key, state] of contents(s, true)) {
      const [x, y, z] = key.split(",").map(Number) as [number, number, number];
      expect(stateName(p.getBlock(new Vec3(x, y, z)))).toBe(registry().resolveState(state).ok ? state : "?");
    }
  });

  it("we read what prismarine-schematic writes", async () => {
    const p = await PSchematic.read(writeSchematic(s, { version: 2 }), "1.21.1");
    const back = readSchematic(registry(), await p.write());
    if (!back.ok) throw new Error(JSON.stringify(back.error));
    expect(contents(back.value.schematic, true)).toEqual(contents(s, true));
  });
});
