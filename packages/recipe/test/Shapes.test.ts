import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createCollector, DENSE_CELL_LIMIT } from "../src/BlockCollector.js";
import { archShape } from "../src/shapes/ArchShape.js";
import { boxShape } from "../src/shapes/BoxShape.js";
import { cylinderShape } from "../src/shapes/CylinderShape.js";
import { lineShape } from "../src/shapes/LineShape.js";
import type { Shape } from "../src/shapes/Shape.js";

const c = fc.integer({ min: -20, max: 20 });
const vec = fc.record({ x: c, y: c, z: c });

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
    fc.tuple(vec, vec, fc.boolean()).map(([a, b, h]) => boxShape(a, b, h)),
    fc.tuple(vec, vec).map(([a, b]) => lineShape(a, b)),
    fc.tuple(vec, fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 6 }), fc.boolean(), fc.constantFrom("x" as const, "y" as const, "z" as const)).map(
      ([p, r, h, hollow, axis]) => cylinderShape(p, r, h, hollow, axis),
    ),
    fc.tuple(vec, vec, fc.constantFrom("x" as const, "z" as const), fc.integer({ min: 1, max: 5 })).map(([a, b, axis, t]) => archShape(a, b, axis, t)),
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

describe("dense and sparse collection agree", () => {
  it("same runs for the same puts, later put winning (property)", () => {
    const put = fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 3 }));
    fc.assert(
      fc.property(fc.array(put, { minLength: 1, maxLength: 200 }), (puts) => {
        const bounds = { minX: 0, minY: 0, minZ: 0, maxX: 7, maxY: 3, maxZ: 7 };
        const far = { ...bounds, maxX: DENSE_CELL_LIMIT };
        const dense = createCollector(bounds, puts.length);
        const sparse = createCollector(far, puts.length);
        for (const [x, y, z, v] of puts) {
          dense.put(x, y, z, v);
          sparse.put(x, y, z, v);
        }
        expect(sparse.toRuns()).toEqual(dense.toRuns());
      }),
      { numRuns: 300 },
    );
  });
});
