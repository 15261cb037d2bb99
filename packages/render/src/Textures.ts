/**
 * Procedural per-face textures (no game assets): a brightness factor per 1/16 texel so planks,
 * bricks, stone bricks, cobblestone, logs, leaves and glass read as such in a capture. Integer
 * hashes only, so every image is the same bytes on every machine.
 */
export const Texture = Object.freeze({
  flat: 0,
  noise: 1,
  planks: 2,
  bricks: 3,
  stoneBricks: 4,
  logY: 5,
  cobble: 6,
  wool: 7,
  glass: 8,
  leaves: 9,
  smooth: 10,
  logX: 11,
  logZ: 12,
  /** Speckled like `noise`; side faces show the top colour in their upper texels (grass, mycelium, podzol). */
  grassy: 13,
});

/** Whether texel (tu, tv) of a side face of a `grassy` block shows the top colour (a ragged strip). */
export function grassyEdge(tu: number, tv: number): boolean {
  return tv >= 13 || (tv === 12 && (hash(tu, 5, 9) & 3) !== 0) || (tv === 11 && (hash(tu, 6, 9) & 7) === 0);
}

function hash(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (b + 0x632be5ab), 0xc2b2ae35);
  h = Math.imul(h ^ (c + 0x1b873593) ^ (h >>> 15), 0x27d4eb2f);
  return (h ^ (h >>> 13)) & 255;
}

/** Texel coordinates (0..15) along a log's rings (cross-section) or bark (sides). */
function logFactor(axis: number, face: number, tu: number, tv: number): number {
  if (face === axis) {
    const d = Math.max(Math.abs(tu - 7.5), Math.abs(tv - 7.5));
    return d > 6.5 ? 0.72 : (Math.floor(d) & 1) === 1 ? 0.9 : 1.02;
  }
  // Bark stripes run along the axis: the texel across it picks the stripe.
  const across = face === 1 ? (axis === 0 ? tv : tu) : axis === 1 ? tu : tv;
  return 0.8 + (hash(across, 7, 3) & 63) / 256 + ((hash(across, tu ^ tv, 5) & 15) === 0 ? -0.1 : 0);
}

/**
 * The brightness factor of `kind` at texel (tu, tv) of a face (axis 0 x, 1 y, 2 z) of the block at
 * (x, y, z); 1 = the block's colour. `tv` grows upwards on side faces.
 */
export function texelFactor(kind: number, face: number, tu: number, tv: number, x: number, y: number, z: number): number {
  switch (kind) {
    case Texture.noise:
    case Texture.grassy:
      return 0.9 + hash(tu + (x << 4), tv + (z << 4), y * 3 + face) / 1280;
    case Texture.wool:
      return 0.95 + hash(tu, tv, face) / 2560;
    case Texture.smooth:
      return 0.98 + hash(tu, tv, face) / 6400;
    case Texture.planks: {
      const row = tv >> 2;
      if ((tv & 3) === 0) return 0.72;
      if (face !== 1 && (row & 1) === 1 && tu === ((row * 7 + 3 + ((x + y + z) & 1) * 5) & 15)) return 0.8;
      return 0.94 + hash(tu >> 2, row, 11) / 2560 + ((hash(tu, row, 1) & 7) === 0 ? -0.05 : 0);
    }
    case Texture.bricks: {
      const row = tv >> 2;
      if ((tv & 3) === 0 || ((tu + (row & 1) * 4) & 7) === 0) return 1.28;
      return 0.9 + hash((tu + (row & 1) * 4) >> 3, row, x * 31 + y * 17 + z) / 1280;
    }
    case Texture.stoneBricks: {
      const row = tv >> 3;
      if ((tv & 7) === 0 || ((tu + (row & 1) * 8) & 15) === 0) return 0.7;
      return 0.93 + hash(tu, tv, 2) / 1800;
    }
    case Texture.cobble: {
      const cu = (tu + ((tv >> 2) & 1) * 2) >> 2,
        cv = tv >> 2;
      const edge = ((tu + ((tv >> 2) & 1) * 2) & 3) === 0 || (tv & 3) === 0;
      return edge ? 0.68 : 0.82 + hash(cu + x * 5, cv + z * 7, y) / 850;
    }
    case Texture.leaves: {
      const h = hash(tu + (x << 4), tv + (y << 4), z + face * 101);
      return h < 48 ? 0.55 : 0.82 + h / 900;
    }
    case Texture.glass:
      return tu === 0 || tu === 15 || tv === 0 || tv === 15 ? 1.25 : (tu + tv === 11 || tu + tv === 13) && tu > 2 && tu < 9 ? 1.15 : 1;
    case Texture.logY:
      return logFactor(1, face, tu, tv);
    case Texture.logX:
      return logFactor(0, face, tu, tv);
    case Texture.logZ:
      return logFactor(2, face, tu, tv);
    default:
      return 1;
  }
}
