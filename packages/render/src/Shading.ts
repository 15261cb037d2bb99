import { Look, LOOK_STRIDE, lookAt, type Scene } from "./Scene.js";
import { grassyEdge, texelFactor, Texture } from "./Textures.js";

/** Face shading, Minecraft-like: top 1.0, bottom 0.5, north/south 0.8, east/west 0.6. */
const SHADE_X = 0.6,
  SHADE_Z = 0.8,
  SHADE_TOP = 1.0,
  SHADE_BOTTOM = 0.5;
const EDGE_DISTANCE = 48,
  EDGE_WIDTH = 0.05,
  EDGE_SHADE = 0.86;
/** Textures fade out with distance (no shimmering texels far away); AO is drawn near the eye only. */
const TEXTURE_DISTANCE = 80,
  AO_DISTANCE = 64,
  AO_MIN = 0.62;

export interface ShadeOptions {
  /** Darken face corners next to other blocks (the game's smooth lighting look). */
  readonly ambientOcclusion: boolean;
}

function occludes(s: Scene, x: number, y: number, z: number): number {
  const li = lookAt(s, x, y, z);
  return li !== 0 && s.looks[li * LOOK_STRIDE + Look.occludes] === 1 ? 1 : 0;
}

/** The game's corner rule: two side neighbours hide the corner whatever the diagonal holds. */
function corner(a: number, b: number, c: number): number {
  return a + b === 2 ? 0 : 3 - a - b - c;
}

/**
 * The occluding neighbours of the last face whose ambient occlusion was computed: neighbouring
 * pixels mostly hit the same face, which then needs no block lookups.
 */
export class AoCache {
  x = 0;
  y = 0;
  z = 0;
  face = -1;
  /** Bits: a0 a1 b0 b1 c00 c10 c01 c11 (see `ambient`). */
  bits = 0;
}

/** The eight neighbours of the air voxel (nx, ny, nz) in the face's plane, as AoCache bits. */
function neighbours(s: Scene, face: number, nx: number, ny: number, nz: number): number {
  if (face === 0)
    // axes z, y
    return (
      occludes(s, nx, ny, nz - 1) |
      (occludes(s, nx, ny, nz + 1) << 1) |
      (occludes(s, nx, ny - 1, nz) << 2) |
      (occludes(s, nx, ny + 1, nz) << 3) |
      (occludes(s, nx, ny - 1, nz - 1) << 4) |
      (occludes(s, nx, ny - 1, nz + 1) << 5) |
      (occludes(s, nx, ny + 1, nz - 1) << 6) |
      (occludes(s, nx, ny + 1, nz + 1) << 7)
    );
  if (face === 1)
    // axes x, z
    return (
      occludes(s, nx - 1, ny, nz) |
      (occludes(s, nx + 1, ny, nz) << 1) |
      (occludes(s, nx, ny, nz - 1) << 2) |
      (occludes(s, nx, ny, nz + 1) << 3) |
      (occludes(s, nx - 1, ny, nz - 1) << 4) |
      (occludes(s, nx + 1, ny, nz - 1) << 5) |
      (occludes(s, nx - 1, ny, nz + 1) << 6) |
      (occludes(s, nx + 1, ny, nz + 1) << 7)
    );
  // axes x, y
  return (
    occludes(s, nx - 1, ny, nz) |
    (occludes(s, nx + 1, ny, nz) << 1) |
    (occludes(s, nx, ny - 1, nz) << 2) |
    (occludes(s, nx, ny + 1, nz) << 3) |
    (occludes(s, nx - 1, ny - 1, nz) << 4) |
    (occludes(s, nx + 1, ny - 1, nz) << 5) |
    (occludes(s, nx - 1, ny + 1, nz) << 6) |
    (occludes(s, nx + 1, ny + 1, nz) << 7)
  );
}

/**
 * Ambient occlusion of a cube face seen from the air voxel (nx, ny, nz) in front of it: the four
 * face corners get the game's vertex rule from the blocks beside that voxel, then are blended
 * bilinearly at (f1, f2), the hit point's position on the face along its two axes.
 */
function ambient(s: Scene, face: number, nx: number, ny: number, nz: number, f1: number, f2: number, cache: AoCache): number {
  if (cache.face !== face || cache.x !== nx || cache.y !== ny || cache.z !== nz) {
    ((cache.face = face), (cache.x = nx), (cache.y = ny), (cache.z = nz));
    cache.bits = neighbours(s, face, nx, ny, nz);
  }
  const n = cache.bits;
  if (n === 0) return 1;
  const a0 = n & 1,
    a1 = (n >> 1) & 1,
    b0 = (n >> 2) & 1,
    b1 = (n >> 3) & 1;
  const v00 = corner(a0, b0, (n >> 4) & 1),
    v10 = corner(a1, b0, (n >> 5) & 1),
    v01 = corner(a0, b1, (n >> 6) & 1),
    v11 = corner(a1, b1, (n >> 7) & 1);
  const ao = (v00 * (1 - f1) + v10 * f1) * (1 - f2) + (v01 * (1 - f1) + v11 * f1) * f2;
  return AO_MIN + ((1 - AO_MIN) * ao) / 3;
}

/**
 * The colour of a hit (before fog) into `out`: the look's colour (its top colour on an upward
 * face, its accent for accent boxes), face shade, procedural texture, block outline and ambient
 * occlusion. (x, y, z) is the hit voxel, `face` the axis crossed, `step` the ray's step along it,
 * `cube` whether the hit is on the voxel's full cube face (AO applies), `part` the box's part.
 */
export function shadeHit(
  s: Scene,
  li: number,
  part: number,
  face: number,
  step: number,
  cube: boolean,
  t: number,
  px: number,
  py: number,
  pz: number,
  x: number,
  y: number,
  z: number,
  options: ShadeOptions,
  cache: AoCache,
  out: Float64Array,
): void {
  const L = s.looks,
    o = li * LOOK_STRIDE;
  const down = face === 1 && step < 0;
  let shade = face === 0 ? SHADE_X : face === 2 ? SHADE_Z : down ? SHADE_TOP : SHADE_BOTTOM;
  const u = face === 0 ? pz : px,
    v = face === 1 ? pz : py;
  const fu = u - Math.floor(u),
    fv = v - Math.floor(v);
  if (t < EDGE_DISTANCE && Math.min(fu, 1 - fu, fv, 1 - fv) < EDGE_WIDTH && cube) shade *= EDGE_SHADE;
  const kind = L[o + Look.texture]!;
  const tu = Math.min(15, Math.floor(fu * 16)),
    tv = Math.min(15, Math.floor(fv * 16));
  if (t < TEXTURE_DISTANCE) {
    const f = texelFactor(kind, face, tu, tv, x, y, z);
    shade *= 1 + (f - 1) * (1 - t / TEXTURE_DISTANCE);
  }
  if (options.ambientOcclusion && cube && t < AO_DISTANCE) {
    const ao = ambient(s, face, face === 0 ? x - step : x, face === 1 ? y - step : y, face === 2 ? z - step : z, fu, fv, cache);
    shade *= 1 - (1 - ao) * (1 - t / AO_DISTANCE);
  }
  // The top colour on an upward face, and on the upper edge of a grassy block's sides.
  const top = down || (kind === Texture.grassy && face !== 1 && grassyEdge(tu, tv));
  const c = part === 1 ? o + Look.accentR : top ? o + Look.topR : o;
  ((out[0] = Math.min(255, L[c]! * shade)), (out[1] = Math.min(255, L[c + 1]! * shade)), (out[2] = Math.min(255, L[c + 2]! * shade)));
}
