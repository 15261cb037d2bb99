import { gunzipSync } from "node:zlib";
import { fail, mcbError, ok, type BlockRegistry, type McbError, type Result } from "@mcb/blocks";
import { parseNbt, type NbtRoot, type NbtTag } from "./NbtCodec.js";
import { canonicalSchematic, type Schematic } from "./Schematic.js";
import { DEFAULT_SCHEMATIC_LIMITS, type SchematicLimits } from "./SchematicLimits.js";
import { decodeVarints } from "./Varint.js";

const V2_FIELDS = new Set(["Version", "DataVersion", "Width", "Height", "Length", "Offset", "Metadata", "PaletteMax", "Palette", "BlockData", "BlockEntities", "TileEntities", "Entities"]);
const V3_FIELDS = new Set(["Version", "DataVersion", "Width", "Height", "Length", "Offset", "Metadata", "Blocks", "Entities"]);
const V3_BLOCKS_FIELDS = new Set(["Palette", "Data", "BlockEntities"]);
const BIOMES = new Set(["BiomePalette", "BiomePaletteMax", "BiomeData", "Biomes"]);

function bad(message: string, path: string, extra: Record<string, unknown> = {}): McbError {
  return mcbError("invalid_request", `schematic ${path}: ${message}`, { reason: "schematic_format", path, ...extra });
}

function field<T extends NbtTag["type"]>(c: Record<string, NbtTag>, key: string, type: T, path: string): Result<Extract<NbtTag, { type: T }>> {
  const tag = c[key];
  if (tag === undefined) return fail(bad("missing", `${path}.${key}`));
  if (tag.type !== type) return fail(bad(`expected ${type}, found ${tag.type}`, `${path}.${key}`));
  return ok(tag as Extract<NbtTag, { type: T }>);
}

/**
 * Reads a gzip Sponge schematic, version 2 (read/write) or 3 (read), by its explicit `Version`.
 * Limits first (compressed size, decompressed size, positions, palette), then the format:
 * unknown top-level fields, biomes, non-empty entity or block-entity lists and required mods are
 * rejected with a reason; palette states are validated and canonicalized by the registry.
 * Errors: `invalid_request` (format, details.path), `budget_exceeded` (a limit, details.limit),
 * `unsupported_block` (palette state), `version_mismatch` (DataVersion newer than the registry).
 */
export function readSchematic(registry: BlockRegistry, file: Uint8Array, limits: SchematicLimits = DEFAULT_SCHEMATIC_LIMITS): Result<Schematic> {
  if (file.length > limits.maxCompressedBytes)
    return fail(mcbError("budget_exceeded", `the file has ${file.length} bytes; the limit is ${limits.maxCompressedBytes}`, { reason: "compressed_size", limit: limits.maxCompressedBytes }));
  if (file.length < 2 || file[0] !== 0x1f || file[1] !== 0x8b) return fail(bad("not gzip data", "(file)"));
  let data: Buffer;
  try {
    data = gunzipSync(file, { maxOutputLength: limits.maxNbtBytes });
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      return fail(mcbError("budget_exceeded", `decompressed NBT is over ${limits.maxNbtBytes} bytes`, { reason: "nbt_size", limit: limits.maxNbtBytes }));
    return fail(bad(`gzip: ${(e as Error).message}`, "(file)"));
  }
  let root: NbtRoot;
  try {
    const parsed = parseNbt(data);
    if (parsed.size !== data.length) return fail(bad(`${data.length - parsed.size} trailing bytes after the root tag`, "(root)"));
    root = parsed.root;
  } catch (e) {
    return fail(bad(`malformed NBT (${(e as Error).message.slice(0, 120)})`, "(root)"));
  }
  if (root.type !== "compound") return fail(bad("the root tag is not a compound", "(root)"));
  // v3 nests everything in a "Schematic" compound under an unnamed root; v2's root is the schematic.
  const nested = root.value["Schematic"];
  if (nested !== undefined && nested.type === "compound") {
    const extra = Object.keys(root.value).find((k) => k !== "Schematic");
    if (extra !== undefined) return fail(bad("unknown field", `(root).${extra}`));
    return readBody(registry, nested.value, "Schematic", limits);
  }
  return readBody(registry, root.value, root.name === "" ? "(root)" : root.name, limits);
}

function readBody(registry: BlockRegistry, c: Record<string, NbtTag>, path: string, limits: SchematicLimits): Result<Schematic> {
  const version = field(c, "Version", "int", path);
  if (!version.ok) return version;
  const v = version.value.value;
  if (v !== 2 && v !== 3) return fail(bad(`Sponge version ${v} is not supported (2 and 3 are)`, `${path}.Version`, { version: v }));
  const known = v === 2 ? V2_FIELDS : V3_FIELDS;
  for (const key of Object.keys(c)) {
    if (BIOMES.has(key)) return fail(bad("biomes are not supported", `${path}.${key}`, { rejected: "biomes" }));
    if (!known.has(key)) return fail(bad("unknown field", `${path}.${key}`));
  }
  const dv = field(c, "DataVersion", "int", path);
  if (!dv.ok) return dv;
  if (dv.value.value > registry.dataVersion)
    return fail(
      mcbError("version_mismatch", `DataVersion ${dv.value.value} is newer than this server's ${registry.dataVersion}; there is no conversion`, {
        data_version: dv.value.value,
        supported: registry.dataVersion,
      }),
    );
  const dims: number[] = [];
  for (const key of ["Width", "Height", "Length"]) {
    const d = field(c, key, "short", path);
    if (!d.ok) return d;
    const value = d.value.value & 0xffff; // unsigned short in the Sponge specification
    if (value === 0) return fail(bad("must be at least 1", `${path}.${key}`));
    dims.push(value);
  }
  const [width, height, length] = dims as [number, number, number];
  const volume = width * height * length;
  if (volume > limits.maxPositions)
    return fail(mcbError("budget_exceeded", `the schematic has ${volume} positions; the limit is ${limits.maxPositions}`, { reason: "positions", limit: limits.maxPositions, requested: volume }));

  const meta = c["Metadata"];
  let name: string | undefined;
  let weOffset: [number, number, number] | undefined;
  if (meta !== undefined) {
    if (meta.type !== "compound") return fail(bad(`expected compound, found ${meta.type}`, `${path}.Metadata`));
    const mods = meta.value["RequiredMods"];
    if (mods !== undefined && (mods.type !== "list" || mods.value.value.length > 0)) return fail(bad("required mods are not supported", `${path}.Metadata.RequiredMods`, { rejected: "required_mods" }));
    const n = meta.value["Name"];
    if (n !== undefined && n.type === "string") name = n.value;
    const we = ["WEOffsetX", "WEOffsetY", "WEOffsetZ"].map((k) => meta.value[k]);
    if (we.every((t) => t !== undefined && t.type === "int")) weOffset = we.map((t) => (t as { value: number }).value) as [number, number, number];
  }
  let offset = { x: 0, y: 0, z: 0 };
  const off = c["Offset"];
  if (off !== undefined) {
    if (off.type !== "intArray" || off.value.length !== 3) return fail(bad("expected an int array of 3", `${path}.Offset`));
    offset = { x: off.value[0]!, y: off.value[1]!, z: off.value[2]! };
  }
  // WorldEdit stores the region's world minimum in Offset and the paste offset in WEOffset.
  if (weOffset !== undefined) offset = { x: weOffset[0], y: weOffset[1], z: weOffset[2] };

  for (const [key, what] of [["Entities", "entities"], ["BlockEntities", "block entities"], ["TileEntities", "block entities"]] as const) {
    const r = emptyList(c, key, path, what);
    if (!r.ok) return r;
  }
  let paletteTag: Record<string, NbtTag>;
  let data: Buffer;
  let palettePath: string;
  if (v === 2) {
    const p = field(c, "Palette", "compound", path);
    if (!p.ok) return p;
    const d = field(c, "BlockData", "byteArray", path);
    if (!d.ok) return d;
    const max = c["PaletteMax"];
    if (max !== undefined && (max.type !== "int" || max.value !== Object.keys(p.value.value).length))
      return fail(bad("does not match the palette size", `${path}.PaletteMax`));
    paletteTag = p.value.value;
    data = d.value.value;
    palettePath = `${path}.Palette`;
  } else {
    const b = field(c, "Blocks", "compound", path);
    if (!b.ok) return b;
    for (const key of Object.keys(b.value.value)) if (!V3_BLOCKS_FIELDS.has(key)) return fail(bad("unknown field", `${path}.Blocks.${key}`));
    const be = emptyList(b.value.value, "BlockEntities", `${path}.Blocks`, "block entities");
    if (!be.ok) return be;
    const p = field(b.value.value, "Palette", "compound", `${path}.Blocks`);
    if (!p.ok) return p;
    const d = field(b.value.value, "Data", "byteArray", `${path}.Blocks`);
    if (!d.ok) return d;
    paletteTag = p.value.value;
    data = d.value.value;
    palettePath = `${path}.Blocks.Palette`;
  }
  const entries = Object.entries(paletteTag);
  if (entries.length === 0) return fail(bad("is empty", palettePath));
  if (entries.length > limits.maxPaletteEntries)
    return fail(mcbError("budget_exceeded", `the palette has ${entries.length} entries; the limit is ${limits.maxPaletteEntries}`, { reason: "palette", limit: limits.maxPaletteEntries }));
  const palette = new Array<string>(entries.length);
  const seen = new Uint8Array(entries.length);
  for (const [key, tag] of entries) {
    if (tag.type !== "int") return fail(bad(`expected int, found ${tag.type}`, `${palettePath}.${key}`));
    const index = tag.value;
    if (index < 0 || index >= entries.length || seen[index] === 1) return fail(bad(`index ${index} is out of range or repeated`, `${palettePath}.${key}`));
    seen[index] = 1;
    const state = registry.resolveState(key);
    if (!state.ok) return fail(mcbError("unsupported_block", `schematic palette entry ${JSON.stringify(key.slice(0, 120))}: ${state.error.message}`, { path: `${palettePath}.${key}` }));
    palette[index] = state.value.canonical;
  }
  const blocks = new Uint32Array(volume);
  const decoded = decodeVarints(data, blocks);
  if (typeof decoded === "string") return fail(bad(decoded, v === 2 ? `${path}.BlockData` : `${path}.Blocks.Data`));
  if (decoded !== volume) return fail(bad(`has ${decoded} entries; Width × Height × Length is ${volume}`, v === 2 ? `${path}.BlockData` : `${path}.Blocks.Data`));
  for (let i = 0; i < volume; i++) {
    if (blocks[i]! >= palette.length) return fail(bad(`palette index ${blocks[i]} at position ${i} is out of range`, v === 2 ? `${path}.BlockData` : `${path}.Blocks.Data`));
  }
  const value: Schematic = { width, height, length, offset, dataVersion: dv.value.value, palette, blocks, ...(name === undefined ? {} : { name }) };
  return ok(canonicalSchematic(value));
}

function emptyList(c: Record<string, NbtTag>, key: string, path: string, what: string): Result<void> {
  const tag = c[key];
  if (tag === undefined) return ok(undefined);
  if (tag.type !== "list") return fail(bad(`expected list, found ${tag.type}`, `${path}.${key}`));
  if (tag.value.value.length > 0)
    return fail(bad(`${what} are not supported: their data would be lost (${tag.value.value.length} present)`, `${path}.${key}`, { rejected: what.replace(" ", "_") }));
  return ok(undefined);
}
