import type { BlockLook } from "./BlockColors.js";

/**
 * The blocks a capture can see, flattened into typed arrays on shared memory so every render worker
 * reads the same bytes without a copy. Sections are 16³ (look indices of the drawn ones); over the
 * same extent, every 4³ brick has its chessboard distance to the nearest brick that draws
 * something, so rays jump over empty space in strides that grow with the distance to any block.
 */
export interface Scene {
  /** Section coordinates of the dense slot grid's origin and its size, in sections. */
  readonly ox: number;
  readonly oy: number;
  readonly oz: number;
  readonly nx: number;
  readonly ny: number;
  readonly nz: number;
  /** Per slot (x + (z + y·nz)·nx): 0 = nothing drawn (empty or not loaded), k ≥ 1 = drawn section k − 1. */
  readonly slots: Int32Array;
  /** 4096 look indices per drawn section, in y, z, x order. */
  readonly cells: Uint16Array;
  /**
   * Per 4³ brick of the slot grid (bx + (bz + by·nz·4)·nx·4, bricks counted from the grid's
   * origin): 0 where it draws something, else the distance in bricks to the nearest such brick.
   */
  readonly bricks: Uint8Array;
  /**
   * Height field of the bricks, per level l of COLUMN_RADII and brick column (bx + bz·nx·4, at
   * l·nx·nz·16): one more than the highest brick y (from the grid's origin) that draws something
   * within COLUMN_RADII[l] columns either way, 0 if none. A ray at or above it crosses that square
   * without meeting a block until it comes down to it.
   */
  readonly tops: Uint16Array;
  /** LOOK_STRIDE numbers per look index (see `Look`). Index 0 draws nothing. */
  readonly looks: Float64Array;
  /** 7 numbers per box: x0 y0 z0 x1 y1 z1 part (see BlockModels). */
  readonly boxes: Float64Array;
}

/** Field offsets inside one look's LOOK_STRIDE numbers. */
export const Look = Object.freeze({
  r: 0,
  g: 1,
  b: 2,
  topR: 3,
  topG: 4,
  topB: 5,
  accentR: 6,
  accentG: 7,
  accentB: 8,
  surface: 9,
  alpha: 10,
  texture: 11,
  boxStart: 12,
  boxEnd: 13,
  occludes: 14,
});
export const LOOK_STRIDE = 16;
/** Square radii, in brick columns, of the height field's levels (smallest first; each 2r + 1 of the previous). */
export const COLUMN_RADII = Object.freeze([1, 3, 7, 15, 31, 63]);
/** `Look.surface` values. */
export const SURFACE_NONE = 0,
  SURFACE_OPAQUE = 1,
  SURFACE_TRANSLUCENT = 2;

function shared<T extends Float64Array | Int32Array | Uint16Array | Uint8Array>(
  Kind: { new (b: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
  length: number,
): T {
  return new Kind(new SharedArrayBuffer(Math.max(1, length) * Kind.BYTES_PER_ELEMENT));
}

/** Flattens looks (index 0 = nothing) into the look table and its boxes. */
export function lookTable(looks: readonly BlockLook[]): { looks: Float64Array; boxes: Float64Array } {
  const boxCount = looks.reduce((n, l) => n + (l.model?.length ?? 0), 0);
  const table = shared(Float64Array, looks.length * LOOK_STRIDE);
  const boxes = shared(Float64Array, boxCount);
  let b = 0;
  looks.forEach((l, i) => {
    const o = i * LOOK_STRIDE;
    const top = l.top ?? [l.r, l.g, l.b],
      accent = l.accent ?? [l.r, l.g, l.b];
    table.set([l.r, l.g, l.b, top[0], top[1], top[2], accent[0], accent[1], accent[2]], o);
    table[o + Look.surface] = i === 0 || l.surface === "none" ? SURFACE_NONE : l.surface === "opaque" ? SURFACE_OPAQUE : SURFACE_TRANSLUCENT;
    table[o + Look.alpha] = l.alpha;
    table[o + Look.texture] = l.texture;
    table[o + Look.boxStart] = l.model === null ? -1 : b;
    if (l.model !== null) (boxes.set(l.model, b), (b += l.model.length));
    table[o + Look.boxEnd] = b;
    table[o + Look.occludes] = table[o + Look.surface] === SURFACE_OPAQUE && l.model === null ? 1 : 0;
  });
  return { looks: table, boxes };
}

/** Allocates shared arrays for `drawn` sections over an nx·ny·nz slot grid. */
export function allocateScene(origin: [number, number, number], size: [number, number, number], drawn: number, looks: readonly BlockLook[]): Scene {
  const [nx, ny, nz] = size;
  return {
    ox: origin[0],
    oy: origin[1],
    oz: origin[2],
    nx,
    ny,
    nz,
    slots: shared(Int32Array, nx * ny * nz),
    cells: shared(Uint16Array, drawn * 4096),
    bricks: shared(Uint8Array, nx * ny * nz * 64),
    tops: shared(Uint16Array, COLUMN_RADII.length * nx * nz * 16),
    ...lookTable(looks),
  };
}

/** The look index at a block position (0 outside the scene or where nothing is drawn). */
export function lookAt(s: Scene, x: number, y: number, z: number): number {
  const sx = (x >> 4) - s.ox,
    sy = (y >> 4) - s.oy,
    sz = (z >> 4) - s.oz;
  if (sx < 0 || sy < 0 || sz < 0 || sx >= s.nx || sy >= s.ny || sz >= s.nz) return 0;
  const k = s.slots[sx + (sz + sy * s.nz) * s.nx]!;
  return k === 0 ? 0 : s.cells[(k - 1) * 4096 + (((y & 15) << 8) | ((z & 15) << 4) | (x & 15))]!;
}
