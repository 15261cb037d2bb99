import type { NbtCompound } from "@mcb/nbt";
import type { PaletteIndices } from "../Schematic.js";

/** The formats recognised by content (never by file name). */
export type SchematicFormat = "sponge_v1" | "sponge_v2" | "sponge_v3" | "litematic" | "structure";

/**
 * What a format reader hands to the common finishing step: the raw palette as written (upgraded
 * and validated afterwards), block indices in y, z, x order, and the raw block entities; what a
 * schematic cannot carry into the world (entities, biomes, unknown fields) is counted, not kept.
 */
export interface Decoded {
  readonly format: SchematicFormat;
  readonly width: number;
  readonly height: number;
  readonly length: number;
  readonly offset: { readonly x: number; readonly y: number; readonly z: number };
  /** Null: the format has none (Sponge v1); the finishing step assumes 1.13.2. */
  readonly dataVersion: number | null;
  readonly palette: readonly string[];
  /** One byte per position when the file has it so (a palette of ≤ 128: a view of the file's bytes), else decoded indices. */
  readonly blocks: PaletteIndices;
  /** When set, indices are unchecked (one byte each, as in the file): each must be below this. */
  readonly indexLimit?: number;
  /** Where the block data is, for an error about an index. */
  readonly blocksPath?: string;
  readonly blockEntities: readonly RawBlockEntity[];
  /** Entity count by type id. */
  readonly entities: ReadonlyMap<string, number>;
  /** Biome palette and the number of biome cells, or null. */
  readonly biomes: { readonly palette: readonly string[]; readonly cells: number } | null;
  /** Top-level fields the reader did not understand (their data would be lost). */
  readonly unknownFields: readonly string[];
  readonly name?: string;
  /** What the reader tolerated in the file, one sentence each (a wrong PaletteMax, an empty palette read as air …). */
  readonly notes?: readonly string[];
}

export interface RawBlockEntity {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly id: string;
  /** The data compound, position and id keys removed. */
  readonly data: NbtCompound;
  /** Where in the file (for errors). */
  readonly path: string;
}
