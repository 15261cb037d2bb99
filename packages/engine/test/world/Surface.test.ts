import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { Harness } from "@mcb/property-tests";
import { surfaceColumns } from "../../src/world/Surface.js";

/** region_surface against a brute-force scan of the same memory world. */

let hs: Harness[] = [];
afterEach(() => {
  hs.forEach((h) => h.close());
  hs = [];
});

const STATES = ["minecraft:stone", "minecraft:water[level=0]", "minecraft:cave_air", "minecraft:oak_leaves[distance=7,persistent=true,waterlogged=false]"];

describe("region_surface", () => {
  it("equals a brute-force top-down scan for random worlds, areas, steps and y ranges (property)", async () => {
    const h = await Harness.create({ area: { minX: 0, minY: -64, minZ: 0, maxX: 200_000, maxY: 319, maxZ: 100 } });
    hs.push(h);
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            x: fc.integer({ min: 0, max: 40 }),
            y: fc.integer({ min: -64, max: 100 }),
            z: fc.integer({ min: 0, max: 40 }),
            s: fc.nat(STATES.length - 1),
          }),
          { maxLength: 60 },
        ),
        fc.record({
          x0: fc.integer({ min: 0, max: 40 }),
          z0: fc.integer({ min: 0, max: 40 }),
          w: fc.integer({ min: 0, max: 40 }),
          l: fc.integer({ min: 0, max: 40 }),
        }),
        fc.integer({ min: 1, max: 20 }),
        fc.option(fc.record({ lo: fc.integer({ min: -64, max: 100 }), span: fc.integer({ min: 0, max: 120 }) })),
        async (blocks, a, step, yr) => {
          const ox = 1000 * ++round; // a fresh part of the world each run
          for (const b of blocks) h.world.externalEdit(ox + b.x, b.y, b.z, STATES[b.s]!, { emitEvent: false });
          const y_range = yr === null ? undefined : { min: yr.lo, max: Math.min(319, yr.lo + yr.span) };
          const r = await h.engine.regionSurface(h.agent, {
            min: { x: ox + a.x0, z: a.z0 },
            max: { x: ox + a.x0 + a.w, z: a.z0 + a.l },
            step,
            ...(y_range ? { y_range } : {}),
          });
          if (!r.ok) throw new Error(r.error.message);
          const v = r.value;
          // The runs decode to one height and one top per column, and no two neighbouring runs are equal.
          const { heights, tops } = v.runs === undefined ? { heights: undefined, tops: undefined } : surfaceColumns(v.runs);
          if (v.runs !== undefined) for (let q = 3; q < v.runs.length; q += 3) expect([v.runs[q], v.runs[q + 1]]).not.toEqual([v.runs[q - 3], v.runs[q - 2]]);
          const lo = y_range?.min ?? -64,
            hi = y_range?.max ?? 319;
          expect(v.columns).toEqual({ x: Math.floor(a.w / step) + 1, z: Math.floor(a.l / step) + 1 });
          for (let k = 0; k < v.columns.z; k++)
            for (let i = 0; i < v.columns.x; i++) {
              const x = ox + a.x0 + i * step,
                z = a.z0 + k * step;
              let want: number | null = null;
              for (let y = hi; y >= lo && want === null; y--) {
                const st = h.world.stateAt(x, y, z);
                if (st !== "minecraft:air" && st !== "minecraft:cave_air") want = y;
              }
              const at = k * v.columns.x + i;
              expect(heights?.[at] ?? null, `column ${x},${z}`).toBe(want);
              expect(tops === undefined || tops[at] === -1 ? null : v.palette[tops[at]!]).toBe(want === null ? null : h.world.stateAt(x, want, z));
            }
          const columns = v.columns.x * v.columns.z;
          expect(heights === undefined ? columns : heights.length).toBe(columns);
          expect(v.empty_columns).toBe(heights === undefined ? columns : heights.filter((x) => x === null).length);
          // An all-air area says so in one sentence and sends no arrays.
          if (v.empty_columns === columns) expect([v.summary.slice(0, 7), v.runs]).toEqual(["empty: ", undefined]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("refuses areas outside the project, too many columns, bad steps and y ranges outside the world", async () => {
    const h = await Harness.create({ area: { minX: 0, minY: 0, minZ: 0, maxX: 99, maxY: 200, maxZ: 99 } });
    hs.push(h);
    const call = (input: object) => h.engine.regionSurface(h.agent, input as never);
    expect(await call({ min: { x: 90, z: 0 }, max: { x: 100, z: 5 } })).toMatchObject({ ok: false, error: { code: "out_of_bounds" } });
    expect(await call({ min: { x: 0, z: 0 }, max: { x: 99, z: 99 } })).toMatchObject({
      ok: false,
      error: { code: "budget_exceeded", details: { limit: 4096, columns: 10_000 } },
    });
    expect((await call({ min: { x: 0, z: 0 }, max: { x: 99, z: 99 }, step: 2 })).ok).toBe(true);
    expect(await call({ min: { x: 0, z: 0 }, max: { x: 9, z: 9 }, step: 0 })).toMatchObject({
      ok: false,
      error: { code: "invalid_request", details: { reason: "step" } },
    });
    expect(await call({ min: { x: 0, z: 0 }, max: { x: 9, z: 9 }, y_range: { min: -10, max: 50 } })).toMatchObject({
      ok: false,
      error: { code: "out_of_bounds" },
    });
    expect(await call({ min: { x: 0, z: 0 }, max: { x: 9.5, z: 9 } })).toMatchObject({ ok: false, error: { code: "invalid_request" } });
    const empty = await call({ min: { x: 0, z: 0 }, max: { x: 9, z: 9 } });
    expect(empty).toMatchObject({ ok: true, value: { y_range: { min: 0, max: 200 }, empty_columns: 100 } });
  });
});
