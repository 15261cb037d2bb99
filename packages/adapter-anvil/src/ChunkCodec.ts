import { parseStateSyntax } from "@mcb/blocks";
import { NbtError, NbtReader, TAG, encodeNbt, nbt, type NbtCompound, type NbtValue } from "@mcb/nbt";
import { removedBlockEntity } from "@mcb/blocks";
import { int, paletteStates, str, upgrader } from "./ChunkTags.js";
import { AIR, Chunk, ChunkSection } from "./Chunk.js";
import type { Heightmaps } from "./Heightmaps.js";
import { decodeLegacyChunk } from "./LegacyChunkCodec.js";
import { blockBits, pack, unpack } from "./PackedArray.js";
import type { Compression } from "./RegionFile.js";
import { SaveError } from "./SaveError.js";
import type { ChunkHeight, ChunkVersions, DecodedChunk } from "./ChunkVersions.js";

/** The overworld's sections from 1.18 on (y −64 to 319), when a caller does not give the world's height. */
const VANILLA_HEIGHT: ChunkHeight = { minSection: -4, sectionCount: 24 };

/** The first DataVersion with the 1.18 chunk layout (sections with block_states, no Level compound). */
export const MIN_CHUNK_DATA_VERSION = 2860;

/**
 * Decodes a chunk's NBT: the 1.18+ layout (DataVersion 2860 on), or the older `Level` layout
 * (LegacyChunkCodec: 1.13–1.17 palettes, 1.12-and-older numeric ids), told apart by the `Level`
 * compound. States older than the registry are upgraded to it; newer ones are kept as they are.
 * `height` is the world's (its dimension type): what the chunk spans when it does not say itself
 * (default: the game's default of the chunk's layout, 0..255 for a `Level` chunk, −64..319 after).
 * Throws `SaveError` `corrupt_chunk` for anything malformed, naming the chunk.
 */
export function decodeChunk(
  bytes: Uint8Array,
  x: number,
  z: number,
  compression: Compression,
  versions: ChunkVersions,
  file: string,
  height?: ChunkHeight,
): DecodedChunk {
  const where = `chunk ${x},${z} in ${file}`;
  const corrupt = (why: string): never => {
    throw new SaveError("corrupt_chunk", `${where}: ${why}`, { file, chunk: { x, z } });
  };
  let root: NbtCompound;
  try {
    const r = new NbtReader(bytes);
    if (r.root().type !== TAG.Compound) corrupt("the root tag is not a compound");
    root = r.compoundValue();
  } catch (e) {
    if (e instanceof NbtError) return corrupt(`bad NBT (${e.message})`);
    throw e;
  }
  const dv = int(root.v.get("DataVersion"));
  if (root.v.has("Level")) return decodeLegacyChunk(root, dv ?? 0, x, z, compression, versions, corrupt, height);
  if (dv === undefined || dv < MIN_CHUNK_DATA_VERSION) return corrupt(`the 1.18 layout (no Level compound) with DataVersion ${dv ?? "missing"}`);
  const upgrade = upgrader(versions);
  const cx = int(root.v.get("xPos")),
    cz = int(root.v.get("zPos"));
  if (cx !== x || cz !== z) corrupt(`it says it is chunk ${cx},${cz}`);
  const status = str(root.v.get("Status"));
  const full = status === "minecraft:full" || status === "full";
  const minSection = int(root.v.get("yPos")) ?? (height ?? VANILLA_HEIGHT).minSection;
  const sectionsTag = root.v.get("sections");
  const sections = new Map<number, ChunkSection>();
  if (sectionsTag !== undefined) {
    if (sectionsTag.t !== TAG.List || (sectionsTag.elem !== TAG.Compound && sectionsTag.v.length > 0)) corrupt("sections is not a list of compounds");
    for (const s of (sectionsTag as { v: readonly NbtValue[] }).v) {
      const sc = s as NbtCompound;
      const y = int(sc.v.get("Y"));
      if (y === undefined) corrupt("a section has no Y");
      const rest = new Map(sc.v);
      const bs = sc.v.get("block_states");
      if (bs === undefined) {
        sections.set(y!, new ChunkSection(y!, [AIR], null, rest));
        continue;
      }
      if (bs.t !== TAG.Compound) corrupt(`section ${y}: block_states is not a compound`);
      const pal = (bs as NbtCompound).v.get("palette");
      if (pal === undefined || pal.t !== TAG.List || pal.v.length === 0 || pal.v.length > 4096) corrupt(`section ${y}: block_states has no usable palette`);
      const palette = paletteStates((pal as { v: readonly NbtValue[] }).v, y!, dv, upgrade, corrupt);
      let indices: Uint16Array | null = null;
      if (palette.length > 1) {
        const data = (bs as NbtCompound).v.get("data");
        if (data?.t !== TAG.LongArray) return corrupt(`section ${y}: a palette of ${palette.length} states and no data`);
        const bits = blockBits(palette.length);
        indices = new Uint16Array(4096);
        if (!unpack(data.v, bits, 4096, indices))
          corrupt(`section ${y}: data has ${data.v.length} longs, ${bits}-bit indices need ${Math.ceil(4096 / Math.floor(64 / bits))}`);
        for (let i = 0; i < 4096; i++) if (indices[i]! >= palette.length) corrupt(`section ${y}: index ${indices[i]} outside a palette of ${palette.length}`);
      }
      sections.set(y!, new ChunkSection(y!, palette, indices, rest));
    }
  }
  const chunk = new Chunk(x, z, dv, new Map(root.v), sections, new Map(), compression, minSection, (height ?? VANILLA_HEIGHT).sectionCount);
  const be = root.v.get("block_entities");
  if (be !== undefined && be.t === TAG.List) {
    for (const e of be.v) {
      if (e.t !== TAG.Compound) continue;
      const ex = int(e.v.get("x")),
        ey = int(e.v.get("y")),
        ez = int(e.v.get("z"));
      if (ex === undefined || ey === undefined || ez === undefined || ex >> 4 !== x || ez >> 4 !== z)
        corrupt("a block entity lies outside the chunk or has no position");
      if (removedBlockEntity(str(e.v.get("id")) ?? "", "", dv, versions.dataVersion) !== undefined) continue; // a type the registry's game no longer has (read only: older chunks are never written)
      chunk.entities.set(chunk.blockKey(ex!, ey!, ez!), e);
    }
  }
  return { chunk, full };
}

function stateCompound(state: string): NbtCompound {
  const parsed = parseStateSyntax(state);
  if (!parsed.ok) return nbt.compound([["Name", nbt.string(state)]]);
  const props = [...parsed.value.properties].sort(([a], [b]) => (a < b ? -1 : 1));
  return nbt.compound(
    props.length === 0
      ? [["Name", nbt.string(parsed.value.id)]]
      : [
          ["Name", nbt.string(parsed.value.id)],
          ["Properties", nbt.compound(props.map(([k, v]) => [k, nbt.string(v)]))],
        ],
  );
}

/** Encodes a section's states in the 1.18+ form (palette; data only for two or more states). */
function blockStates(s: ChunkSection): NbtCompound {
  s.compact();
  const palette = nbt.list(TAG.Compound, s.palette.map(stateCompound));
  if (s.palette.length === 1) return nbt.compound([["palette", palette]]);
  return nbt.compound([
    ["palette", palette],
    ["data", { t: TAG.LongArray, v: pack(s.indices!, blockBits(s.palette.length)) }],
  ]);
}

/**
 * The chunk's NBT after our writes: changed sections re-encoded, block entities, recomputed
 * heightmaps, `isLightOn` 0 (the game relights the chunk when it loads it: light stays the game's,
 * so no dark spots), every other tag as it was read.
 */
export function encodeChunk(chunk: Chunk, heightmaps: Heightmaps): Uint8Array {
  const root = chunk.root;
  if (chunk.dirtySections.size > 0) {
    const list: NbtValue[] = [];
    for (const y of [...chunk.sections.keys()].sort((a, b) => a - b)) {
      const s = chunk.sections.get(y)!;
      if (chunk.dirtySections.has(y)) {
        s.rest.set("Y", nbt.byte(y));
        s.rest.set("block_states", blockStates(s));
      }
      list.push({ t: TAG.Compound, v: new Map(s.rest) });
    }
    root.set("sections", nbt.list(TAG.Compound, list));
    root.set("Heightmaps", heightmaps.compute(chunk));
  }
  if (chunk.entitiesDirty)
    root.set(
      "block_entities",
      nbt.list(
        TAG.Compound,
        [...chunk.entities.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c),
      ),
    );
  root.set("DataVersion", nbt.int(chunk.dataVersion));
  root.set("isLightOn", nbt.byte(0));
  return encodeNbt("", { t: TAG.Compound, v: root });
}
