import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createCollector } from "../src/BlockCollector.js";
import type { BlockCollector } from "../src/Collector.js";
import { pick, pickRow, type Material } from "../src/Material.js";
import { ROW_LIMIT } from "../src/RowCollector.js";
import { archShape } from "../src/shapes/ArchShape.js";
import { boxShape, type BoxMode } from "../src/shapes/BoxShape.js";
import { excludeShape } from "../src/shapes/ExcludeShape.js";
import { cylinderShape } from "../src/shapes/CylinderShape.js";
import { lineShape } from "../src/shapes/LineShape.js";
import type { Shape } from "../src/shapes/Shape.js";

const c = fc.integer({ min: -20, max: 20 });
const vec = fc.record({ x: c, y: c, z: c });
const cylinders = fc
  .tuple(vec, fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 6 }), fc.boolean(), fc.constantFrom("x" as const, "y" as const, "z" as const))
  .map(([p, r, h, hollow, axis]) => cylinderShape(p, r, h, hollow, axis));
const arches = fc
  .tuple(vec, vec, fc.constantFrom("x" as const, "z" as const), fc.integer({ min: 1, max: 5 }))
  .map(([a, b, axis, t]) => archShape(a, b, axis, t));

function emitted(shape: Shape): string[] {
  const out: string[] = [];
  shape.emit((x, y, z) => {
    const b = shape.bounds;
    if (x < b.minX || x > b.maxX || y < b.minY || y > b.maxY || z < b.minZ || z > b.maxZ) out.push("outside");
    out.push(`${x},${y},${z}`);
  });
  return out;
}

describe("shape counts are exact (preflight relies on them)", () => {
  const shapes = fc.oneof(
    fc.tuple(vec, vec, fc.constantFrom("solid", "faces", "walls") as fc.Arbitrary<BoxMode>).map(([a, b, m]) => boxShape(a, b, m)),
    fc.tuple(vec, vec, vec, vec).map(([a, b, c, d]) => excludeShape(boxShape(a, b, "walls"), [boxShape(c, d, "solid").box])),
    fc.tuple(vec, vec).map(([a, b]) => lineShape(a, b)),
    cylinders,
    arches,
  );
  it("count equals the number of distinct emitted positions, all inside the bounds", () => {
    fc.assert(
      fc.property(shapes, (shape) => {
        const out = emitted(shape);
        expect(out).not.toContain("outside");
        expect(new Set(out).size).toBe(out.length);
        expect(out.length).toBe(shape.count);
      }),
      { numRuns: 500 },
    );
  });
});

describe("box modes", () => {
  it("faces are the cells on any face, walls the cells on an x or z side; exclusions remove exactly their cells", () => {
    fc.assert(
      fc.property(vec, vec, vec, vec, (a, b, c, d) => {
        const box = boxShape(a, b, "solid").box;
        const hole = boxShape(c, d, "solid").box;
        const onX = (x: number) => x === box.minX || x === box.maxX;
        const onZ = (z: number) => z === box.minZ || z === box.maxZ;
        const inHole = (x: number, y: number, z: number) =>
          x >= hole.minX && x <= hole.maxX && y >= hole.minY && y <= hole.maxY && z >= hole.minZ && z <= hole.maxZ;
        const expected = { faces: new Set<string>(), walls: new Set<string>(), cut: new Set<string>() };
        for (let y = box.minY; y <= box.maxY; y++)
          for (let z = box.minZ; z <= box.maxZ; z++)
            for (let x = box.minX; x <= box.maxX; x++) {
              const k = `${x},${y},${z}`;
              if (onX(x) || onZ(z) || y === box.minY || y === box.maxY) expected.faces.add(k);
              if (onX(x) || onZ(z)) {
                expected.walls.add(k);
                if (!inHole(x, y, z)) expected.cut.add(k);
              }
            }
        expect(new Set(emitted(boxShape(a, b, "faces")))).toEqual(expected.faces);
        expect(new Set(emitted(boxShape(a, b, "walls")))).toEqual(expected.walls);
        expect(new Set(emitted(excludeShape(boxShape(a, b, "walls"), [hole])))).toEqual(expected.cut);
      }),
      { numRuns: 300 },
    );
  });
});

describe("row-interval and sparse collection agree", () => {
  const palette: Material = { kind: "palette", values: Uint32Array.of(1, 2, 3), cumulative: Uint32Array.of(2, 3, 5), salt: 77 };
  const coord = fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 7 }));
  const write = fc.oneof(
    fc.tuple(fc.constant("put" as const), coord, fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 3 })),
    fc.tuple(fc.constant("span" as const), coord, fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 3 })),
    fc.tuple(fc.constant("spanPalette" as const), coord, fc.integer({ min: 0, max: 9 }), fc.constant(0x10000)),
    fc.tuple(fc.constant("box" as const), coord, fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 3 })),
    fc.tuple(fc.constant("boxPalette" as const), coord, fc.integer({ min: 0, max: 9 }), fc.constant(0)),
  );
  type Write = readonly [string, readonly [number, number, number], number, number];
  const apply = (c: BlockCollector, [kind, [x, y, z], x1, v]: Write) => {
    const lo = Math.min(x, x1),
      hi = Math.max(x, x1);
    if (kind === "put") c.put(x, y, z, v);
    else if (kind === "span") c.putSpan(lo, hi, y, z, v);
    else if (kind === "spanPalette") c.putSpanPalette(lo, hi, y, z, palette, v);
    else if (kind === "box") c.fillBox({ minX: lo, minY: y, minZ: Math.min(z, 2), maxX: hi, maxY: 3, maxZ: z }, v);
    else c.fillBoxPalette({ minX: lo, minY: 0, minZ: z, maxX: hi, maxY: y, maxZ: 7 }, palette, v);
  };
  // Spread: rows with a few intervals (sorted, clusters of overlaps). Crowded: all writes in one row
  // (the box writes are clipped to it), so rows hold more intervals than are sorted, out of order.
  it.each([
    ["spread", 1, 120, (w: Write) => w],
    ["crowded", 40, 200, (w: Write): Write => [w[0] === "box" ? "span" : w[0] === "boxPalette" ? "spanPalette" : w[0], [w[1][0], 0, 0], w[2], w[3]]],
  ] as const)("same maximal runs for the same writes, later writes winning, palettes picked per position (property, %s)", (_, minLength, maxLength, shape) => {
    fc.assert(
      fc.property(fc.array(write.map(shape), { minLength, maxLength }), (writes) => {
        const area = { minX: 0, minY: 0, minZ: 0, maxX: 9, maxY: 3, maxZ: 7 };
        // More rows than ROW_LIMIT: the sparse collector (sorted append log) takes these bounds.
        const far = { ...area, minY: 0, maxY: 3, maxZ: ROW_LIMIT };
        const rows = createCollector(area, 10_000);
        const sparse = createCollector(far, 10_000);
        for (const w of writes) (apply(rows, w), apply(sparse, w));
        const { bounds, ...a } = rows.toRuns(),
          b = sparse.toRuns();
        expect(a).toEqual(b);
        // The bounds found on the way are the runs' tight bounds.
        if (a.count === 0) expect(bounds).toBeUndefined();
        else {
          const ends = [...a.x].map((x, r) => x + a.length[r]! - 1);
          expect(bounds).toEqual({
            minX: Math.min(...a.x),
            minY: Math.min(...a.y),
            minZ: Math.min(...a.z),
            maxX: Math.max(...ends),
            maxY: Math.max(...a.y),
            maxZ: Math.max(...a.z),
          });
        }
        // Runs are maximal: no two neighbours in one row continue each other with the same value.
        for (let r = 1; r < a.length.length; r++)
          expect(a.y[r] === a.y[r - 1] && a.z[r] === a.z[r - 1] && a.x[r - 1]! + a.length[r - 1]! === a.x[r] && a.value[r] === a.value[r - 1]).toBe(false);
      }),
      { numRuns: 400 },
    );
  });
});

describe("shapes' spans cover exactly their positions", () => {
  const spanShapes = fc.oneof(
    cylinders,
    arches,
    fc.tuple(vec, vec).map(([a, b]) => lineShape(a, b)),
  );
  it("emitSpans gives the positions of emit, each once (property)", () => {
    fc.assert(
      fc.property(spanShapes, (shape) => {
        const fromSpans: string[] = [];
        shape.emitSpans!((x0, x1, y, z) => {
          expect(x0).toBeLessThanOrEqual(x1);
          for (let x = x0; x <= x1; x++) fromSpans.push(`${x},${y},${z}`);
        });
        expect(new Set(fromSpans).size).toBe(fromSpans.length);
        expect(fromSpans.sort()).toEqual(emitted(shape).sort());
      }),
      { numRuns: 300 },
    );
  });
});

describe("arch rows solved per row equal the cell-by-cell ellipse test", () => {
  it("same positions as scanning every cell of the plane with the ring inequalities (property)", () => {
    const size = fc.integer({ min: 0, max: 60 });
    fc.assert(
      fc.property(
        vec,
        size,
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom("x" as const, "z" as const),
        fc.integer({ min: 1, max: 12 }),
        (p, span, rise, depth, axis, t) => {
          const max = { x: p.x + (axis === "x" ? span : depth), y: p.y + rise, z: p.z + (axis === "z" ? span : depth) };
          const shape = archShape(p, max, axis, t);
          // The definition, cell by cell (doubled coordinates, exact integers).
          const uMin = axis === "x" ? p.x : p.z,
            uMax = uMin + span,
            A = span + 1,
            B = 2 * rise + 1,
            Ai = A - 2 * t,
            Bi = B - 2 * t;
          const want: string[] = [];
          for (let v = 0; v <= rise; v++)
            for (let u = uMin; u <= uMax; u++) {
              const U = 2 * u - (uMin + uMax),
                V = 2 * v;
              if (U * U * B * B + V * V * A * A > A * A * B * B) continue;
              if (Ai > 0 && Bi > 0 && U * U * Bi * Bi + V * V * Ai * Ai < Ai * Ai * Bi * Bi) continue;
              for (let w = 0; w <= depth; w++) want.push(axis === "x" ? `${u},${p.y + v},${p.z + w}` : `${p.x + w},${p.y + v},${u}`);
            }
          expect(emitted(shape).sort()).toEqual(want.sort());
          expect(shape.count).toBe(want.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("row palette picks", () => {
  it("pickRow gives pick's value at every position of the row (property)", () => {
    const palette = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }).map((weights): Material => {
      let total = 0;
      return {
        kind: "palette",
        values: Uint32Array.from(weights, (_, i) => i + 1),
        cumulative: Uint32Array.from(weights, (w) => (total += w)),
        salt: weights.length * 7919,
      };
    });
    fc.assert(
      fc.property(
        palette,
        fc.integer({ min: -30_000_000, max: 30_000_000 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: -64, max: 319 }),
        fc.integer({ min: -30_000_000, max: 30_000_000 }),
        fc.integer({ min: 0, max: 3 }),
        (m, x0, len, y, z, filter) => {
          const out = new Uint32Array(len + 1);
          pickRow(m, x0, x0 + len, y, z, filter * 0x10000, out);
          for (let k = 0; k <= len; k++) expect(out[k]).toBe(filter * 0x10000 + pick(m, x0 + k, y, z));
        },
      ),
      { numRuns: 300 },
    );
  });
});
