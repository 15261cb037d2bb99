import { fail, mcbError, ok, type Result } from "@mcb/blocks";

/**
 * Boundaries of the schematic codecs, enforced on every read before the part they bound is
 * allocated. Every one is configurable (CLI flags, the library's policy); the defaults fit what
 * real schematics need — WorldEdit and FAWE exports of houses, ships and spawn areas.
 */
export interface SchematicLimits {
  /** Positions (width × height × length), air included. */
  readonly maxPositions: number;
  /** Compressed file size in bytes. */
  readonly maxCompressedBytes: number;
  /** Decompressed NBT size in bytes (a gzip bomb stops here). */
  readonly maxNbtBytes: number;
  /** Distinct block palette entries. */
  readonly maxPaletteEntries: number;
  /** Block entities (chests, signs, …). */
  readonly maxBlockEntities: number;
}

export const DEFAULT_SCHEMATIC_LIMITS: SchematicLimits = Object.freeze({
  maxPositions: 20_000_000,
  maxCompressedBytes: 16 * 1024 * 1024,
  maxNbtBytes: 256 * 1024 * 1024,
  maxPaletteEntries: 65_536,
  maxBlockEntities: 1_000_000,
});

/** The most a caller may ask for (a server policy may set lower ones): bounded by memory, not taste. */
export const MAX_SCHEMATIC_LIMITS: SchematicLimits = Object.freeze({
  maxPositions: 100_000_000,
  maxCompressedBytes: 256 * 1024 * 1024,
  maxNbtBytes: 1024 * 1024 * 1024,
  maxPaletteEntries: 1_048_576,
  maxBlockEntities: 10_000_000,
});

/** What each limit bounds, for messages (front ends name the field their own way in `details`). */
const LIMIT_NAMES: Readonly<Record<keyof SchematicLimits, string>> = {
  maxPositions: "the position limit (width × height × length)",
  maxCompressedBytes: "the file size limit (bytes)",
  maxNbtBytes: "the decompressed NBT limit (bytes)",
  maxPaletteEntries: "the palette limit (entries)",
  maxBlockEntities: "the block entity limit",
};

/**
 * Limits with some fields changed, each a positive integer no higher than `ceiling` (default
 * `MAX_SCHEMATIC_LIMITS`). Errors: invalid_request, budget_exceeded over the ceiling; both carry
 * the limit in `details.field` (its key in `SchematicLimits`).
 */
export function schematicLimits(
  changes: Partial<Record<keyof SchematicLimits, unknown>>,
  base: SchematicLimits = DEFAULT_SCHEMATIC_LIMITS,
  ceiling: SchematicLimits = MAX_SCHEMATIC_LIMITS,
): Result<SchematicLimits> {
  const out: Record<string, number> = { ...base };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) continue;
    if (!(k in base))
      return fail(mcbError("invalid_request", `unknown schematic limit ${JSON.stringify(k.slice(0, 40))}`, { reason: "limit", field: k.slice(0, 40) }));
    const name = LIMIT_NAMES[k as keyof SchematicLimits];
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1)
      return fail(mcbError("invalid_request", `${name} must be a positive integer`, { reason: "limit", field: k }));
    const max = ceiling[k as keyof SchematicLimits];
    if (v > max) return fail(mcbError("budget_exceeded", `${name} may be at most ${max}`, { reason: "limit", field: k, limit: max }));
    out[k] = v;
  }
  return ok(out as unknown as SchematicLimits);
}
