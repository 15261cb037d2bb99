import { compactPalette } from "@mcb/adapter-kit";
import type { NbtCompound, NbtValue } from "@mcb/nbt";
import type { Compression } from "./RegionFile.js";

export const AIR = "minecraft:air";

/** One 16³ section: palette of canonical states and one index per block (null: every block is palette[0]). */
export class ChunkSection {
  private lookup: Map<string, number> | null = null;

  constructor(
    readonly y: number,
    public palette: string[],
    public indices: Uint16Array | null,
    /** The section compound's other tags (biomes, light, anything a server added), kept as they were. */
    readonly rest: Map<string, NbtValue>,
  ) {}

  get(i: number): string {
    return this.palette[this.indices === null ? 0 : this.indices[i]!]!;
  }

  set(i: number, state: string): void {
    if (this.lookup === null) this.lookup = new Map(this.palette.map((s, k) => [s, k]));
    let p = this.lookup.get(state);
    if (p === undefined) {
      if (this.palette.length >= 4096) this.compact();
      p = this.lookup.get(state);
      if (p === undefined) {
        p = this.palette.length;
        this.palette.push(state);
        this.lookup.set(state, p);
      }
    }
    if (this.indices === null) {
      if (p === 0) return;
      this.indices = new Uint16Array(4096);
    }
    this.indices[i] = p;
  }

  /** Drops palette entries no block uses (the form written to disk). */
  compact(): void {
    if (this.indices === null) {
      this.palette = [this.palette[0]!];
      this.lookup = null;
      return;
    }
    const kept = compactPalette(this.palette, this.indices, false);
    this.palette = kept;
    if (kept.length === 1) this.indices = null;
    this.lookup = null;
  }
}

/**
 * A decoded chunk (the 1.18+ layout): sections by Y, block entities by position, and every other
 * tag of the chunk as it was read, so writing it back loses nothing a server or the game stored.
 */
export class Chunk {
  /** Sections changed since the chunk was read or last written (their block_states are re-encoded). */
  readonly dirtySections = new Set<number>();
  entitiesDirty = false;
  /** The chunk must be written (blocks changed, or only its light flag). */
  dirty = false;

  constructor(
    readonly x: number,
    readonly z: number,
    public dataVersion: number,
    readonly root: Map<string, NbtValue>,
    readonly sections: Map<number, ChunkSection>,
    /** Block entities by `blockKey`, each the full compound (id, x, y, z, data). */
    readonly entities: Map<number, NbtCompound>,
    public compression: Compression,
    /** The lowest section Y of the chunk (yPos). */
    readonly minSection: number,
    /** Sections are numbered minSection..minSection + sectionCount - 1. */
    readonly sectionCount: number,
  ) {}

  /** Key of a block inside the chunk: (y − minY) · 256 + z · 16 + x, local x and z. */
  blockKey(x: number, y: number, z: number): number {
    return ((y - this.minSection * 16) << 8) | ((z & 15) << 4) | (x & 15);
  }

  get(x: number, y: number, z: number): string {
    const s = this.sections.get(y >> 4);
    return s === undefined ? AIR : s.get(((y & 15) << 8) | ((z & 15) << 4) | (x & 15));
  }

  /** Sets a state (the section must exist: every full chunk has its sections). */
  set(x: number, y: number, z: number, state: string): void {
    const sy = y >> 4;
    let s = this.sections.get(sy);
    if (s === undefined) {
      const biomes = [...this.sections.values()].find((o) => o.rest.has("biomes"))?.rest.get("biomes");
      s = new ChunkSection(sy, [AIR], null, new Map(biomes === undefined ? [] : [["biomes", biomes]]));
      this.sections.set(sy, s);
    }
    s.set(((y & 15) << 8) | ((z & 15) << 4) | (x & 15), state);
    this.dirtySections.add(sy);
    this.dirty = true;
  }
}
