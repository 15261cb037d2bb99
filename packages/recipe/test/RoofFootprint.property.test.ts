import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { roofCells, type RoofCells, type RoofInput, type RoofPiece, type RoofRect } from "../src/shapes/RoofShape.js";
import { compileRecipe } from "../src/index.js";
import { blockMap, registry } from "./support.js";

/**
 * Roofs over footprints of several rectangles (L, T, U, crosses, random unions): the surface is a
 * height function (one roof piece per column: no wing pokes through another), watertight (next
 * columns differ by at most one course, or a gable wall closes the step) and the roof of a rotated
 * footprint is the rotated roof.
 */
type Col = { piece: RoofPiece; y: number };

/** Roof pieces by column ("x,z"), gable fill by column; throws on a second roof piece in one column. */
function columns(cells: RoofCells): { top: Map<string, Col[]>; fill: Map<string, number[]> } {
  const top = new Map<string, Col[]>(),
    fill = new Map<string, number[]>();
  for (const { piece, xyz } of cells.values())
    for (let i = 0; i < xyz.length; i += 3) {
      const k = `${xyz[i]},${xyz[i + 2]}`;
      if (piece.kind === "gable") fill.set(k, [...(fill.get(k) ?? []), xyz[i + 1]!]);
      else top.set(k, [...(top.get(k) ?? []), { piece, y: xyz[i + 1]! }]);
    }
  return { top, fill };
}

const rect = fc
  .record({
    x: fc.integer({ min: -6, max: 6 }),
    z: fc.integer({ min: -6, max: 6 }),
    w: fc.integer({ min: 1, max: 9 }),
    d: fc.integer({ min: 1, max: 9 }),
    axis: fc.constantFrom<"x" | "z">("x", "z"),
  })
  .map((r): RoofRect => ({ minX: r.x, maxX: r.x + r.w - 1, minZ: r.z, maxZ: r.z + r.d - 1, axis: r.axis }));
const roofInput = fc.record({
  rects: fc.array(rect, { minLength: 1, maxLength: 4 }),
  y: fc.constant(70),
  style: fc.constantFrom<RoofInput["style"]>("gable", "hip", "flat"),
  pitch: fc.constantFrom<1 | 2>(1, 2),
  overhang: fc.integer({ min: 0, max: 2 }),
  gable: fc.boolean(),
});

/** The columns a roof must cover: the footprint and its overhang (every rectangle grown by the overhang, square corners). */
function covered(r: RoofInput): Set<string> {
  const out = new Set<string>();
  const o = r.overhang;
  for (const q of r.rects) for (let z = q.minZ - o; z <= q.maxZ + o; z++) for (let x = q.minX - o; x <= q.maxX + o; x++) out.add(`${x},${z}`); // within Chebyshev distance o of the footprint
  return out;
}

/** The property's checks; returns the first problem found (null: none). */
function problem(r: RoofInput, cells: RoofCells): string | null {
  const { top, fill } = columns(cells);
  for (const [k, pieces] of top) if (pieces.length !== 1) return `column ${k} has ${pieces.length} roof pieces`;
  const want = covered(r);
  for (const k of want) if (!top.has(k)) return `column ${k} of the footprint or overhang has no roof`;
  for (const k of top.keys()) if (!want.has(k)) return `column ${k} is roofed outside the footprint and overhang`;
  for (const [k, [c]] of top) {
    const [x, z] = k.split(",").map(Number) as [number, number];
    for (const [dx, dz] of [
      [1, 0],
      [0, 1],
    ] as const) {
      const n = top.get(`${x + dx},${z + dz}`)?.[0];
      if (n === undefined) continue;
      const [hi, lo, hk] = c!.y >= n.y ? [c!, n, k] : [n, c!, `${x + dx},${z + dz}`];
      if (hi.y - lo.y <= 1) continue;
      if (r.style !== "gable") return `columns ${k} and ${x + dx},${z + dz} differ by ${hi.y - lo.y} courses`;
      if (!r.gable) continue; // open gable faces are the roof's design without gable_block
      const f = new Set(fill.get(hk) ?? []);
      for (let y = lo.y + 1; y < hi.y; y++) if (!f.has(y)) return `the step of ${hi.y - lo.y} courses at ${hk} is open at y ${y}`;
    }
  }
  // A stair's tall side faces up-slope: the column it faces is not lower.
  const step = { north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0] } as const;
  for (const [k, [c]] of top) {
    if (c!.piece.kind !== "stair") continue;
    const [x, z] = k.split(",").map(Number) as [number, number];
    const f = top.get(`${x + step[c!.piece.facing][0]},${z + step[c!.piece.facing][1]}`)?.[0];
    if (f !== undefined && f.y < c!.y) return `the stair at ${k} faces down-slope (${c!.piece.facing})`;
  }
  return null;
}

/** Rotates 90° clockwise about the origin: (x, z) → (−z, x); facings turn with it. */
const CW = { north: "east", east: "south", south: "west", west: "north" } as const;
function rotateInput(r: RoofInput): RoofInput {
  return { ...r, rects: r.rects.map((q) => ({ minX: -q.maxZ, maxX: -q.minZ, minZ: q.minX, maxZ: q.maxX, axis: q.axis === "x" ? "z" : "x" })) };
}
function rotatedSet(cells: RoofCells): Set<string> {
  const out = new Set<string>();
  for (const { piece, xyz } of cells.values()) {
    const p = piece.kind === "stair" ? { ...piece, facing: CW[piece.facing] } : piece;
    for (let i = 0; i < xyz.length; i += 3) out.add(`${-xyz[i + 2]!},${xyz[i + 1]},${xyz[i]} ${JSON.stringify(p)}`);
  }
  return out;
}
function asSet(cells: RoofCells): Set<string> {
  const out = new Set<string>();
  for (const { piece, xyz } of cells.values())
    for (let i = 0; i < xyz.length; i += 3) out.add(`${xyz[i]},${xyz[i + 1]},${xyz[i + 2]} ${JSON.stringify(piece)}`);
  return out;
}

/** The planted bug: each rectangle roofed on its own and the roofs laid over each other (the crossing roofs of an L-house). */
function crossingRoofs(r: RoofInput): RoofCells {
  const out: RoofCells = new Map();
  for (const q of r.rects)
    for (const [key, g] of roofCells({ ...r, rects: [q] })) {
      const have = out.get(key);
      if (have === undefined) out.set(key, { piece: g.piece, xyz: [...g.xyz] });
      else have.xyz.push(...g.xyz);
    }
  return out;
}

describe("roofs over several rectangles", () => {
  it("are a height function, watertight, stairs facing up-slope (property)", () => {
    fc.assert(
      fc.property(roofInput, (r) => {
        expect(problem(r, roofCells(r))).toBeNull();
      }),
      { numRuns: 400 },
    );
  });

  it("the roof of a rotated footprint is the rotated roof (property)", () => {
    fc.assert(
      fc.property(roofInput, (r) => {
        expect(asSet(roofCells(rotateInput(r)))).toEqual(rotatedSet(roofCells(r)));
      }),
      { numRuns: 300 },
    );
  });

  it("the property catches a planted bug: each wing roofed on its own, the roofs crossing", () => {
    const found = fc.check(
      fc.property(roofInput, (r) => problem(r, crossingRoofs(r)) === null),
      { numRuns: 400 },
    );
    expect(found.failed).toBe(true);
    expect(problem(found.counterexample![0], crossingRoofs(found.counterexample![0]))).toMatch(/roof pieces|differ by|is open|faces down-slope/);
  });

  it("an L-house hip roof: hips at the outer corners, a valley of inner corners from the inner corner to the ridges' meeting", () => {
    const cells = roofCells({
      rects: [
        { minX: 0, maxX: 9, minZ: 0, maxZ: 4, axis: "x" },
        { minX: 0, maxX: 4, minZ: 0, maxZ: 9, axis: "z" },
      ],
      y: 70,
      style: "hip",
      pitch: 1,
      overhang: 0,
      gable: false,
    });
    const { top } = columns(cells);
    const at = (x: number, z: number) => top.get(`${x},${z}`)![0]!;
    expect(at(4, 4)).toEqual({ y: 70, piece: { kind: "stair", facing: "west", shape: "inner_right" } }); // the inner corner
    expect(at(3, 3)).toEqual({ y: 71, piece: { kind: "stair", facing: "west", shape: "inner_right" } }); // the valley
    expect(at(2, 2)).toEqual({ y: 72, piece: { kind: "slab", type: "bottom" } }); // the ridges meet
    expect(at(6, 2)).toEqual({ y: 72, piece: { kind: "slab", type: "bottom" } }); // the east wing's ridge
    expect(at(0, 0)).toEqual({ y: 70, piece: { kind: "stair", facing: "east", shape: "outer_right" } }); // a hip
    expect(at(9, 2).y).toBe(70); // the east wing's hip end
  });

  it("a recipe roof with a footprint compiles; min/max and footprint together are refused", () => {
    const roof = {
      type: "roof",
      y: 70,
      style: "gable",
      stairs: "minecraft:spruce_stairs",
      slab: "minecraft:spruce_slab",
      gable_block: "minecraft:spruce_planks",
    };
    const l = compileRecipe(registry(), {
      version: 1,
      operations: [
        {
          ...roof,
          footprint: [
            { min: { x: 0, z: 0 }, max: { x: 9, z: 4 } },
            { min: { x: 0, z: 0 }, max: { x: 4, z: 9 } },
          ],
        },
      ],
    });
    if (!l.ok) throw new Error(l.error.message);
    const blocks = blockMap(l.value);
    expect(blocks.get("4,70,4")).toBe("minecraft:spruce_stairs[facing=west,half=bottom,shape=inner_right,waterlogged=false]"); // the valley's foot
    expect(blocks.get("0,71,2")).toBe("minecraft:spruce_planks"); // the west gable wall
    const both = compileRecipe(registry(), {
      version: 1,
      operations: [{ ...roof, min: { x: 0, z: 0 }, max: { x: 4, z: 4 }, footprint: [{ min: { x: 0, z: 0 }, max: { x: 4, z: 9 } }] }],
    });
    expect(both).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "roof_footprint" } } });
  });
});
