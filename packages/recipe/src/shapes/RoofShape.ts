import { stairShape, type StairShape } from "@mcb/blocks";

/**
 * Roof geometry over a footprint of one or more rectangles (the walls' outline: an L, T or U is
 * several), pure: which cell gets a stair (facing, shape), a slab (bottom or top) or the gable
 * fill. Coordinates are local recipe coordinates.
 *
 * Every column gets one roof piece (a height function: where wings meet, no roof pokes through
 * another). A column's signed distance s says how far up the slope it is:
 * - hip (and flat): the Chebyshev distance to the footprint's outside, minus one (0 on the
 *   outline, negative in the overhang). Over one rectangle this is the distance to its nearest
 *   edge; over an L it makes hips at outer corners and valleys running from inner corners.
 * - gable: per rectangle, the distance to the nearer of its two long (slope) edges, its ridge
 *   along `axis`; where rectangles meet, the higher wins, so their slopes meet in valleys.
 * - pitch 1: a course per block, a piece at y + s; pitch 2: half steps, a bottom slab at y + s/2
 *   for even s, a stair at y + ⌊s/2⌋ for odd s.
 *
 * The piece comes from the neighbours' distances: the lower sides ("down", the overhang's far
 * side counts as lower) say where the slope falls. One lower side: a stair facing up-slope. Two
 * adjacent: a corner stair (a hip) facing F, the one of the two higher sides whose clockwise
 * neighbour is the other; unless the diagonal between the two higher sides is lower, where two
 * ridges meet: a slab. None, but one lower diagonal: a valley stair, facing the same way by the
 * two sides away from that diagonal. Opposite or three or more lower sides, or anything else: a
 * ridge slab (top slab at pitch 2's stair height). Stair shapes (straight, outer or inner corner)
 * are then what the game gives them from the roof's stairs beside them (`stairShape`), so what
 * an auto build writes is the roof as compiled. Every rule turns with the footprint: the roof of a
 * rotated footprint is the rotated roof. Flat roofs are one layer of bottom slabs over the
 * footprint and overhang.
 */
export type Facing = "north" | "south" | "east" | "west";
export type RoofPiece =
  | { readonly kind: "stair"; readonly facing: Facing; readonly shape: StairShape }
  | { readonly kind: "slab"; readonly type: "bottom" | "top" }
  | { readonly kind: "gable" };

/** One rectangle of the footprint and (gable) its ridge direction. */
export interface RoofRect {
  readonly minX: number;
  readonly maxX: number;
  readonly minZ: number;
  readonly maxZ: number;
  readonly axis: "x" | "z";
}

export interface RoofInput {
  readonly rects: readonly RoofRect[];
  readonly y: number;
  readonly style: "gable" | "hip" | "flat";
  readonly pitch: 1 | 2;
  readonly overhang: number;
  readonly gable: boolean;
}

/** Cells by piece, in a fixed order (pieces by first appearance, cells by z, then x, then y). */
export type RoofCells = Map<string, { readonly piece: RoofPiece; readonly xyz: number[] }>;

const CW: Record<Facing, Facing> = { north: "east", east: "south", south: "west", west: "north" };
const OPPOSITE: Record<Facing, Facing> = { north: "south", south: "north", west: "east", east: "west" };
const STEP: Record<Facing, readonly [number, number]> = { north: [0, -1], east: [1, 0], south: [0, 1], west: [-1, 0] };
const SIDES: readonly Facing[] = ["north", "east", "south", "west"];
/** Beyond the roof: lower than any roof column. */
const NONE = -(2 ** 30);

/** The roof's columns on a grid over the footprint's bounds plus the overhang and a margin of one. */
interface Grid {
  readonly x0: number;
  readonly z0: number;
  readonly w: number;
  readonly d: number;
  /** Signed distance per column (NONE beyond the roof and its margin). */
  readonly s: Int32Array;
  /** Columns that get a piece (the margin ring only informs its neighbours). */
  readonly placed: Uint8Array;
  readonly inside: Uint8Array;
}

function emptyGrid(r: RoofInput): Grid {
  const m = r.overhang + 2;
  const x0 = Math.min(...r.rects.map((q) => q.minX)) - m,
    z0 = Math.min(...r.rects.map((q) => q.minZ)) - m;
  const w = Math.max(...r.rects.map((q) => q.maxX)) + m - x0 + 1,
    d = Math.max(...r.rects.map((q) => q.maxZ)) + m - z0 + 1;
  const inside = new Uint8Array(w * d);
  for (const q of r.rects) for (let z = q.minZ; z <= q.maxZ; z++) for (let x = q.minX; x <= q.maxX; x++) inside[(z - z0) * w + (x - x0)] = 1;
  return { x0, z0, w, d, s: new Int32Array(w * d).fill(NONE), placed: new Uint8Array(w * d), inside };
}

/** Chebyshev distance from every column to the nearest column where `source` holds (8-neighbour BFS). */
function chebyshev(g: Grid, source: (i: number) => boolean): Int32Array {
  const dist = new Int32Array(g.w * g.d).fill(-1);
  let queue: number[] = [];
  for (let i = 0; i < dist.length; i++) if (source(i)) ((dist[i] = 0), queue.push(i));
  for (let k = 1; queue.length > 0; k++) {
    const next: number[] = [];
    for (const i of queue) {
      const x = i % g.w,
        z = (i - x) / g.w;
      for (let dz = -1; dz <= 1; dz++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx,
            nz = z + dz;
          if (nx < 0 || nz < 0 || nx >= g.w || nz >= g.d) continue;
          const j = nz * g.w + nx;
          if (dist[j] === -1) ((dist[j] = k), next.push(j));
        }
    }
    queue = next;
  }
  return dist;
}

/** Hip and flat: inside, the distance to the outside minus one; outside, minus the distance to the footprint (the overhang, then one ring of margin). */
function hipDistances(g: Grid, overhang: number): void {
  const toOutside = chebyshev(g, (i) => g.inside[i] === 0);
  const toInside = chebyshev(g, (i) => g.inside[i] === 1);
  for (let i = 0; i < g.s.length; i++) {
    if (g.inside[i] === 1) ((g.s[i] = toOutside[i]! - 1), (g.placed[i] = 1));
    else if (toInside[i]! <= overhang + 1) ((g.s[i] = -toInside[i]!), (g.placed[i] = toInside[i]! <= overhang ? 1 : 0));
  }
}

/** Gable: each rectangle's distance across its ridge over the rectangle and its overhang (one more ring as margin); the higher placed one wins. */
function gableDistances(g: Grid, r: RoofInput): void {
  const o = r.overhang;
  for (const q of r.rects) {
    for (let z = q.minZ - o - 1; z <= q.maxZ + o + 1; z++)
      for (let x = q.minX - o - 1; x <= q.maxX + o + 1; x++) {
        const i = (z - g.z0) * g.w + (x - g.x0);
        const s = q.axis === "x" ? Math.min(z - q.minZ, q.maxZ - z) : Math.min(x - q.minX, q.maxX - x);
        const placed = x >= q.minX - o && x <= q.maxX + o && z >= q.minZ - o && z <= q.maxZ + o ? 1 : 0;
        if (placed > g.placed[i]! || (placed === g.placed[i] && s > g.s[i]!)) ((g.s[i] = s), (g.placed[i] = placed));
      }
  }
}

/** The facing of a column's stair from its neighbours' distances (see the header); null for a ridge slab. */
function pieceAt(g: Grid, i: number): Facing | null {
  const s = g.s[i]!;
  const x = i % g.w,
    z = (i - x) / g.w;
  const at = (dx: number, dz: number): number => {
    const nx = x + dx,
      nz = z + dz;
    return nx < 0 || nz < 0 || nx >= g.w || nz >= g.d ? NONE : g.s[nz * g.w + nx]!;
  };
  const down = SIDES.filter((f) => at(...STEP[f]) < s);
  const corner = (a: Facing, b: Facing): Facing => (CW[a] === b ? a : b);
  if (down.length === 1) return OPPOSITE[down[0]!];
  if (down.length === 2 && OPPOSITE[down[0]!] !== down[1]) {
    const [a, b] = [OPPOSITE[down[0]!], OPPOSITE[down[1]!]];
    if (at(STEP[a][0] + STEP[b][0], STEP[a][1] + STEP[b][1]) < s) return null; // two ridges meet
    return corner(a, b);
  }
  if (down.length === 0) {
    const low = (
      [
        ["north", "east"],
        ["east", "south"],
        ["south", "west"],
        ["west", "north"],
      ] as const
    ).filter(([a, b]) => at(STEP[a][0] + STEP[b][0], STEP[a][1] + STEP[b][1]) < s);
    if (low.length === 1) return corner(OPPOSITE[low[0]![0]], OPPOSITE[low[0]![1]]);
  }
  return null;
}

export function roofCells(r: RoofInput): RoofCells {
  const cells: RoofCells = new Map();
  const add = (piece: RoofPiece, x: number, y: number, z: number): void => {
    const key = JSON.stringify(piece);
    let group = cells.get(key);
    if (group === undefined) cells.set(key, (group = { piece, xyz: [] }));
    group.xyz.push(x, y, z);
  };
  const g = emptyGrid(r);
  if (r.style === "gable") gableDistances(g, r);
  else hipDistances(g, r.overhang);
  const step = (d: number): { y: number; half: boolean } => (r.pitch === 1 ? { y: r.y + d, half: false } : { y: r.y + Math.floor(d / 2), half: d % 2 === 0 });
  // Each column's piece; stairs get their corner shapes from their neighbours as the game shapes them.
  const pieces: (RoofPiece | null)[] = new Array(g.s.length).fill(null);
  const ys = new Int32Array(g.s.length);
  for (let i = 0; i < g.s.length; i++) {
    if (g.placed[i] === 0) continue;
    const { y, half } = r.style === "flat" ? { y: r.y, half: true } : step(g.s[i]!);
    const stair = half ? null : pieceAt(g, i);
    ys[i] = y;
    pieces[i] = half
      ? { kind: "slab", type: "bottom" }
      : stair === null
        ? { kind: "slab", type: r.pitch === 1 ? "bottom" : "top" }
        : { kind: "stair", facing: stair, shape: "straight" };
  }
  for (let gz = 0; gz < g.d; gz++) {
    for (let gx = 0; gx < g.w; gx++) {
      const i = gz * g.w + gx;
      const piece = pieces[i];
      if (piece === null || piece === undefined) continue;
      const x = gx + g.x0,
        z = gz + g.z0,
        y = ys[i]!;
      if (piece.kind === "stair") {
        const shape = stairShape(piece.facing, "bottom", (d) => {
          const j = (gz + STEP[d][1]) * g.w + (gx + STEP[d][0]);
          const n = pieces[j];
          return n?.kind === "stair" && ys[j] === y ? { facing: n.facing, half: "bottom" } : null;
        });
        add({ ...piece, shape }, x, y, z);
      } else add(piece, x, y, z);
      if (r.gable && r.style === "gable") for (let fy = fillFrom(g, r, i, step); fy < y; fy++) add({ kind: "gable" }, x, fy, z);
    }
  }
  return cells;
}

/**
 * Where a column's gable fill starts: a gable wall (see `gableEnd`) from the wall top; a column
 * more than a course above a neighbour (a wider wing's end over a lower roof) from just above that
 * neighbour's piece, closing the face between them; elsewhere nothing (returns the column's own y).
 */
function fillFrom(g: Grid, r: RoofInput, i: number, step: (d: number) => { y: number }): number {
  const x = i % g.w,
    z = (i - x) / g.w;
  if (g.inside[i] === 1 && gableEnd(g, r.rects, x + g.x0, z + g.z0)) return r.y;
  let from = step(g.s[i]!).y;
  for (const f of SIDES) {
    const j = (z + STEP[f][1]) * g.w + (x + STEP[f][0]);
    if (g.placed[j] === 1) from = Math.min(from, step(g.s[j]!).y + 1);
  }
  return from;
}

/** A column on a rectangle's end plane (across its ridge) whose outward neighbour is outside the footprint: a gable wall. */
function gableEnd(g: Grid, rects: readonly RoofRect[], x: number, z: number): boolean {
  const outside = (nx: number, nz: number): boolean => g.inside[(nz - g.z0) * g.w + (nx - g.x0)] === 0;
  return rects.some(
    (q) =>
      x >= q.minX &&
      x <= q.maxX &&
      z >= q.minZ &&
      z <= q.maxZ &&
      (q.axis === "x"
        ? (x === q.minX && outside(x - 1, z)) || (x === q.maxX && outside(x + 1, z))
        : (z === q.minZ && outside(x, z - 1)) || (z === q.maxZ && outside(x, z + 1))),
  );
}
