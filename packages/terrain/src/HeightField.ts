import { fractalNoise } from "./ValueNoise.js";
import type { TerrainFeature, TerrainRecipe } from "./TerrainSchema.js";

/** Surface heights of a column rectangle, x fastest then z. */
export interface HeightField {
  readonly minX: number;
  readonly minZ: number;
  readonly width: number;
  readonly length: number;
  readonly heights: Int16Array;
}

export interface HeightStats {
  readonly min: number;
  readonly max: number;
  readonly mean: number;
}

/** (1 − u²)² for u < 1: a smooth bump with zero slope at both ends (polynomial, exact). */
function bump(u: number): number {
  if (u >= 1) return 0;
  const v = 1 - u * u;
  return v * v;
}

/** Euclidean distance with the correctly rounded square root (Math.hypot is not specified exactly). */
function dist(dx: number, dz: number): number {
  return Math.sqrt(dx * dx + dz * dz);
}

function smoothstep(e0: number, e1: number, x: number): number {
  if (e1 <= e0) return x < e0 ? 0 : 1;
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
}

/** Distance from (x, z) to a segment and the position along it (0..1). */
function segment(x: number, z: number, a: { x: number; z: number }, b: { x: number; z: number }): [number, number] {
  const dx = b.x - a.x,
    dz = b.z - a.z;
  const len2 = dx * dx + dz * dz;
  const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, ((x - a.x) * dx + (z - a.z) * dz) / len2));
  const px = a.x + t * dx,
    pz = a.z + t * dz;
  return [Math.sqrt((x - px) * (x - px) + (z - pz) * (z - pz)), t];
}

function applyFeature(f: TerrainFeature, x: number, z: number, h: number, base: number, seed: number): number {
  switch (f.type) {
    case "hill":
      return h + f.height * bump(dist(x - f.center.x, z - f.center.z) / f.radius);
    case "basin":
      return h - f.depth * bump(dist(x - f.center.x, z - f.center.z) / f.radius);
    case "ridge": {
      const [d, t] = segment(x, z, f.from, f.to);
      const top = f.height + ((f.height_end ?? f.height) - f.height) * t;
      return h + top * bump(d / f.width);
    }
    case "channel": {
      const [d] = segment(x, z, f.from, f.to);
      return h - f.depth * bump(d / f.width);
    }
    case "plateau": {
      const edge = f.edge ?? f.radius / 4;
      const d = dist(x - f.center.x, z - f.center.z);
      const mask = 1 - smoothstep(f.radius - edge, f.radius, d);
      return h + (base + f.height - h) * mask;
    }
    case "noise":
      return h + f.amplitude * fractalNoise(x, z, f.scale, f.octaves ?? 1, f.seed ?? seed);
    case "terrace": {
      const sharp = f.sharpness ?? 0.7;
      const q = Math.floor(h / f.step) * f.step;
      const frac = (h - q) / f.step;
      // Steps: most of each interval flattens; the rise is compressed into the remainder.
      const shaped = frac < sharp ? 0 : (frac - sharp) / (1 - sharp || 1);
      return q + f.step * (sharp >= 1 ? 0 : shaped);
    }
  }
}

/**
 * Evaluates a validated recipe: base, then each feature in order, rounded half up and clamped to
 * the build height (−63..319, one block of floor kept). Deterministic (no transcendental functions
 * beyond the IEEE-exact square root).
 */
export function evaluateHeightField(recipe: TerrainRecipe): HeightField {
  const { min, max } = recipe.area;
  const width = max.x - min.x + 1,
    length = max.z - min.z + 1;
  const heights = new Int16Array(width * length);
  const seed = recipe.seed ?? 0;
  let i = 0;
  for (let z = min.z; z <= max.z; z++) {
    for (let x = min.x; x <= max.x; x++, i++) {
      let h = recipe.base;
      for (const f of recipe.features) h = applyFeature(f, x, z, h, recipe.base, seed);
      heights[i] = Math.min(319, Math.max(-63, Math.floor(h + 0.5)));
    }
  }
  return { minX: min.x, minZ: min.z, width, length, heights };
}

export function heightStats(field: HeightField): HeightStats {
  let lo = Infinity,
    hi = -Infinity,
    sum = 0;
  for (const h of field.heights) {
    if (h < lo) lo = h;
    if (h > hi) hi = h;
    sum += h;
  }
  return { min: lo, max: hi, mean: Math.round((sum / field.heights.length) * 100) / 100 };
}

export function heightAt(field: HeightField, x: number, z: number): number {
  return field.heights[x - field.minX + (z - field.minZ) * field.width]!;
}
