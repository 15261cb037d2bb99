import type { NbtReader } from "@mcb/nbt";
import { TAG, type NbtCompound } from "@mcb/nbt";
import type { SchematicLimits } from "../SchematicLimits.js";
import type { Decoded, RawBlockEntity } from "./Decoded.js";
import { malformed, overLimit } from "./FormatError.js";
import { stateOfEntry } from "./PaletteList.js";
import { countEntities, eachCompound, fields, intField, seek, type Fields } from "./Walk.js";
import { stripPosition } from "@mcb/nbt";

const KNOWN = new Set(["MinecraftDataVersion", "Version", "SubVersion", "Metadata", "Regions"]);
const REGION_KNOWN = new Set(["Position", "Size", "BlockStatePalette", "BlockStates", "TileEntities", "Entities", "PendingBlockTicks", "PendingFluidTicks"]);

function vec(c: NbtCompound, path: string): [number, number, number] {
  const xyz = ["x", "y", "z"].map((k) => c.v.get(k));
  if (!xyz.every((t) => t?.t === TAG.Int)) throw malformed("needs x, y, z ints", path);
  return xyz.map((t) => (t as { v: number }).v) as [number, number, number];
}

/**
 * Litematica schematics (one region): the region's palette and its tightly bit-packed long array
 * (indices span longs; y, z, x order), block entities by region-relative x, y, z; entities counted.
 * A negative size extends the region towards negative coordinates, as Litematica stores it.
 */
export function readLitematic(r: NbtReader, f: Fields, path: string, limits: SchematicLimits): Decoded {
  const unknownFields = [...f.keys()].filter((k) => !KNOWN.has(k));
  const dataVersion = intField(r, f, "MinecraftDataVersion", path);
  let name: string | undefined;
  if (seek(r, f, "Metadata", TAG.Compound, path, false)) {
    const m = r.compoundValue();
    const n = m.v.get("Name");
    if (n?.t === TAG.String) name = n.v;
  }
  seek(r, f, "Regions", TAG.Compound, path);
  const regions = fields(r, `${path}.Regions`);
  if (regions.size !== 1)
    throw malformed(`has ${regions.size} regions; one region is supported (save each region on its own in Litematica)`, `${path}.Regions`, {
      regions: regions.size,
    });
  const [regionName, entry] = [...regions][0]!;
  const rp = `${path}.Regions.${regionName}`;
  if (entry.type !== TAG.Compound) throw malformed("must be a compound", rp);
  r.seek(entry.offset);
  const rf = fields(r, rp);
  for (const k of rf.keys()) if (!REGION_KNOWN.has(k)) unknownFields.push(`Regions.${regionName}.${k}`);
  seek(r, rf, "Position", TAG.Compound, rp);
  const position = vec(r.compoundValue(), `${rp}.Position`);
  seek(r, rf, "Size", TAG.Compound, rp);
  const size = vec(r.compoundValue(), `${rp}.Size`);
  if (size.some((s) => s === 0)) throw malformed("a side is 0", `${rp}.Size`);
  const [width, height, length] = size.map(Math.abs) as [number, number, number];
  const volume = width * height * length;
  if (volume > limits.maxPositions)
    throw overLimit(`the schematic has ${volume} positions; the limit is ${limits.maxPositions}`, "positions", limits.maxPositions, { requested: volume });
  // The region's minimum corner relative to the schematic origin.
  const min = position.map((p, i) => (size[i]! < 0 ? p + size[i]! + 1 : p)) as [number, number, number];

  const { palette, blocks } = regionBlocks(r, rf, rp, volume, limits);

  const blockEntities = regionBlockEntities(r, rf, rp, limits);
  const entities = new Map<string, number>();
  if (seek(r, rf, "Entities", TAG.List, rp, false)) countEntities(r, `${rp}.Entities`, entities);
  return {
    format: "litematic",
    width,
    height,
    length,
    offset: { x: min[0], y: min[1], z: min[2] },
    dataVersion,
    palette,
    blocks,
    blockEntities,
    entities,
    biomes: null,
    unknownFields,
    ...(name === undefined ? {} : { name }),
  };
}

/** The region's palette and its tightly bit-packed indices (indices span longs; y, z, x order), each checked against the palette. */
function regionBlocks(r: NbtReader, rf: Fields, rp: string, volume: number, limits: SchematicLimits): { palette: string[]; blocks: Uint32Array } {
  seek(r, rf, "BlockStatePalette", TAG.List, rp);
  const palette: string[] = [];
  eachCompound(r, `${rp}.BlockStatePalette`, (c, i) => {
    if (palette.length >= limits.maxPaletteEntries)
      throw overLimit(`the palette has more than ${limits.maxPaletteEntries} entries`, "palette", limits.maxPaletteEntries);
    palette.push(stateOfEntry(c, `${rp}.BlockStatePalette[${i}]`));
  });
  if (palette.length === 0) throw malformed("is empty", `${rp}.BlockStatePalette`);
  const bits = Math.max(2, 32 - Math.clz32(palette.length - 1));
  seek(r, rf, "BlockStates", TAG.LongArray, rp);
  const words = r.longArrayWords();
  if (words.length * 32 < volume * bits)
    throw malformed(`holds ${words.length / 2} longs; ${volume} entries of ${bits} bits need ${Math.ceil((volume * bits) / 64)}`, `${rp}.BlockStates`);
  const blocks = new Uint32Array(volume);
  const mask = bits >= 32 ? 0xffffffff : (1 << bits) - 1;
  for (let i = 0, bit = 0; i < volume; i++, bit += bits) {
    const q = bit >>> 5,
      s = bit & 31;
    let v = words[q]! >>> s;
    if (s + bits > 32) v |= words[q + 1]! << (32 - s);
    const p = (v & mask) >>> 0;
    if (p >= palette.length) throw malformed(`palette index ${p} at position ${i} is out of range`, `${rp}.BlockStates`);
    blocks[i] = p;
  }
  return { palette, blocks };
}

/** The region's block entities, by region-relative x, y, z. */
function regionBlockEntities(r: NbtReader, rf: Fields, rp: string, limits: SchematicLimits): RawBlockEntity[] {
  const blockEntities: RawBlockEntity[] = [];
  if (seek(r, rf, "TileEntities", TAG.List, rp, false)) {
    eachCompound(r, `${rp}.TileEntities`, (c, i) => {
      if (blockEntities.length >= limits.maxBlockEntities)
        throw overLimit(`more than ${limits.maxBlockEntities} block entities`, "block_entities", limits.maxBlockEntities);
      const p = `${rp}.TileEntities[${i}]`;
      const [x, y, z] = vec(c, p);
      const id = c.v.get("id") ?? c.v.get("Id");
      blockEntities.push({ x, y, z, id: id?.t === TAG.String ? id.v : "", data: stripPosition(c), path: p });
    });
  }
  return blockEntities;
}
