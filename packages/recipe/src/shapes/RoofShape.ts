/**
 * Roof geometry over a rectangle (the walls' outline), pure: which cell gets a stair (facing,
 * shape), a slab (bottom or top) or the gable fill. Coordinates are local recipe coordinates.
 *
 * A cell's distance d is measured from the outline's edge inward (overhang cells have d < 0); its
 * slope edges are the edges at the least distance (gable: the two long sides; hip: all four).
 * - pitch 1: a course per block, a stair at y + d;
 * - pitch 2: half steps: a bottom slab at y + d/2 for even d, a stair at y + ⌊d/2⌋ for odd d.
 * Stairs face up-slope (away from their edge), so the stepped side faces outward. A cell whose
 * nearest edges are opposite (or three or four) is on the ridge: a bottom slab, or a top slab at
 * the height of the stair it replaces. A cell at two adjacent edges (a hip) is an outer corner:
 * the stair whose raised quarter points inward, written with shape outer_right (the game's
 * equivalent outer_left form is never used, so a rotated roof equals the roof of the rotated
 * outline). Flat roofs are one layer of bottom slabs.
 */
export type Facing = "north" | "south" | "east" | "west";
export type RoofPiece =
  | { readonly kind: "stair"; readonly facing: Facing; readonly shape: "straight" | "outer_right" }
  | { readonly kind: "slab"; readonly type: "bottom" | "top" }
  | { readonly kind: "gable" };

export interface RoofInput {
  readonly minX: number;
  readonly maxX: number;
  readonly minZ: number;
  readonly maxZ: number;
  readonly y: number;
  readonly style: "gable" | "hip" | "flat";
  /** Gable ridge direction. */
  readonly axis: "x" | "z";
  readonly pitch: 1 | 2;
  readonly overhang: number;
  readonly gable: boolean;
}

/** Cells by piece, in a fixed order (pieces by first appearance, cells by z, then x, then y). */
export type RoofCells = Map<string, { readonly piece: RoofPiece; readonly xyz: number[] }>;

const CW: Record<Facing, Facing> = { north: "east", east: "south", south: "west", west: "north" };

/** Edges by the direction that faces away from them (up-slope): north edge → stairs face south. */
const UPSLOPE = { north: "south", south: "north", west: "east", east: "west" } as const satisfies Record<Facing, Facing>;

export function roofCells(r: RoofInput): RoofCells {
  const cells: RoofCells = new Map();
  const add = (piece: RoofPiece, x: number, y: number, z: number): void => {
    const key = JSON.stringify(piece);
    let group = cells.get(key);
    if (group === undefined) cells.set(key, (group = { piece, xyz: [] }));
    group.xyz.push(x, y, z);
  };
  const o = r.overhang;
  const step = (d: number): { y: number; half: boolean } =>
    r.pitch === 1 ? { y: r.y + d, half: false } : { y: r.y + Math.floor(d / 2), half: d % 2 === 0 };
  for (let z = r.minZ - o; z <= r.maxZ + o; z++) {
    for (let x = r.minX - o; x <= r.maxX + o; x++) {
      if (r.style === "flat") {
        add({ kind: "slab", type: "bottom" }, x, r.y, z);
        continue;
      }
      const dist: Array<[Facing, number]> = [];
      if (r.style === "hip" || r.axis === "x") dist.push(["north", z - r.minZ], ["south", r.maxZ - z]);
      if (r.style === "hip" || r.axis === "z") dist.push(["west", x - r.minX], ["east", r.maxX - x]);
      const d = Math.min(...dist.map(([, v]) => v));
      const edges = dist.filter(([, v]) => v === d).map(([e]) => e);
      const { y, half } = step(d);
      const ridge = edges.length >= 3 || (edges.length === 2 && UPSLOPE[edges[0]!] === edges[1]);
      if (half) add({ kind: "slab", type: "bottom" }, x, y, z);
      else if (ridge) add({ kind: "slab", type: r.pitch === 1 ? "bottom" : "top" }, x, y, z);
      else if (edges.length === 1) add({ kind: "stair", facing: UPSLOPE[edges[0]!], shape: "straight" }, x, y, z);
      else {
        // Two adjacent edges: the raised quarter points to both up-slope directions; facing F with
        // outer_right raises the quarter F + clockwise(F).
        const [a, b] = [UPSLOPE[edges[0]!], UPSLOPE[edges[1]!]];
        add({ kind: "stair", facing: CW[a] === b ? a : b, shape: "outer_right" }, x, y, z);
      }
      // Gable triangles: the outline's two end planes, under the roof block.
      if (r.gable && r.style === "gable" && d >= 0) {
        const end = r.axis === "x" ? x === r.minX || x === r.maxX : z === r.minZ || z === r.maxZ;
        if (end) for (let fy = r.y; fy < y; fy++) add({ kind: "gable" }, x, fy, z);
      }
    }
  }
  return cells;
}
