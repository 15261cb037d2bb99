/**
 * Seeded 2-D value noise from integer hashing and smoothstep interpolation: only integer and
 * IEEE-exact arithmetic, so the same seed gives the same heights on every machine.
 */
function hash(ix: number, iz: number, seed: number): number {
  let h = Math.imul(ix | 0, 0x27d4eb2d) ^ Math.imul(iz | 0, 0x165667b1) ^ Math.imul(seed | 0, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296; // [0, 1)
}

function smooth(t: number): number {
  return t * t * (3 - 2 * t);
}

/** One octave in [−1, 1). */
export function valueNoise(x: number, z: number, scale: number, seed: number): number {
  const fx = x / scale,
    fz = z / scale;
  const ix = Math.floor(fx),
    iz = Math.floor(fz);
  const tx = smooth(fx - ix),
    tz = smooth(fz - iz);
  const a = hash(ix, iz, seed),
    b = hash(ix + 1, iz, seed),
    c = hash(ix, iz + 1, seed),
    d = hash(ix + 1, iz + 1, seed);
  const top = a + (b - a) * tx,
    bottom = c + (d - c) * tx;
  return (top + (bottom - top) * tz) * 2 - 1;
}

/** Octaves: each halves the scale and the amplitude; normalized back to [−1, 1). */
export function fractalNoise(x: number, z: number, scale: number, octaves: number, seed: number): number {
  let sum = 0,
    norm = 0,
    amp = 1,
    s = scale;
  for (let o = 0; o < octaves; o++) {
    sum += amp * valueNoise(x, z, s, seed + o * 7919);
    norm += amp;
    amp /= 2;
    s = Math.max(1, s / 2);
  }
  return sum / norm;
}
