import type { Chunk } from "./Chunk.js";

/** Which chunk versions a codec reads and writes, and what a decode yields (shared by both chunk layouts' codecs). */
export interface ChunkVersions {
  /** The registry's DataVersion: older chunks are read upgraded, and never written. */
  readonly dataVersion: number;
  /** Newest DataVersion with the same blocks (the registry's release and its patch releases): newer chunks are read as they are, and never written. */
  readonly maxDataVersion: number;
  /**
   * A palette state in canonical form (every property, defaults filled in: writers may leave out
   * default values, as Minestom does, and the game fills them in). Absent: as written.
   */
  readonly canonical?: (state: string) => string;
}

export interface DecodedChunk {
  readonly chunk: Chunk;
  /** `Status` is `minecraft:full`: the game finished generating it (only such chunks are read and written). */
  readonly full: boolean;
}

/** The sections a world's chunks span: from `minSection`, `sectionCount` of them (the dimension type's height). */
export interface ChunkHeight {
  readonly minSection: number;
  readonly sectionCount: number;
}
