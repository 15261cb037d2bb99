import { isAir, Interner } from "@mcb/blocks";

/**
 * One block entity of a schematic: its local position (as `blocks`, from the schematic's min
 * corner), type id, and data as canonical NBT (`canonicalNbt`: the compound without position and
 * id, keys sorted), whose SHA-256 is the digest the engine and worlds compare.
 */
export interface SchematicBlockEntity {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly id: string;
  readonly data: Uint8Array;
}

/** A dense block volume: the value every codec reads and writes. */
export interface Schematic {
  readonly width: number;
  readonly height: number;
  readonly length: number;
  /** Paste offset: block (0,0,0) lands at anchor + offset (Sponge `Offset`, WorldEdit `WEOffset`). */
  readonly offset: { readonly x: number; readonly y: number; readonly z: number };
  readonly dataVersion: number;
  /** Canonical block states referenced by `blocks`. */
  readonly palette: readonly string[];
  /** One palette index per position, x fastest, then z, then y (Sponge order = engine read order). */
  readonly blocks: PaletteIndices;
  /** Block entities sorted by (y, z, x), at most one per position, each at a block-entity block. */
  readonly blockEntities: readonly SchematicBlockEntity[];
  /** `Metadata.Name`, when present. */
  readonly name?: string;
}

/** Palette indices: readers use the smallest array the palette fits (8, 16 or 32 bits). */
export type PaletteIndices = Uint8Array | Uint16Array | Uint32Array;

/** A zeroed index array of `length` for a palette of `paletteSize` entries. */
export function indexArray(paletteSize: number, length: number): PaletteIndices {
  return paletteSize <= 0x100 ? new Uint8Array(length) : paletteSize <= 0x10000 ? new Uint16Array(length) : new Uint32Array(length);
}

export const AIR = "minecraft:air";

export function volumeOf(s: Pick<Schematic, "width" | "height" | "length">): number {
  return s.width * s.height * s.length;
}

/** Number of non-air positions (any of the three air blocks counts as air). */
export function solidCount(s: Schematic): number {
  const air = s.palette.map(isAir);
  let n = 0;
  for (let i = 0; i < s.blocks.length; i++) if (!air[s.blocks[i]!]) n++;
  return n;
}

/**
 * Palette in order of first use in block order, with duplicate strings merged and unused entries
 * dropped; `remap[i]` is the new index of old entry i (−1 when unused).
 */
export function firstUseOrder(s: Pick<Schematic, "palette" | "blocks">): { palette: string[]; remap: Int32Array } {
  const remap = new Int32Array(s.palette.length).fill(-1);
  const palette = new Interner();
  let pending = s.palette.length;
  for (let i = 0; i < s.blocks.length && pending > 0; i++) {
    const p = s.blocks[i]!;
    if (remap[p]! >= 0) continue;
    remap[p] = palette.id(s.palette[p]!);
    pending--;
  }
  return { palette: palette.values, remap };
}

/**
 * The canonical form of a schematic value: palette ordered by first use in block order, unused
 * entries dropped. Two schematics with the same content have the same canonical form and bytes.
 */
export function canonicalSchematic(s: Schematic): Schematic {
  return canonicalize(s, indexArray(s.palette.length, s.blocks.length));
}

/**
 * `canonicalSchematic` of a reader's freshly decoded indices (which may be a view into the file's
 * bytes: never kept, always renumbered into an array of their own of the smallest fitting kind).
 */
export function canonicalInPlace(s: Schematic, limit?: number): Schematic | { readonly outOfRange: number; readonly at: number } {
  // The reader's own array (no limit: already checked) is renumbered in place when its kind fits.
  const fresh = indexArray(s.palette.length, 0);
  const out = limit === undefined && s.blocks.constructor === fresh.constructor ? s.blocks : indexArray(s.palette.length, s.blocks.length);
  try {
    return canonicalize(s, out, limit ?? s.palette.length);
  } catch (e) {
    if (e instanceof OutOfRange) return { outOfRange: e.index, at: e.at };
    throw e;
  }
}

class OutOfRange extends Error {
  constructor(
    readonly index: number,
    readonly at: number,
  ) {
    super("palette index out of range");
  }
}

/**
 * One pass: each position's index renumbered in order of first use, equal strings merged. An
 * index ≥ `limit` throws OutOfRange (checked only on an index's first use: the slow path).
 */
function canonicalize(s: Schematic, out: PaletteIndices, limit = s.palette.length): Schematic {
  const remap = new Int32Array(s.palette.length).fill(-1);
  const palette = new Interner();
  const first = (p: number, at: number): number => {
    if (p >= limit || p >= s.palette.length) throw new OutOfRange(p, at);
    return (remap[p] = palette.id(s.palette[p]!));
  };
  const src = s.blocks;
  for (let i = 0; i < src.length; i++) {
    const p = src[i]!;
    const q = remap[p]!; // undefined past the palette: not ≥ 0, so `first` refuses it
    out[i] = q >= 0 ? q : first(p, i);
  }
  return { ...s, palette: palette.values, blocks: out };
}
