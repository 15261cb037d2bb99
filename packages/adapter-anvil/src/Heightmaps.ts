import { isAir, blockIdOf, type BlockShapes } from "@mcb/blocks";
import { nbt, TAG, type NbtCompound } from "@mcb/nbt";
import { type Chunk } from "./Chunk.js";
import { pack } from "./PackedArray.js";

const SOLID = 1,
  FLUID = 2,
  LEAVES = 4,
  FILLED = 8;

/** What a heightmap asks of a state: the registry's `blockShapes` facts. */
export type HeightmapFacts = Pick<BlockShapes, "blocksMotion" | "fluid">;

/**
 * The four heightmaps a full chunk stores, recomputed for a chunk we wrote (the game trusts stored
 * heightmaps: rain, snow, spawning and the client's chunk data read them). Heights are the first
 * free block above the column's top, − minY, 0 for an empty column, packed in ⌈log2(height + 1)⌉
 * bits. Which states count are the game's `Heightmap.Types` predicates: WORLD_SURFACE every
 * non-air block; OCEAN_FLOOR those that block motion; MOTION_BLOCKING those and every state holding
 * a fluid (water, lava, waterlogged, kelp …); MOTION_BLOCKING_NO_LEAVES the same without leaves
 * (the registry's per-state `blocksMotion` and fluid facts; an unknown state counts as solid).
 * Checked against every full chunk of the game-written regions the tests use: zero differences
 * (HeightmapOracle.test.ts).
 */
export class Heightmaps {
  private readonly cache = new Map<string, number>();

  constructor(private readonly shapes: HeightmapFacts) {}

  private flags(state: string): number {
    let f = this.cache.get(state);
    if (f !== undefined) return f;
    const id = blockIdOf(state);
    f = 0;
    if (!isAir(id)) {
      f |= FILLED;
      if (this.shapes.blocksMotion(state)) f |= SOLID;
      if (this.shapes.fluid(state)) f |= FLUID;
      if (id.endsWith("_leaves")) f |= LEAVES;
    }
    this.cache.set(state, f);
    return f;
  }

  compute(chunk: Chunk): NbtCompound {
    const height = chunk.sectionCount * 16;
    const bits = Math.ceil(Math.log2(height + 1));
    const surface = new Uint16Array(256),
      motion = new Uint16Array(256),
      noLeaves = new Uint16Array(256),
      floor = new Uint16Array(256);
    // Top section first, each with its palette's flags (once per section, not per column).
    const sections = [...chunk.sections.values()].sort((a, b) => b.y - a.y).map((s) => ({ s, pf: s.palette.map((p) => this.flags(p)) }));
    for (let col = 0; col < 256; col++) {
      let todo = 4;
      for (const { s, pf } of sections) {
        if (todo === 0) break;
        const sy = s.y;
        if (s.indices === null && pf[0] === 0) continue;
        for (let ly = 15; ly >= 0 && todo > 0; ly--) {
          const f = pf[s.indices === null ? 0 : s.indices[(ly << 8) | col]!]!;
          if (f === 0) continue;
          const h = sy * 16 + ly - chunk.minSection * 16 + 1;
          if (surface[col] === 0) ((surface[col] = h), todo--);
          if (motion[col] === 0 && (f & (SOLID | FLUID)) !== 0) ((motion[col] = h), todo--);
          if (noLeaves[col] === 0 && (f & (SOLID | FLUID)) !== 0 && (f & LEAVES) === 0) ((noLeaves[col] = h), todo--);
          if (floor[col] === 0 && (f & SOLID) !== 0) ((floor[col] = h), todo--);
        }
      }
    }
    return nbt.compound([
      ["MOTION_BLOCKING", { t: TAG.LongArray, v: pack(motion, bits) }],
      ["MOTION_BLOCKING_NO_LEAVES", { t: TAG.LongArray, v: pack(noLeaves, bits) }],
      ["OCEAN_FLOOR", { t: TAG.LongArray, v: pack(floor, bits) }],
      ["WORLD_SURFACE", { t: TAG.LongArray, v: pack(surface, bits) }],
    ]);
  }
}
