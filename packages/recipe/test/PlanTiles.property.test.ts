import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forEachPlanBlock, planHash, PlanTiles, type Plan } from "../src/index.js";
import { compile, recipeArb } from "./support.js";

/** Every position of a plan in its order: position, state and filter spelled out (not as indices). */
function positions(plan: Plan): string[] {
  const out: string[] = [];
  forEachPlanBlock(plan, (x, y, z, s, f) => out.push(`${x},${y},${z} ${plan.palette[s]} ${f === 0 ? "-" : JSON.stringify(plan.filters[f - 1])}`));
  return out;
}

/** The tiles say exactly the plan, each a canonical plan of at most `tileBlocks` positions. */
function checkTiles(plan: Plan, tiles: readonly Plan[], tileBlocks: number): void {
  expect(tiles).toHaveLength(Math.ceil(plan.count / tileBlocks));
  expect(tiles.flatMap(positions)).toEqual(positions(plan));
  for (const t of tiles) {
    expect(t.count).toBeLessThanOrEqual(tileBlocks);
    expect(positions(t)).toHaveLength(t.count);
    expect(t.planHash).toBe(planHash(t));
    expect([...t.palette]).toEqual([...t.palette].sort());
    expect(new Set(t.runs.state).size).toBe(t.palette.length); // only the states it uses
    expect(new Set([...t.runs.filter].filter((f) => f > 0)).size).toBe(t.filters.length);
    expect([...t.reads]).toEqual([...plan.reads]);
    let minX = Infinity,
      maxX = -Infinity,
      minY = Infinity,
      maxY = -Infinity,
      minZ = Infinity,
      maxZ = -Infinity;
    forEachPlanBlock(t, (x, y, z) => {
      ((minX = Math.min(minX, x)), (maxX = Math.max(maxX, x)), (minY = Math.min(minY, y)), (maxY = Math.max(maxY, y)));
      ((minZ = Math.min(minZ, z)), (maxZ = Math.max(maxZ, z)));
    });
    expect(t.bounds).toEqual({ minX, minY, minZ, maxX, maxY, maxZ });
  }
}

const cases = fc.tuple(recipeArb, fc.integer({ min: 1, max: 60 }));

describe("big plans cut into tiles", () => {
  it("the tiles are exactly the plan, in its order: each a canonical plan of at most tileBlocks positions, with the plan's reads", () => {
    fc.assert(
      fc.property(cases, ([recipe, tileBlocks]) => {
        const plan = compile(recipe);
        const tiling = new PlanTiles(plan, tileBlocks);
        checkTiles(
          plan,
          Array.from({ length: tiling.count }, (_, i) => tiling.tile(i)),
          tileBlocks,
        );
        // the same plan always gives the same tiles
        expect(tiling.count === 0 ? null : tiling.tile(tiling.count - 1).planHash).toBe(
          tiling.count === 0 ? null : new PlanTiles(plan, tileBlocks).tile(tiling.count - 1).planHash,
        );
      }),
      { numRuns: 300 },
    );
  });

  it("a planted cut that moves the last run of a tile one block along x is caught", () => {
    const moved = (t: Plan): Plan => {
      const x = Int32Array.from(t.runs.x);
      x[x.length - 1]!++;
      return { ...t, runs: { ...t.runs, x } };
    };
    const r = fc.check(
      fc.property(cases, ([recipe, tileBlocks]) => {
        const plan = compile(recipe);
        const tiling = new PlanTiles(plan, tileBlocks);
        checkTiles(
          plan,
          Array.from({ length: tiling.count }, (_, i) => (i === 0 ? moved(tiling.tile(i)) : tiling.tile(i))),
          tileBlocks,
        );
      }),
      { numRuns: 300 },
    );
    expect(r.failed).toBe(true);
  });

  it("refuses a tile out of range and a tile size that is not a positive integer", () => {
    const plan = compile({ version: 1, operations: [{ type: "box", min: { x: 0, y: 0, z: 0 }, max: { x: 9, y: 0, z: 0 }, block: "minecraft:stone" }] });
    const tiling = new PlanTiles(plan, 4);
    expect(tiling.count).toBe(3);
    expect(tiling.tile(2).count).toBe(2);
    expect(() => tiling.tile(3)).toThrow(RangeError);
    expect(() => new PlanTiles(plan, 0)).toThrow(RangeError);
  });
});
