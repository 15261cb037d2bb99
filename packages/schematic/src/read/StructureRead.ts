import type { NbtReader } from "@mcb/nbt";
import { TAG, type NbtCompound } from "@mcb/nbt";
import type { SchematicLimits } from "../SchematicLimits.js";
import type { Decoded, RawBlockEntity } from "./Decoded.js";
import { malformed, overLimit } from "./FormatError.js";
import { stateOfEntry } from "./PaletteList.js";
import { countEntities, eachCompound, intField, seek, type Fields } from "./Walk.js";
import { stripPosition } from "@mcb/nbt";

/** Positions a structure does not list: the game leaves the world's block there. */
export const STRUCTURE_VOID = "minecraft:structure_void";

const KNOWN = new Set(["DataVersion", "size", "palette", "blocks", "entities", "author"]);

function ints(c: NbtCompound, key: string, path: string): [number, number, number] {
  const v = c.v.get(key);
  if (v === undefined || v.t !== TAG.List || v.v.length !== 3 || !v.v.every((e) => e.t === TAG.Int)) throw malformed(`needs ${key}, a list of 3 ints`, path);
  return v.v.map((e) => (e as { v: number }).v) as [number, number, number];
}

/**
 * Vanilla structure files (structure blocks, `.nbt`): a palette of {Name, Properties} and a sparse
 * list of {pos, state, nbt?}. Positions not listed are structure void — pasted, they keep the
 * world's block (the schematic marks them `minecraft:structure_void`, which a paste never writes).
 * Several palettes (`palettes`, e.g. shipwreck variants) are refused: which one is not ours to pick.
 */
export function readStructure(r: NbtReader, f: Fields, path: string, limits: SchematicLimits): Decoded {
  const unknownFields = [...f.keys()].filter((k) => !KNOWN.has(k));
  if (f.has("palettes")) throw malformed("holds several palettes (structure variants); save one variant", `${path}.palettes`, { rejected: "palettes" });
  const dataVersion = intField(r, f, "DataVersion", path);
  seek(r, f, "size", TAG.List, path);
  const size = ints({ t: TAG.Compound, v: new Map([["size", r.value(TAG.List)]]) }, "size", path);
  if (size.some((s) => s < 1 || s > 0xffff)) throw malformed("sides must be 1..65535", `${path}.size`);
  const [width, height, length] = size;
  const volume = width * height * length;
  if (volume > limits.maxPositions)
    throw overLimit(`the structure has ${volume} positions; the limit is ${limits.maxPositions}`, "positions", limits.maxPositions, { requested: volume });
  seek(r, f, "palette", TAG.List, path);
  const palette: string[] = [];
  eachCompound(r, `${path}.palette`, (c, i) => {
    if (palette.length >= limits.maxPaletteEntries)
      throw overLimit(`the palette has more than ${limits.maxPaletteEntries} entries`, "palette", limits.maxPaletteEntries);
    palette.push(stateOfEntry(c, `${path}.palette[${i}]`));
  });
  const voidIndex = palette.length;
  palette.push(STRUCTURE_VOID);
  const blocks = new Uint32Array(volume).fill(voidIndex);
  const listed = new Uint8Array(volume);
  const blockEntities: RawBlockEntity[] = [];
  seek(r, f, "blocks", TAG.List, path);
  eachCompound(r, `${path}.blocks`, (c, i) => {
    const p = `${path}.blocks[${i}]`;
    const [x, y, z] = ints(c, "pos", p);
    if (x < 0 || y < 0 || z < 0 || x >= width || y >= height || z >= length) throw malformed(`pos ${x} ${y} ${z} lies outside the size`, p);
    const state = c.v.get("state");
    if (state?.t !== TAG.Int || state.v < 0 || state.v >= voidIndex) throw malformed("state must index the palette", p);
    const at = x + z * width + y * width * length;
    if (listed[at] === 1) throw malformed(`pos ${x} ${y} ${z} is listed twice`, p);
    listed[at] = 1;
    blocks[at] = state.v;
    const data = c.v.get("nbt");
    if (data !== undefined) {
      if (data.t !== TAG.Compound) throw malformed("nbt must be a compound", p);
      if (blockEntities.length >= limits.maxBlockEntities)
        throw overLimit(`more than ${limits.maxBlockEntities} block entities`, "block_entities", limits.maxBlockEntities);
      const id = data.v.get("id");
      blockEntities.push({ x, y, z, id: id?.t === TAG.String ? id.v : "", data: stripPosition(data), path: p });
    }
  });
  const entities = new Map<string, number>();
  if (seek(r, f, "entities", TAG.List, path, false)) countEntities(r, `${path}.entities`, entities);
  return {
    format: "structure",
    width,
    height,
    length,
    offset: { x: 0, y: 0, z: 0 },
    dataVersion,
    palette,
    blocks,
    blockEntities,
    entities,
    biomes: null,
    unknownFields,
  };
}
