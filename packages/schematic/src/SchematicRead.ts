import { gunzipSync } from "node:zlib";
import { blockEntityPredicate, fail, mcbError, ok, type BlockRegistry, type Result } from "@mcb/blocks";
import { NbtError, NbtReader } from "@mcb/nbt";
import { TAG } from "@mcb/nbt";
import { canonicalNbt } from "@mcb/nbt";
import type { Decoded, SchematicFormat } from "./read/Decoded.js";
import { removedBlockEntity, upgradeState } from "@mcb/blocks";
import { FormatError, malformed, overLimit } from "./read/FormatError.js";
import { probeSize } from "./read/SizeProbe.js";
import { readLitematic } from "./read/LitematicRead.js";
import { readSponge } from "./read/SpongeRead.js";
import { readStructure } from "./read/StructureRead.js";
import { fields } from "./read/Walk.js";
import { canonicalInPlace, type Schematic, type SchematicBlockEntity } from "./Schematic.js";
import { DEFAULT_SCHEMATIC_LIMITS, type SchematicLimits } from "./SchematicLimits.js";

/** What a schematic may hold that the world cannot take from it; importing it means losing it. */
export type DropCategory = "entities" | "biomes" | "orphaned_block_entities" | "unknown_fields" | "unknown_blocks";
export const DROP_CATEGORIES: readonly DropCategory[] = ["entities", "biomes", "orphaned_block_entities", "unknown_fields", "unknown_blocks"];

export interface ReadOptions {
  readonly limits?: SchematicLimits;
  /** Categories the caller accepts to lose (reported all the same); the rest refuse the file. */
  readonly drop?: readonly DropCategory[];
  /**
   * Refuse a palette state with a property its block does not have (default: the property is
   * dropped and reported in `loss.dropped_properties`, as WorldEdit does when it pastes).
   */
  readonly strict?: boolean;
}

/** What importing leaves behind, by category (only the categories present). */
export interface LossReport {
  readonly entities?: { readonly count: number; readonly by_type: Readonly<Record<string, number>> };
  readonly biomes?: { readonly palette: readonly string[]; readonly cells: number };
  readonly orphaned_block_entities?: { readonly count: number; readonly sample: readonly { x: number; y: number; z: number; id: string; block: string }[] };
  readonly unknown_fields?: readonly string[];
  /**
   * States of a file from a newer game that this build does not know (a new block, a new value),
   * each by name with its count; dropped, their positions are left as they are (structure void).
   */
  readonly unknown_blocks?: { readonly count: number; readonly states: readonly { readonly state: string; readonly count: number; readonly why: string }[] };
  /** Properties a palette state had that its block does not (a mod's or a server's), dropped (never refuses; `strict` does). */
  readonly dropped_properties?: { readonly count: number; readonly sample: readonly { readonly state: string; readonly dropped: readonly string[] }[] };
}

export interface ReadResult {
  readonly schematic: Schematic;
  readonly format: SchematicFormat;
  /** The file's own DataVersion (a Sponge v1 file has none: 1631, Minecraft 1.13.2, is assumed). */
  readonly sourceDataVersion: number;
  /** Renames applied to bring the palette to the registry's version, with how many entries each. */
  readonly upgrades: Readonly<Record<string, number>>;
  /** What was dropped (with the caller's consent); empty when the file held nothing to lose. */
  readonly loss: LossReport;
  /** What the reader tolerated, one sentence each (spaces in state strings, a wrong PaletteMax, an empty palette read as air). */
  readonly notes: readonly string[];
}

/** DataVersion of Minecraft 1.13.2, the version of Sponge v1 files (they do not say). */
export const SPONGE_V1_DATA_VERSION = 1631;
const SAMPLE = 8;

/**
 * Reads a schematic recognised by its content: Sponge v1/v2/v3 (`.schem`), Litematica
 * (`.litematic`, one region) or a vanilla structure (`.nbt`), gzip or raw NBT. MCEdit/Schematica
 * `.schematic` files (numeric ids before 1.13) are recognised and refused with the way out. Limits
 * come first and bound every allocation; the NBT is walked in place (no tree). Palette states are
 * upgraded from the file's DataVersion (`BLOCK_UPGRADES`) and validated by the registry; block
 * entities are kept with canonical data. Entities, biomes, block entities without their block and
 * unknown fields refuse the file with a loss report unless their category is in `drop`.
 * Errors: invalid_request (format, details.path; loss, details.loss), budget_exceeded,
 * unsupported_block, version_mismatch.
 */
export function readSchematic(registry: BlockRegistry, file: Uint8Array, options: ReadOptions = {}): Result<ReadResult> {
  const limits = options.limits ?? DEFAULT_SCHEMATIC_LIMITS;
  if (file.length > limits.maxCompressedBytes)
    return fail(
      mcbError("budget_exceeded", `the file has ${file.length} bytes; the limit is ${limits.maxCompressedBytes}`, {
        reason: "compressed_size",
        limit: limits.maxCompressedBytes,
      }),
    );
  // The size first, from the file's first kilobytes: a file too large is refused before it is inflated.
  const size = probeSize(file);
  if (size !== null) {
    const volume = size.width * size.height * size.length;
    if (volume > limits.maxPositions)
      return fail(
        overLimit(
          `the schematic has ${volume} positions (${size.width} × ${size.height} × ${size.length}); the limit is ${limits.maxPositions}`,
          "positions",
          limits.maxPositions,
          { requested: volume },
        ).error,
      );
    if (volume > limits.maxNbtBytes)
      return fail(
        overLimit(
          `the schematic has ${volume} positions: its block data alone is over the ${limits.maxNbtBytes}-byte NBT limit`,
          "nbt_size",
          limits.maxNbtBytes,
          { requested: volume },
        ).error,
      );
  }
  let data: Uint8Array;
  if (file.length >= 2 && file[0] === 0x1f && file[1] === 0x8b) {
    try {
      // The gzip trailer gives the size (mod 2³²): one output chunk instead of many 16 KiB ones.
      const isize = file.length >= 18 ? new DataView(file.buffer, file.byteOffset + file.length - 4, 4).getUint32(0, true) : 0;
      const chunkSize = Math.min(Math.max(isize + 1, 64 * 1024), 64 * 1024 * 1024, limits.maxNbtBytes + 1);
      data = gunzipSync(file, { maxOutputLength: limits.maxNbtBytes, chunkSize });
    } catch (e) {
      if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
        return fail(mcbError("budget_exceeded", `decompressed NBT is over ${limits.maxNbtBytes} bytes`, { reason: "nbt_size", limit: limits.maxNbtBytes }));
      return fail(malformed(`gzip: ${(e as Error).message}`, "(file)").error);
    }
  } else if (file.length > 0 && file[0] === TAG.Compound) {
    if (file.length > limits.maxNbtBytes)
      return fail(mcbError("budget_exceeded", `the NBT is over ${limits.maxNbtBytes} bytes`, { reason: "nbt_size", limit: limits.maxNbtBytes }));
    data = file;
  } else return fail(malformed("neither gzip data nor NBT", "(file)").error);
  try {
    return ok(finish(registry, decode(data, limits), options));
  } catch (e) {
    if (e instanceof FormatError) return fail(e.error);
    if (e instanceof NbtError)
      return fail(mcbError("invalid_request", `schematic: malformed NBT: ${e.message}`, { reason: "schematic_format", path: "(nbt)", offset: e.offset }));
    throw e;
  }
}

function decode(data: Uint8Array, limits: SchematicLimits): Decoded {
  const r = new NbtReader(data);
  const root = r.root();
  if (root.type !== TAG.Compound) throw malformed("the root tag is not a compound", "(root)");
  const top = fields(r, "(root)");
  if (r.offset !== data.length) throw malformed(`${data.length - r.offset} trailing bytes after the root tag`, "(root)");
  const rootPath = root.name === "" ? "(root)" : root.name;
  // Sponge v3 nests the schematic in a "Schematic" compound under an unnamed root.
  const nested = top.get("Schematic");
  if (nested !== undefined && nested.type === TAG.Compound) {
    const extra = [...top.keys()].find((k) => k !== "Schematic");
    if (extra !== undefined) throw malformed("unknown field next to the schematic", `(root).${extra}`);
    r.seek(nested.offset);
    return readSponge(r, fields(r, "Schematic"), "Schematic", limits);
  }
  if (top.has("Materials") || (top.get("Blocks")?.type === TAG.ByteArray && top.has("Data")))
    throw new FormatError(
      mcbError(
        "invalid_request",
        "this is an MCEdit/Schematica .schematic (numeric block ids from before Minecraft 1.13), which cannot be read; load it in WorldEdit 7 and save it as .schem",
        {
          reason: "unsupported_format",
          format: "mcedit",
        },
      ),
    );
  if (top.has("Regions") && top.has("MinecraftDataVersion")) return readLitematic(r, top, rootPath, limits);
  if (top.has("size") && top.has("blocks") && (top.has("palette") || top.has("palettes"))) return readStructure(r, top, rootPath, limits);
  if (top.has("Version")) return readSponge(r, top, rootPath, limits);
  throw new FormatError(
    mcbError("invalid_request", "not a schematic this server knows (Sponge .schem, .litematic, structure .nbt)", {
      reason: "unsupported_format",
      fields: [...top.keys()].slice(0, 16),
    }),
  );
}

function finish(registry: BlockRegistry, d: Decoded, options: ReadOptions): ReadResult {
  const dataVersion = d.dataVersion ?? SPONGE_V1_DATA_VERSION;
  // A file from a newer game is read as it is: what this build does not know is reported by name.
  const newer = dataVersion > registry.dataVersion;
  const upgrades: Record<string, number> = {};
  const notes = [...(d.notes ?? [])];
  if (newer)
    notes.push(
      `the file is from a newer Minecraft (DataVersion ${dataVersion}) than this world's ${registry.minecraftVersion} (${registry.dataVersion}): read as it is`,
    );
  const resolved = resolvePalette(registry, d, options, dataVersion, upgrades);
  // Counted before the renumbering below (which rewrites the indices in place).
  const unknownLoss = resolved.unknown.size === 0 ? null : unknownBlocks(resolved.unknown, d.blocks, d.palette.length);
  const spaced = resolved.spaced;
  if (spaced > 0) notes.push(`${spaced} palette entr${spaced === 1 ? "y has" : "ies have"} spaces inside the state string: read without them`);
  // Renumbered first (one pass), which also checks indices a reader left unchecked.
  const canonical = canonicalInPlace(
    {
      width: d.width,
      height: d.height,
      length: d.length,
      offset: d.offset,
      dataVersion: registry.dataVersion,
      palette: resolved.palette,
      blocks: d.blocks,
      blockEntities: [],
    },
    d.indexLimit,
  );
  if ("outOfRange" in canonical)
    throw malformed(
      `palette index ${canonical.outOfRange} at position ${canonical.at} is out of range${canonical.outOfRange >= 0x80 && d.indexLimit !== undefined ? " (or a varint longer than one byte, which leaves fewer values than positions)" : ""}`,
      d.blocksPath ?? "(blocks)",
    );
  const entities = placeBlockEntities(registry, d, canonical, dataVersion, upgrades);
  const loss: { -readonly [K in keyof LossReport]: LossReport[K] } = {};
  const entityCount = [...d.entities.values()].reduce((a, b) => a + b, 0);
  if (entityCount > 0) loss.entities = { count: entityCount, by_type: Object.fromEntries([...d.entities].sort(([a], [b]) => (a < b ? -1 : 1))) };
  if (d.biomes !== null) loss.biomes = d.biomes;
  if (entities.orphanCount > 0) loss.orphaned_block_entities = { count: entities.orphanCount, sample: entities.orphans };
  if (d.unknownFields.length > 0) loss.unknown_fields = d.unknownFields;
  if (unknownLoss !== null) loss.unknown_blocks = unknownLoss;
  if (resolved.droppedCount > 0) loss.dropped_properties = { count: resolved.droppedCount, sample: resolved.dropped };
  const refused = DROP_CATEGORIES.filter((c) => loss[c] !== undefined && !(options.drop ?? []).includes(c));
  if (refused.length > 0)
    throw new FormatError(
      mcbError(
        "invalid_request",
        `importing this schematic would lose its ${refused.join(", ").replace(/_/g, " ")}; pass drop: [${refused.map((c) => JSON.stringify(c)).join(", ")}] to import the rest`,
        { reason: "would_lose", loss, drop: refused },
      ),
    );
  const schematic: Schematic = { ...canonical, blockEntities: entities.kept, ...(d.name === undefined ? {} : { name: d.name }) };
  return { schematic, format: d.format, sourceDataVersion: dataVersion, upgrades, loss, notes };
}

/**
 * The palette as canonical states of this world's version: spaces inside states removed, names
 * upgraded from the file's DataVersion (counted in `upgrades`), properties this version does not
 * have dropped (unless strict), and a newer file's unknown blocks kept aside as structure voids.
 */
function resolvePalette(
  registry: BlockRegistry,
  d: Decoded,
  options: ReadOptions,
  dataVersion: number,
  upgrades: Record<string, number>,
): {
  palette: string[];
  spaced: number;
  dropped: { state: string; dropped: string[] }[];
  droppedCount: number;
  unknown: Map<number, { state: string; why: string }>;
} {
  const newer = dataVersion > registry.dataVersion;
  let spaced = 0;
  const dropped: { state: string; dropped: string[] }[] = [];
  let droppedCount = 0;
  const unknown = new Map<number, { state: string; why: string }>();
  const palette = d.palette.map((written, i) => {
    // Some tools write "a[b=c, d=e]": the spaces are no part of any state.
    const raw = written.replace(/\s*([[\],=])\s*/g, "$1").trim();
    if (raw !== written) spaced++;
    const up = upgradeState(raw, dataVersion, registry.dataVersion);
    for (const what of up.applied) upgrades[what] = (upgrades[what] ?? 0) + 1;
    let state = registry.resolveState(up.state);
    if (!state.ok && state.error.details?.reason === "unknown_property" && options.strict !== true) {
      const kept = withKnownProperties(registry, up.state);
      if (kept !== null) {
        state = registry.resolveState(kept.state);
        if (state.ok) {
          droppedCount++;
          if (dropped.length < SAMPLE) dropped.push({ state: raw.slice(0, 200), dropped: kept.dropped });
        }
      }
    }
    if (!state.ok && newer && state.error.code === "unsupported_block") {
      unknown.set(i, { state: raw.slice(0, 200), why: state.error.message.slice(0, 200) });
      return STRUCTURE_VOID;
    }
    if (!state.ok)
      throw new FormatError(
        mcbError("unsupported_block", `schematic palette entry ${i} ${JSON.stringify(raw.slice(0, 120))}: ${state.error.message}`, {
          ...state.error.details,
          palette_index: i,
          data_version: dataVersion,
        }),
      );
    return state.value.canonical;
  });
  return { palette, spaced, dropped, droppedCount, unknown };
}

/**
 * The block entities that sit on blocks that have them, in (y, z, x) order with canonical data;
 * a removed kind is counted as an upgrade, one on another block is an orphan (counted, sampled).
 */
function placeBlockEntities(
  registry: BlockRegistry,
  d: Decoded,
  canonical: { readonly palette: readonly string[]; readonly blocks: ArrayLike<number> },
  dataVersion: number,
  upgrades: Record<string, number>,
): { kept: SchematicBlockEntity[]; orphans: { x: number; y: number; z: number; id: string; block: string }[]; orphanCount: number } {
  const isEntityBlock = blockEntityPredicate(registry);
  const { width, height, length } = d;
  const seen = new Set<number>();
  const kept: SchematicBlockEntity[] = [];
  const orphans: { x: number; y: number; z: number; id: string; block: string }[] = [];
  let orphanCount = 0;
  for (const be of d.blockEntities) {
    const { x, y, z } = be;
    if (x < 0 || y < 0 || z < 0 || x >= width || y >= height || z >= length) throw malformed(`position ${x} ${y} ${z} lies outside the schematic`, be.path);
    const at = x + z * width + y * width * length;
    if (seen.has(at)) throw malformed(`a second block entity at ${x} ${y} ${z}`, be.path);
    seen.add(at);
    const block = canonical.palette[canonical.blocks[at]!]!;
    const blockId = block.replace(/\[.*$/, "");
    // A file without the type (Litematica): the game's type for the block (a spawner's is mob_spawner).
    const id = be.id === "" ? (registry.blockTypes.get(blockId)?.blockEntity ?? blockId) : be.id.includes(":") ? be.id : `minecraft:${be.id}`;
    const removed = removedBlockEntity(id, blockId, dataVersion, registry.dataVersion);
    if (removed !== undefined && !isEntityBlock(block)) {
      upgrades[removed.what] = (upgrades[removed.what] ?? 0) + 1;
      continue;
    }
    if (!isEntityBlock(block)) {
      orphanCount++;
      if (orphans.length < SAMPLE) orphans.push({ x, y, z, id, block });
      continue;
    }
    kept.push({ x, y, z, id, data: canonicalNbt(be.data) });
  }
  kept.sort((a, b) => a.y - b.y || a.z - b.z || a.x - b.x);
  return { kept, orphans, orphanCount };
}

const STRUCTURE_VOID = "minecraft:structure_void";

/** The unknown states of a newer file by name, with how many positions hold each (most first). */
function unknownBlocks(
  unknown: ReadonlyMap<number, { state: string; why: string }>,
  blocks: ArrayLike<number>,
  paletteSize: number,
): NonNullable<LossReport["unknown_blocks"]> {
  const counts = new Uint32Array(paletteSize);
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (b < paletteSize) counts[b]!++;
  }
  const states = [...unknown]
    .map(([i, u]) => ({ state: u.state, count: counts[i]!, why: u.why }))
    .sort((a, b) => b.count - a.count || (a.state < b.state ? -1 : 1));
  return { count: states.reduce((n, s) => n + s.count, 0), states: states.slice(0, 64) };
}

/** The state with only the properties its block has (null: an unknown block, or nothing to drop). */
function withKnownProperties(registry: BlockRegistry, state: string): { state: string; dropped: string[] } | null {
  const m = /^([^[]+)\[(.*)\]$/.exec(state);
  if (m === null) return null;
  const id = m[1]!.includes(":") ? m[1]! : `minecraft:${m[1]!}`;
  const type = registry.blockTypes.get(id);
  if (type === undefined) return null;
  const names = new Set(type.properties.map((p) => p.name));
  const pairs = m[2]!.split(",").filter((p) => p !== "");
  const kept = pairs.filter((p) => names.has(p.split("=")[0]!));
  if (kept.length === pairs.length) return null;
  return { state: kept.length === 0 ? id : `${id}[${kept.join(",")}]`, dropped: pairs.filter((p) => !names.has(p.split("=")[0]!)) };
}
