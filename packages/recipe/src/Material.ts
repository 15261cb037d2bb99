/**
 * What a primitive writes at a world position: one state, or a weighted palette choice. Palette
 * choices depend only on (seed, palette name, world position), never on emission order, so the
 * same recipe yields the same plan whatever overlaps or repeats surround it.
 */
export type Material =
  | { readonly kind: "state"; readonly value: number }
  | {
      readonly kind: "palette";
      /** Encoded values (state index + 1) per choice. */
      readonly values: Uint32Array;
      /** Cumulative weights; the last is the total. */
      readonly cumulative: Uint32Array;
      readonly salt: number;
    };

/** 32-bit FNV-1a of a string, used to salt palettes by name. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Integer hash of a position with a salt (murmur3 finaliser rounds), reduced to 30 bits so it
 * stays a small integer in V8 (no heap numbers on the per-block path).
 */
export function positionHash(salt: number, x: number, y: number, z: number): number {
  return rowHash(salt, x, Math.imul(y, 0xc2b2ae35), Math.imul(z, 0x27d4eb2f));
}

/** `positionHash` with its y and z terms given (the same for a whole row). */
function rowHash(salt: number, x: number, yTerm: number, zTerm: number): number {
  let h = salt ^ Math.imul(x, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) ^ yTerm;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) ^ zTerm;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 2;
}

/** The palette choice a hash selects (by cumulative weight). */
function choose(cumulative: Uint32Array, values: Uint32Array, hash: number): number {
  const r = hash % cumulative[cumulative.length - 1]!;
  let i = 0;
  while (cumulative[i]! <= r) i++;
  return values[i]!;
}

export function pick(material: Material, x: number, y: number, z: number): number {
  if (material.kind === "state") return material.value;
  return choose(material.cumulative, material.values, positionHash(material.salt, x, y, z));
}

/**
 * `shift + pick(material, x, y, z)` for x = x0..x1 of one row into out[0 …]: the same values,
 * with the row's y and z terms computed once.
 */
export function pickRow(material: Material, x0: number, x1: number, y: number, z: number, shift: number, out: Uint32Array): void {
  if (material.kind === "state") {
    out.fill(shift + material.value, 0, x1 - x0 + 1);
    return;
  }
  const { salt, cumulative, values } = material;
  const yTerm = Math.imul(y, 0xc2b2ae35),
    zTerm = Math.imul(z, 0x27d4eb2f);
  for (let x = x0, o = 0; x <= x1; x++, o++) out[o] = shift + choose(cumulative, values, rowHash(salt, x, yTerm, zTerm));
}
