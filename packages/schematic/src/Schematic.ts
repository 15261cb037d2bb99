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
  readonly blocks: Uint32Array;
  /** Block entities sorted by (y, z, x), at most one per position, each at a block-entity block. */
  readonly blockEntities: readonly SchematicBlockEntity[];
  /** `Metadata.Name`, when present. */
  readonly name?: string;
}

export const AIR = "minecraft:air";

export function volumeOf(s: Pick<Schematic, "width" | "height" | "length">): number {
  return s.width * s.height * s.length;
}

/** Number of non-air positions (any of the three air blocks counts as air). */
export function solidCount(s: Schematic): number {
  const air = s.palette.map((p) => p === AIR || p === "minecraft:cave_air" || p === "minecraft:void_air");
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
  const palette: string[] = [];
  const byState = new Map<string, number>();
  let pending = s.palette.length;
  for (let i = 0; i < s.blocks.length && pending > 0; i++) {
    const p = s.blocks[i]!;
    if (remap[p]! >= 0) continue;
    const state = s.palette[p]!;
    let q = byState.get(state);
    if (q === undefined) {
      q = palette.length;
      palette.push(state);
      byState.set(state, q);
    }
    remap[p] = q;
    pending--;
  }
  return { palette, remap };
}

/**
 * The canonical form of a schematic value: palette ordered by first use in block order, unused
 * entries dropped. Two schematics with the same content have the same canonical form and bytes.
 */
export function canonicalSchematic(s: Schematic): Schematic {
  return canonicalize(s, new Uint32Array(s.blocks.length));
}

/** `canonicalSchematic` reusing `s.blocks` (a reader's own, freshly decoded array). */
export function canonicalInPlace(s: Schematic): Schematic {
  return canonicalize(s, s.blocks);
}

/** One pass: each position's index renumbered in order of first use, equal strings merged. */
function canonicalize(s: Schematic, out: Uint32Array): Schematic {
  const remap = new Int32Array(s.palette.length).fill(-1);
  const palette: string[] = [];
  const byState = new Map<string, number>();
  const src = s.blocks;
  for (let i = 0; i < src.length; i++) {
    const p = src[i]!;
    let q = remap[p]!;
    if (q < 0) {
      const state = s.palette[p]!;
      q = byState.get(state) ?? -1;
      if (q < 0) {
        q = palette.length;
        palette.push(state);
        byState.set(state, q);
      }
      remap[p] = q;
    }
    out[i] = q;
  }
  return { ...s, palette, blocks: out };
}
