/** Boundaries of the schematic codecs (BRIDGE-README "Local schematics"), enforced on every read. */
export interface SchematicLimits {
  /** Positions (width × height × length), air included. */
  readonly maxPositions: number;
  /** Gzip file size in bytes. */
  readonly maxCompressedBytes: number;
  /** Decompressed NBT size in bytes. */
  readonly maxNbtBytes: number;
  /** Distinct palette entries. */
  readonly maxPaletteEntries: number;
}

export const DEFAULT_SCHEMATIC_LIMITS: SchematicLimits = Object.freeze({
  maxPositions: 4096,
  maxCompressedBytes: 1024 * 1024,
  maxNbtBytes: 4 * 1024 * 1024,
  maxPaletteEntries: 4096,
});
