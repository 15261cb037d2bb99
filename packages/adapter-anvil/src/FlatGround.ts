import { TAG, nbt, type NbtValue } from "@mcb/nbt";
import { AIR, Chunk, ChunkSection } from "./Chunk.js";
import { COMPRESSION } from "./RegionFile.js";
import { FLAT_LAYERS } from "./SaveFolder.js";

export const MIN_SECTION = -4;
export const SECTION_COUNT = 24;
const MIN_Y = MIN_SECTION * 16;

/** The (canonical) state of the flat ground at height y (bedrock −64, stone to 59, dirt 60–62, grass 63, air above). */
export function flatStateAt(y: number): string {
  let top = MIN_Y;
  for (const l of FLAT_LAYERS) {
    top += l.height;
    if (y < top) return y < MIN_Y ? AIR : l.state;
  }
  return AIR;
}

/**
 * A new full chunk of mcb's own world: the flat ground in every column, every section present
 * (plains biome), the tags a full chunk carries (Status full, empty ticks and structures). Only
 * written when something is built in it; reads of a missing chunk see the same ground unwritten.
 */
export function flatChunk(x: number, z: number, dataVersion: number): Chunk {
  const sections = new Map<number, ChunkSection>();
  const biomes = nbt.compound([["palette", nbt.list(TAG.String, [nbt.string("minecraft:plains")])]]);
  for (let sy = MIN_SECTION; sy < MIN_SECTION + SECTION_COUNT; sy++) {
    const palette: string[] = [];
    const layers: number[] = [];
    for (let ly = 0; ly < 16; ly++) {
      const s = flatStateAt(sy * 16 + ly);
      let p = palette.indexOf(s);
      if (p < 0) p = palette.push(s) - 1;
      layers.push(p);
    }
    // A section of one state (most of them: air above, stone below) has no indices at all.
    let indices: Uint16Array | null = null;
    if (palette.length > 1) {
      indices = new Uint16Array(4096);
      for (let ly = 0; ly < 16; ly++) indices.fill(layers[ly]!, ly << 8, (ly + 1) << 8);
    }
    sections.set(
      sy,
      new ChunkSection(
        sy,
        palette,
        indices,
        new Map<string, NbtValue>([
          ["Y", nbt.byte(sy)],
          ["biomes", biomes],
        ]),
      ),
    );
  }
  const root = new Map<string, NbtValue>([
    ["DataVersion", nbt.int(dataVersion)],
    ["xPos", nbt.int(x)],
    ["yPos", nbt.int(MIN_SECTION)],
    ["zPos", nbt.int(z)],
    ["Status", nbt.string("minecraft:full")],
    ["LastUpdate", nbt.long(0n)],
    ["InhabitedTime", nbt.long(0n)],
    ["isLightOn", nbt.byte(0)],
    ["sections", nbt.list(TAG.Compound, [])],
    ["block_entities", nbt.list(TAG.Compound, [])],
    ["block_ticks", nbt.list(TAG.Compound, [])],
    ["fluid_ticks", nbt.list(TAG.Compound, [])],
    ["PostProcessing", nbt.list(TAG.List, [])],
    [
      "structures",
      nbt.compound([
        ["References", nbt.compound([])],
        ["starts", nbt.compound([])],
      ]),
    ],
  ]);
  const chunk = new Chunk(x, z, dataVersion, root, sections, new Map(), COMPRESSION.zlib, MIN_SECTION, SECTION_COUNT);
  // Everything is new: every section and the heightmaps are encoded when it is first written.
  for (const sy of sections.keys()) chunk.dirtySections.add(sy);
  chunk.entitiesDirty = true;
  return chunk;
}
