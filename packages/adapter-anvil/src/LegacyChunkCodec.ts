import { formatState, legacyState, parseStateSyntax } from "@mcb/blocks";
import { TAG, type NbtCompound, type NbtValue } from "@mcb/nbt";
import { removedBlockEntity } from "@mcb/blocks";
import { int, paletteStates, str, upgrader, type Corrupt } from "./ChunkTags.js";
import { Chunk, ChunkSection } from "./Chunk.js";
import type { ChunkHeight, ChunkVersions, DecodedChunk } from "./ChunkVersions.js";
import { unpack, unpackSpanning } from "./PackedArray.js";
import type { Compression } from "./RegionFile.js";

/**
 * Chunks of the layout before 1.18: everything inside a `Level` compound, sections 0..15 (y 0 to
 * 255; a 1.17 world whose dimension type is taller, with the Caves & Cliffs preview pack, has
 * sections −4..19). Two forms, told apart by the sections' tags (never guessed from a version):
 * - palettes (1.13 to 1.17): `Palette` + `BlockStates`, indices spanning longs before DataVersion
 *   2527 (1.16) and padded from it on;
 * - numeric ids (1.12 and older): `Blocks` (+ `Add`) and `Data` nibbles, turned into 1.13 states
 *   by the game's flattening table (minecraft-data's, see `legacyState`) and the fixes the game's
 *   flattening makes from a block's neighbours and block entity (doors, tall plants, snowy grass,
 *   bed and banner colours, skulls, flower pots, note blocks).
 * Every state is then upgraded to the registry's version. Such chunks are read, never written.
 */

/** First DataVersion whose packed indices do not span two longs (20w17a). */
const PADDED_INDICES = 2527;
/** The flattening table's names are 1.13's. */
const FLATTENED_DATA_VERSION = 1519;

const DYES = [
  "white",
  "orange",
  "magenta",
  "light_blue",
  "yellow",
  "lime",
  "pink",
  "gray",
  "light_gray",
  "cyan",
  "purple",
  "blue",
  "brown",
  "green",
  "red",
  "black",
];
const SKULLS = ["skeleton_skull", "wither_skeleton_skull", "zombie_head", "player_head", "creeper_head", "dragon_head"];
const WALL_SKULLS = ["skeleton_wall_skull", "wither_skeleton_wall_skull", "zombie_wall_head", "player_wall_head", "creeper_wall_head", "dragon_wall_head"];
/** Flower pot contents (1.12 `Item` + `Data`) → the potted block. */
const POTTED: Record<string, string> = {
  "minecraft:red_flower:0": "potted_poppy",
  "minecraft:red_flower:1": "potted_blue_orchid",
  "minecraft:red_flower:2": "potted_allium",
  "minecraft:red_flower:3": "potted_azure_bluet",
  "minecraft:red_flower:4": "potted_red_tulip",
  "minecraft:red_flower:5": "potted_orange_tulip",
  "minecraft:red_flower:6": "potted_white_tulip",
  "minecraft:red_flower:7": "potted_pink_tulip",
  "minecraft:red_flower:8": "potted_oxeye_daisy",
  "minecraft:yellow_flower:0": "potted_dandelion",
  "minecraft:sapling:0": "potted_oak_sapling",
  "minecraft:sapling:1": "potted_spruce_sapling",
  "minecraft:sapling:2": "potted_birch_sapling",
  "minecraft:sapling:3": "potted_jungle_sapling",
  "minecraft:sapling:4": "potted_acacia_sapling",
  "minecraft:sapling:5": "potted_dark_oak_sapling",
  "minecraft:red_mushroom:0": "potted_red_mushroom",
  "minecraft:brown_mushroom:0": "potted_brown_mushroom",
  "minecraft:cactus:0": "potted_cactus",
  "minecraft:deadbush:0": "potted_dead_bush",
  "minecraft:tallgrass:2": "potted_fern",
};

/** Decodes a `Level` chunk (see the module comment); `dv` is its DataVersion (0 when it has none). */
export function decodeLegacyChunk(
  root: NbtCompound,
  dv: number,
  x: number,
  z: number,
  compression: Compression,
  versions: ChunkVersions,
  corrupt: Corrupt,
  height: ChunkHeight = { minSection: 0, sectionCount: 16 },
): DecodedChunk {
  const level = root.v.get("Level");
  if (level?.t !== TAG.Compound) return corrupt("Level is not a compound");
  const cx = int(level.v.get("xPos")),
    cz = int(level.v.get("zPos"));
  if (cx !== x || cz !== z) corrupt(`it says it is chunk ${cx},${cz}`);
  const status = str(level.v.get("Status"));
  const full = status === undefined ? int(level.v.get("TerrainPopulated")) === 1 : status === "full" || status === "postprocessed" || status === "fullchunk";
  const entities = new Map<number, NbtCompound>();
  const removed = new Map<number, NbtCompound>();
  const te = level.v.get("TileEntities");
  if (te?.t === TAG.List)
    for (const e of te.v) {
      if (e.t !== TAG.Compound) continue;
      const ex = int(e.v.get("x")),
        ey = int(e.v.get("y")),
        ez = int(e.v.get("z"));
      const minY = height.minSection * 16;
      if (ex === undefined || ey === undefined || ez === undefined || ex >> 4 !== x || ez >> 4 !== z || ey < minY || ey >= minY + height.sectionCount * 16)
        corrupt("a block entity lies outside the chunk or has no position");
      const key = ((ey! - minY) << 8) | ((ez! & 15) << 4) | (ex! & 15); // Chunk.blockKey
      // A type the game dropped is not kept, but the flattening fixes still read it (a 1.12 bed's colour).
      (removedBlockEntity(str(e.v.get("id")) ?? "", "", dv, versions.dataVersion) === undefined ? entities : removed).set(key, e);
    }
  const list = level.v.get("Sections");
  const raw: NbtCompound[] = list?.t === TAG.List ? (list.v.filter((s) => s.t === TAG.Compound) as NbtCompound[]) : [];
  const numeric = raw.some((s) => s.v.has("Blocks"));
  const upgrade = upgrader(versions);
  // Numeric ids (1.12 and older) always span 0..255; a 1.13–1.17 world spans its dimension type's
  // height (a 1.17 world made with the Caves & Cliffs preview pack: sections −4..19).
  const span = numeric ? { minSection: 0, sectionCount: 16 } : height;
  const sections = numeric ? numericSections(raw, new Map([...entities, ...removed]), upgrade, corrupt) : paletteSections(raw, dv, upgrade, corrupt, span);
  const chunk = new Chunk(x, z, dv, new Map(level.v), sections, entities, compression, span.minSection, span.sectionCount);
  return { chunk, full };
}

/** 1.13–1.17 sections: palette entries as states, indices spanning or padded by the DataVersion. */
function paletteSections(
  raw: readonly NbtCompound[],
  dv: number,
  upgrade: (s: string, from: number) => string,
  corrupt: Corrupt,
  height: ChunkHeight,
): Map<number, ChunkSection> {
  const sections = new Map<number, ChunkSection>();
  for (const s of raw) {
    const y = int(s.v.get("Y"));
    if (y === undefined) corrupt("a section has no Y");
    if (y! < height.minSection || y! >= height.minSection + height.sectionCount) continue; // the light-only sections below and above the world
    const pal = s.v.get("Palette");
    if (pal === undefined) continue;
    if (pal.t !== TAG.List || pal.v.length === 0 || pal.v.length > 4096) corrupt(`section ${y}: Palette is not a usable list`);
    const palette = paletteStates((pal as { v: readonly NbtValue[] }).v, y!, dv, upgrade, corrupt);
    const data = s.v.get("BlockStates");
    if (data?.t !== TAG.LongArray) return corrupt(`section ${y}: a palette and no BlockStates`);
    const bits = Math.max(4, Math.ceil(Math.log2(palette.length)));
    const indices = new Uint16Array(4096);
    const fits = dv >= PADDED_INDICES ? unpack(data.v, bits, 4096, indices) : unpackSpanning(data.v, bits, 4096, indices);
    if (!fits) corrupt(`section ${y}: BlockStates has ${data.v.length} longs, not what ${bits}-bit indices take`);
    for (let i = 0; i < 4096; i++) if (indices[i]! >= palette.length) corrupt(`section ${y}: index ${indices[i]} outside a palette of ${palette.length}`);
    sections.set(y!, new ChunkSection(y!, palette, palette.length === 1 ? null : indices, new Map(s.v)));
  }
  return sections;
}

/** Nibble `k` of a 2048-byte array (the low half of a byte first). */
function nibble(a: Uint8Array, k: number): number {
  return k & 1 ? (a[k >> 1]! >> 4) & 15 : a[k >> 1]! & 15;
}

/** 1.12-and-older sections: id (Blocks + Add) and metadata (Data) per block, fixed up and flattened. */
function numericSections(
  raw: readonly NbtCompound[],
  entities: ReadonlyMap<number, NbtCompound>,
  upgrade: (s: string, from: number) => string,
  corrupt: Corrupt,
): Map<number, ChunkSection> {
  // The whole chunk's ids and metadata (y 0..255), so fixes can look at the block above and below.
  const ids = new Uint16Array(65536),
    metas = new Uint8Array(65536);
  const present = new Set<number>();
  const bytes = (s: NbtCompound, key: string, length: number, y: number): Uint8Array | undefined => {
    const v = s.v.get(key);
    if (v === undefined) return undefined;
    if (v.t !== TAG.ByteArray || v.v.length !== length) return corrupt(`section ${y}: ${key} is not ${length} bytes`);
    return v.v;
  };
  for (const s of raw) {
    const y = int(s.v.get("Y"));
    if (y === undefined) corrupt("a section has no Y");
    if (y! < 0 || y! > 15) continue;
    const blocks = bytes(s, "Blocks", 4096, y!);
    if (blocks === undefined) continue;
    const add = bytes(s, "Add", 2048, y!),
      data = bytes(s, "Data", 2048, y!) ?? corrupt(`section ${y}: Blocks and no Data`);
    present.add(y!);
    const base = y! << 12;
    for (let i = 0; i < 4096; i++) {
      ids[base + i] = (blocks[i]! & 0xff) | (add === undefined ? 0 : nibble(add, i) << 8);
      metas[base + i] = nibble(data, i);
    }
  }
  // One flattening and one upgrade per distinct state, not per block.
  const flattened = new Map<number, string>();
  const upgraded = new Map<string, string>();
  const stateAt = (i: number): string => {
    const key = (ids[i]! << 4) | metas[i]!;
    let s = flattened.get(key);
    if (s === undefined) flattened.set(key, (s = legacyState(ids[i]!, metas[i]!) ?? `mcb_legacy:block_${ids[i]}_${metas[i]}`));
    return s;
  };
  const sections = new Map<number, ChunkSection>();
  for (const y of [...present].sort((a, b) => a - b)) {
    const palette: string[] = [];
    const lookup = new Map<string, number>();
    const indices = new Uint16Array(4096);
    for (let k = 0; k < 4096; k++) {
      const i = (y << 12) | k;
      const flat = fixed(i, stateAt, ids, metas, entities);
      let state = upgraded.get(flat);
      if (state === undefined) upgraded.set(flat, (state = upgrade(flat, FLATTENED_DATA_VERSION)));
      let p = lookup.get(state);
      if (p === undefined) lookup.set(state, (p = palette.push(state) - 1));
      indices[k] = p;
    }
    sections.set(y, new ChunkSection(y, palette, palette.length === 1 ? null : indices, new Map()));
  }
  return sections;
}

function withProps(state: string, change: (props: Map<string, string>) => void, id?: string): string {
  const parsed = parseStateSyntax(state);
  if (!parsed.ok) return state;
  const props = new Map(parsed.value.properties);
  change(props);
  return formatState(id ?? parsed.value.id, Object.fromEntries(props));
}

/** The flattened state at chunk index `i` (y·256 + z·16 + x), with the fixes its neighbours and block entity call for. */
function fixed(i: number, stateAt: (i: number) => string, ids: Uint16Array, metas: Uint8Array, entities: ReadonlyMap<number, NbtCompound>): string {
  const id = ids[i]!,
    meta = metas[i]!;
  const state = stateAt(i);
  const above = i + 256 < 65536 ? i + 256 : -1,
    below = i >= 256 ? i - 256 : -1;
  const te = entities.get(i);
  switch (id) {
    case 2:
    case 3:
    case 110: // grass, podzol (dirt:2), mycelium under snow
      if (above >= 0 && (ids[above] === 78 || ids[above] === 80) && /snowy=/.test(state)) return withProps(state, (p) => p.set("snowy", "true"));
      return state;
    case 64:
    case 71:
    case 193:
    case 194:
    case 195:
    case 196:
    case 197: {
      // doors: each half holds half of the state
      const upper = (meta & 8) !== 0;
      const other = upper ? below : above;
      if (other < 0 || ids[other] !== id) return state;
      const o = parseStateSyntax(stateAt(other));
      if (!o.ok) return state;
      const theirs = new Map(o.value.properties);
      const take = upper ? ["facing", "open"] : ["hinge", "powered"];
      return withProps(state, (p) => take.forEach((k) => theirs.has(k) && p.set(k, theirs.get(k)!)));
    }
    case 175: {
      // tall plants: the upper half's kind is its lower half's
      if ((meta & 8) === 0 || below < 0 || ids[below] !== 175) return state;
      const lower = parseStateSyntax(stateAt(below));
      return lower.ok ? formatState(lower.value.id, { half: "upper" }) : state;
    }
    case 26: {
      // beds: the colour is the block entity's
      const color = int(te?.v.get("color"));
      return color === undefined ? state : withProps(state, () => {}, `minecraft:${DYES[color & 15]}_bed`);
    }
    case 176:
    case 177: {
      // banners: Base is a dye damage value (15 = white)
      const base = int(te?.v.get("Base"));
      if (base === undefined) return state;
      return withProps(state, () => {}, `minecraft:${DYES[15 - (base & 15)]}_${id === 176 ? "banner" : "wall_banner"}`);
    }
    case 144: {
      // skulls: type and rotation are the block entity's; metadata 1 is the floor
      const type = int(te?.v.get("SkullType")) ?? 0;
      if (meta === 1) return formatState(`minecraft:${SKULLS[type] ?? SKULLS[0]}`, { rotation: String((int(te?.v.get("Rot")) ?? 0) & 15) });
      const facing = { 2: "north", 3: "south", 4: "west", 5: "east" }[meta as 2] ?? "north";
      return formatState(`minecraft:${WALL_SKULLS[type] ?? WALL_SKULLS[0]}`, { facing });
    }
    case 140: {
      // flower pots: the plant is the block entity's
      const item = str(te?.v.get("Item")) ?? (int(te?.v.get("Item")) === undefined ? undefined : "");
      const potted = item === undefined ? undefined : POTTED[`${item}:${int(te?.v.get("Data")) ?? 0}`];
      return potted === undefined ? state : `minecraft:${potted}`;
    }
    case 25: {
      // note blocks: the note is the block entity's
      const note = int(te?.v.get("note"));
      return note === undefined ? state : withProps(state, (p) => p.set("note", String(Math.min(24, Math.max(0, note)))));
    }
    default:
      return state;
  }
}
