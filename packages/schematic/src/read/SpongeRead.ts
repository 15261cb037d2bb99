import type { NbtReader } from "@mcb/nbt";
import { TAG, TAG_NAMES } from "@mcb/nbt";
import type { SchematicLimits } from "../SchematicLimits.js";
import { decodeVarints, oneByteLimit } from "../Varint.js";
import { indexArray, type PaletteIndices } from "../Schematic.js";
import type { Decoded, RawBlockEntity } from "./Decoded.js";
import { malformed, overLimit } from "./FormatError.js";
import { countEntities, dimension, eachCompound, fields, intField, seek, splitBlockEntity, type Fields } from "./Walk.js";

/** Fields each Sponge version defines (anything else is reported as unknown). */
const KNOWN: Readonly<Record<number, ReadonlySet<string>>> = {
  1: new Set(["Version", "Width", "Height", "Length", "Offset", "Metadata", "PaletteMax", "Palette", "BlockData", "TileEntities"]),
  2: new Set([
    "Version",
    "DataVersion",
    "Width",
    "Height",
    "Length",
    "Offset",
    "Metadata",
    "PaletteMax",
    "Palette",
    "BlockData",
    "BlockEntities",
    "TileEntities",
    "Entities",
    "BiomePaletteMax",
    "BiomePalette",
    "BiomeData",
  ]),
  3: new Set(["Version", "DataVersion", "Width", "Height", "Length", "Offset", "Metadata", "Blocks", "Biomes", "Entities"]),
};

/**
 * Sponge schematics, versions 1, 2 and 3 (WorldEdit 7.0–7.3+, FAWE), walked in place: the palette
 * and block data are read straight into typed arrays, block entities decoded one by one, entities
 * and biomes counted. `f` is the schematic compound's fields (the reader is anywhere).
 */
export function readSponge(r: NbtReader, f: Fields, path: string, limits: SchematicLimits): Decoded {
  const version = intField(r, f, "Version", path);
  if (version !== 1 && version !== 2 && version !== 3) throw malformed(`Sponge version ${version} is not one of 1, 2, 3`, `${path}.Version`, { version });
  const unknownFields = [...f.keys()].filter((k) => !KNOWN[version]!.has(k));
  const dataVersion = version === 1 ? null : intField(r, f, "DataVersion", path);
  const width = dimension(r, f, "Width", path),
    height = dimension(r, f, "Height", path),
    length = dimension(r, f, "Length", path);
  const volume = width * height * length;
  if (volume > limits.maxPositions)
    throw overLimit(`the schematic has ${volume} positions; the limit is ${limits.maxPositions}`, "positions", limits.maxPositions, { requested: volume });
  const { name, offset } = placement(r, f, path);
  const notes: string[] = [];
  const entities = new Map<string, number>();
  const common = { width, height, length, offset, dataVersion, entities, unknownFields, ...(name === undefined ? {} : { name }), notes };
  if (version === 3 && !f.has("Blocks") && (f.has("Palette") || f.has("BlockData")))
    throw malformed("missing, while the file has version 2's Palette and BlockData: a version 2 file labelled 3?", `${path}.Blocks`);
  if (version === 3 && !f.has("Blocks")) {
    // The v3 specification makes the block container optional (a file of biomes or entities only): WorldEdit reads air.
    notes.push("the schematic has no Blocks (optional in Sponge v3): read as air");
    if (seek(r, f, "Entities", TAG.List, path, false)) countEntities(r, `${path}.Entities`, entities);
    const air = { palette: ["minecraft:air"], blocks: new Uint8Array(volume), blockEntities: [] };
    return { format: "sponge_v3", ...common, ...air, biomes: biomes(r, f, path, version) };
  }
  let blocksFields: Fields = f;
  let blocksPath = path;
  if (version === 3) {
    seek(r, f, "Blocks", TAG.Compound, path);
    blocksPath = `${path}.Blocks`;
    blocksFields = fields(r, blocksPath);
    for (const k of blocksFields.keys()) if (k !== "Palette" && k !== "Data" && k !== "BlockEntities") unknownFields.push(`Blocks.${k}`);
  }
  const palette = readPalette(r, blocksFields, "Palette", blocksPath, limits.maxPaletteEntries);
  if (version !== 3 && f.has("PaletteMax")) {
    // Only a count of the palette written beside it: a wrong one (some exporters write it stale) is ignored, and said.
    const max = intField(r, f, "PaletteMax", path);
    if (max !== palette.length) notes.push(`PaletteMax ${max} does not match the palette's ${palette.length} entries: ignored (the palette itself is read)`);
  }
  const dataKey = version === 3 ? "Data" : "BlockData";
  seek(r, blocksFields, dataKey, TAG.ByteArray, blocksPath);
  const dataPath = `${blocksPath}.${dataKey}`;
  const indices = blockIndices(palette, r.byteArray(), volume, blocksPath, dataPath, notes);
  const blockEntities = readBlockEntities(r, blocksFields, blocksPath, version, limits);
  if (seek(r, f, "Entities", TAG.List, path, false)) countEntities(r, `${path}.Entities`, entities);
  return {
    format: version === 1 ? "sponge_v1" : version === 2 ? "sponge_v2" : "sponge_v3",
    ...common,
    palette: indices.palette,
    blocks: indices.blocks,
    ...(indices.indexLimit === undefined ? {} : { indexLimit: indices.indexLimit, blocksPath: dataPath }),
    blockEntities,
    biomes: biomes(r, f, path, version),
  };
}

/** The clipboard's name and where it pastes relative to (the offsets of WorldEdit's versions). */
function placement(r: NbtReader, f: Fields, path: string): { name: string | undefined; offset: Vec } {
  const { name, weOffset, weOrigin } = metadata(r, f, path);
  let offset = { x: 0, y: 0, z: 0 };
  if (seek(r, f, "Offset", TAG.IntArray, path, false)) {
    const o = r.intArray();
    if (o.length !== 3) throw malformed("expected an int array of 3", `${path}.Offset`);
    offset = { x: o[0]!, y: o[1]!, z: o[2]! };
  }
  // WorldEdit v2 stores the region's world minimum in Offset and the paste offset in WEOffset;
  // v3 stores the minimum in Offset and the clipboard origin in Metadata.WorldEdit.Origin.
  if (weOffset !== undefined) offset = weOffset;
  else if (weOrigin !== undefined) offset = { x: offset.x - weOrigin.x, y: offset.y - weOrigin.y, z: offset.z - weOrigin.z };
  return { name, offset };
}

/**
 * The block data as palette indices: one byte each when the data has one byte per position, else
 * varints. An empty palette with empty data (FAWE's empty clipboard), or with data naming one
 * index only, is read as air, as WorldEdit reads it (said in `notes`).
 */
function blockIndices(
  palette: string[],
  data: Uint8Array,
  volume: number,
  blocksPath: string,
  dataPath: string,
  notes: string[],
): { palette: string[]; blocks: PaletteIndices; indexLimit?: number } {
  if (palette.length === 0 && data.length === 0) {
    notes.push("the palette and the block data are empty: read as air");
    return { palette: ["minecraft:air"], blocks: new Uint8Array(volume) };
  }
  if (palette.length === 0) {
    // An empty palette names no block: the file is all of one thing only if every position says the same index.
    const seen = new Set<number>();
    const all = new Uint32Array(volume);
    const decoded = decodeVarints(data, all);
    if (typeof decoded === "string") throw malformed(decoded, dataPath);
    if (decoded !== volume) throw malformed(`has ${decoded} entries; Width × Height × Length is ${volume}`, dataPath);
    for (let i = 0; i < volume && seen.size < 4; i++) seen.add(all[i]!);
    if (seen.size > 1)
      throw malformed(
        `the palette is empty, yet the block data holds ${seen.size === 4 ? "4 or more" : seen.size} different indices (${[...seen].join(", ")}): which blocks they were is not in the file`,
        `${blocksPath}.Palette`,
        { rejected: "empty_palette" },
      );
    notes.push(`the palette is empty and every position holds index ${[...seen][0] ?? 0}: read as air`);
    return { palette: ["minecraft:air"], blocks: new Uint8Array(volume) };
  }
  if (data.length === volume) return { palette, blocks: data, indexLimit: oneByteLimit(palette.length) };
  const blocks = indexArray(palette.length, volume);
  const decoded = decodeVarints(data, blocks, palette.length);
  if (typeof decoded === "string") throw malformed(decoded, dataPath);
  if (decoded !== volume) throw malformed(`has ${decoded} entries; Width × Height × Length is ${volume}`, dataPath);
  return { palette, blocks };
}

/** Block entities (v1's TileEntities, v2's BlockEntities or TileEntities, v3's Blocks.BlockEntities with their Data). */
function readBlockEntities(r: NbtReader, blocksFields: Fields, blocksPath: string, version: 1 | 2 | 3, limits: SchematicLimits): RawBlockEntity[] {
  const blockEntities: RawBlockEntity[] = [];
  const beKey = version === 3 ? "BlockEntities" : blocksFields.has("BlockEntities") ? "BlockEntities" : "TileEntities";
  if (seek(r, blocksFields, beKey, TAG.List, blocksPath, false)) {
    eachCompound(r, `${blocksPath}.${beKey}`, (c, i) => {
      if (blockEntities.length >= limits.maxBlockEntities)
        throw overLimit(`more than ${limits.maxBlockEntities} block entities`, "block_entities", limits.maxBlockEntities);
      const p = `${blocksPath}.${beKey}[${i}]`;
      const { pos, id, data } = splitBlockEntity(c, p, version === 3 ? "Data" : null);
      blockEntities.push({ x: pos[0], y: pos[1], z: pos[2], id, data, path: p });
    });
  }
  return blockEntities;
}

type Vec = { x: number; y: number; z: number };

function metadata(r: NbtReader, f: Fields, path: string): { name?: string; weOffset?: Vec; weOrigin?: Vec } {
  if (!seek(r, f, "Metadata", TAG.Compound, path, false)) return {};
  const m = r.compoundValue();
  const mods = m.v.get("RequiredMods");
  if (mods !== undefined && (mods.t !== TAG.List || mods.v.length > 0))
    throw malformed("the schematic requires mods, whose blocks this server does not have", `${path}.Metadata.RequiredMods`, { rejected: "required_mods" });
  const n = m.v.get("Name");
  const we = ["WEOffsetX", "WEOffsetY", "WEOffsetZ"].map((k) => m.v.get(k));
  const weOffset = we.every((t) => t?.t === TAG.Int)
    ? { x: (we[0] as { v: number }).v, y: (we[1] as { v: number }).v, z: (we[2] as { v: number }).v }
    : undefined;
  const worldEdit = m.v.get("WorldEdit");
  const origin = worldEdit?.t === TAG.Compound ? worldEdit.v.get("Origin") : undefined;
  const weOrigin = origin?.t === TAG.IntArray && origin.v.length === 3 ? { x: origin.v[0]!, y: origin.v[1]!, z: origin.v[2]! } : undefined;
  return { ...(n?.t === TAG.String ? { name: n.v } : {}), ...(weOffset === undefined ? {} : { weOffset }), ...(weOrigin === undefined ? {} : { weOrigin }) };
}

/** A Sponge palette compound (state → index): every index 0..n−1 exactly once (a block palette may be empty: see above). */
function readPalette(r: NbtReader, f: Fields, key: string, path: string, max: number, allowEmpty = key === "Palette"): string[] {
  seek(r, f, key, TAG.Compound, path);
  const p = `${path}.${key}`;
  const entries: [string, number][] = [];
  r.compound((type, name) => {
    if (type !== TAG.Int) throw malformed(`expected int, found ${TAG_NAMES[type]}`, `${p}.${name}`);
    if (entries.length >= max) throw overLimit(`the palette has more than ${max} entries`, "palette", max);
    entries.push([name, r.i32()]);
  });
  if (entries.length === 0 && !allowEmpty) throw malformed("is empty", p);
  const palette = new Array<string>(entries.length);
  for (const [name, index] of entries) {
    if (index < 0 || index >= entries.length || palette[index] !== undefined) throw malformed(`index ${index} is out of range or repeated`, `${p}.${name}`);
    palette[index] = name;
  }
  return palette;
}

function biomes(r: NbtReader, f: Fields, path: string, version: number): Decoded["biomes"] {
  if (version === 3) {
    if (!seek(r, f, "Biomes", TAG.Compound, path, false)) return null;
    const b = fields(r, `${path}.Biomes`);
    const palette = b.has("Palette") ? readPalette(r, b, "Palette", `${path}.Biomes`, 1 << 20, false) : [];
    const cells = seek(r, b, "Data", TAG.ByteArray, `${path}.Biomes`, false) ? r.byteArray().length : 0;
    return { palette, cells };
  }
  if (!f.has("BiomePalette") && !f.has("BiomeData")) return null;
  const palette = f.has("BiomePalette") ? readPalette(r, f, "BiomePalette", path, 1 << 20) : [];
  const cells = seek(r, f, "BiomeData", TAG.ByteArray, path, false) ? r.byteArray().length : 0;
  return { palette, cells };
}
