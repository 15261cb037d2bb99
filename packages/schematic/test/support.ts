import { gzipSync } from "node:zlib";
import nbt from "prismarine-nbt";
import { registry } from "../../blocks/test/registry.js";
import type { Schematic } from "../src/index.js";

export { registry };

/** Canonical states used by the generators (a few directional ones so rotation matters). */
export function states(): string[] {
  const r = registry();
  return [
    "minecraft:air",
    "minecraft:stone",
    "minecraft:oak_log[axis=x]",
    "minecraft:oak_stairs[facing=east,half=bottom,shape=straight,waterlogged=false]",
    "minecraft:rail[shape=north_east,waterlogged=false]",
    "minecraft:oak_fence[east=false,north=true,south=false,waterlogged=false,west=true]",
    "minecraft:glass",
  ].map((s) => {
    const v = r.resolveState(s);
    if (!v.ok) throw new Error(v.error.message);
    return v.value.canonical;
  });
}

/** A gzip file of an NBT value written by prismarine-nbt itself (real, independent encoder). */
export function gzipNbt(value: unknown): Buffer {
  return gzipSync(nbt.writeUncompressed(value as nbt.NBT));
}

/** A minimal valid v2 body (prismarine-nbt JSON form); override fields per test. */
export function v2Body(overrides: Record<string, unknown> = {}, remove: string[] = []): Record<string, unknown> {
  const body: Record<string, unknown> = {
    Version: { type: "int", value: 2 },
    DataVersion: { type: "int", value: 3953 },
    Width: { type: "short", value: 2 },
    Height: { type: "short", value: 1 },
    Length: { type: "short", value: 1 },
    Offset: { type: "intArray", value: [1, 2, 3] },
    PaletteMax: { type: "int", value: 2 },
    Palette: { type: "compound", value: { "minecraft:stone": { type: "int", value: 0 }, "minecraft:oak_log[axis=z]": { type: "int", value: 1 } } },
    BlockData: { type: "byteArray", value: [1, 0] },
    ...overrides,
  };
  for (const k of remove) delete body[k];
  return body;
}

export function v2File(overrides: Record<string, unknown> = {}, remove: string[] = []): Buffer {
  return gzipNbt({ type: "compound", name: "Schematic", value: v2Body(overrides, remove) });
}

/** Position → state of a schematic, keyed by local "x,y,z" (offset applied when `withOffset`). */
export function contents(s: Schematic, withOffset = false): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  for (let y = 0; y < s.height; y++)
    for (let z = 0; z < s.length; z++)
      for (let x = 0; x < s.width; x++, i++) {
        const key = withOffset ? `${x + s.offset.x},${y + s.offset.y},${z + s.offset.z}` : `${x},${y},${z}`;
        out.set(key, s.palette[s.blocks[i]!]!);
      }
  return out;
}
