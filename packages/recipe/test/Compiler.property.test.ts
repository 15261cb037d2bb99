import fc from "fast-check";
import { mirrorState, rotateState } from "@mcb/blocks";
import { describe, expect, it } from "vitest";
import { createRecipeCompiler, forEachPlanBlock, OPERATION_TYPES, type Plan } from "../src/index.js";
import { blockMap, compile, GENERATED_TYPES, recipeArb, registry, shuffleKeys } from "./support.js";

function checkInvariants(plan: Plan): void {
  const { x, y, z, length, state, filter } = plan.runs;
  let count = 0;
  const faults: string[] = [];
  for (let r = 0; r < length.length; r++) {
    if (!(length[r]! > 0)) faults.push(`run ${r} empty`);
    if (!(state[r]! < plan.palette.length)) faults.push(`run ${r} state out of palette`);
    if (!(filter[r]! <= plan.filters.length)) faults.push(`run ${r} filter out of range`);
    count += length[r]!;
    if (r > 0) {
      const order = y[r - 1]! - y[r]! || z[r - 1]! - z[r]! || x[r - 1]! + length[r - 1]! - 1 - x[r]!;
      if (!(order < 0)) faults.push(`run ${r} not after run ${r - 1}`);
      // Maximal runs: an adjacent run in the same row must differ in state or filter.
      if (y[r - 1] === y[r] && z[r - 1] === z[r] && x[r - 1]! + length[r - 1]! === x[r] && state[r - 1] === state[r] && filter[r - 1] === filter[r]) {
        faults.push(`run ${r} not maximal`);
      }
    }
  }
  expect(faults).toEqual([]);
  expect(count).toBe(plan.count);
  expect([...plan.palette]).toEqual([...plan.palette].sort());
  const used = new Set(state);
  expect(used.size).toBe(plan.palette.length);
  if (plan.count > 0) {
    const b = plan.bounds!;
    let outside = 0;
    const touched = new Set<string>();
    forEachPlanBlock(plan, (px, py, pz) => {
      if (!(px >= b.minX && px <= b.maxX && py >= b.minY && py <= b.maxY && pz >= b.minZ && pz <= b.maxZ)) outside++;
      if (px === b.minX) touched.add("minX");
      if (px === b.maxX) touched.add("maxX");
      if (py === b.minY) touched.add("minY");
      if (py === b.maxY) touched.add("maxY");
      if (pz === b.minZ) touched.add("minZ");
      if (pz === b.maxZ) touched.add("maxZ");
    });
    expect(outside).toBe(0);
    expect(touched.size).toBe(6);
  } else {
    expect(plan.bounds).toBeNull();
  }
}

describe("compiler properties", () => {
  it("plans are sorted, unique, maximal-run encoded and tightly bounded", () => {
    fc.assert(
      fc.property(recipeArb, (recipe) => checkInvariants(compile(recipe))),
      { numRuns: 300 },
    );
  });

  it("the same recipe in any JSON key order gives the identical hash", () => {
    fc.assert(
      fc.property(recipeArb, fc.integer(), (recipe, seed) => {
        let s = seed >>> 0;
        const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
        const a = compile(recipe);
        const b = compile(JSON.parse(JSON.stringify(shuffleKeys(recipe, rand))));
        expect(b.planHash).toBe(a.planHash);
        expect(blockMap(b)).toEqual(blockMap(a));
      }),
      { numRuns: 200 },
    );
  });

  it("rotating 4×90° is the identity on positions and states", () => {
    const vec = fc.record({ x: fc.integer({ min: -5, max: 5 }), y: fc.constant(0), z: fc.integer({ min: -5, max: 5 }) });
    fc.assert(
      fc.property(recipeArb, vec, (recipe, anchor) => {
        let ops: unknown[] = recipe.operations;
        for (let i = 0; i < 4; i++) ops = [{ type: "transform", anchor, rotate: 90, operations: ops }];
        expect(compile({ ...recipe, operations: ops }).planHash).toBe(compile(recipe).planHash);
      }),
      { numRuns: 150 },
    );
  });

  it("a 90° transform equals rotating every position and state of the plan", () => {
    const reg = registry();
    fc.assert(
      fc.property(recipeArb, fc.constantFrom<0 | 1 | 2 | 3>(1, 2, 3), fc.boolean(), (recipe, turns, mirror) => {
        const base = blockMap(compile(recipe));
        const turned = blockMap(
          compile({ ...recipe, operations: [{ type: "transform", rotate: turns * 90, ...(mirror ? { mirror: "x" } : {}), operations: recipe.operations }] }),
        );
        const expected = new Map<string, string>();
        for (const [key, s] of base) {
          let [x, y, z] = key.split(",").map(Number) as [number, number, number];
          let st = reg.stateOf(s);
          if (mirror) {
            x = -x;
            st = mirrorState(reg, st, "x");
          }
          for (let i = 0; i < turns; i++) [x, z] = [-z, x];
          st = rotateState(reg, st, turns);
          expected.set(`${x + 0},${y},${z + 0}`, st.canonical);
        }
        // Palette picks depend on world position, so compare geometry and non-palette states only.
        expect(new Set(turned.keys())).toEqual(new Set(expected.keys()));
        for (const [k, v] of expected) {
          if (!v.startsWith("minecraft:stone_bricks") && !v.startsWith("minecraft:oak_stairs[facing=")) expect(turned.get(k)).toBe(v);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("mirroring twice across either axis is the identity", () => {
    fc.assert(
      fc.property(recipeArb, fc.constantFrom("x", "z"), (recipe, axis) => {
        const ops = [{ type: "transform", mirror: axis, operations: [{ type: "transform", mirror: axis, operations: recipe.operations }] }];
        expect(compile({ ...recipe, operations: ops }).planHash).toBe(compile(recipe).planHash);
      }),
      { numRuns: 100 },
    );
  });

  it("a reused compiler (shared scratch grid) gives the same plans as fresh compiles", () => {
    const compiler = createRecipeCompiler(registry());
    fc.assert(
      fc.property(fc.array(recipeArb, { minLength: 2, maxLength: 5 }), (recipes) => {
        for (const recipe of recipes) {
          const reused = compiler.compile(recipe);
          expect(reused.ok && reused.value.planHash).toBe(compile(recipe).planHash);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("compiling is deterministic and the seed only affects palette picks", () => {
    fc.assert(
      fc.property(recipeArb, (recipe) => {
        const a = compile(recipe);
        expect(compile(structuredClone(recipe)).planHash).toBe(a.planHash);
        const b = compile({ ...recipe, seed: recipe.seed + 1 });
        expect(new Set(blockMap(b).keys())).toEqual(new Set(blockMap(a).keys()));
      }),
      { numRuns: 100 },
    );
  });
});

describe("the recipe generator the compiler properties draw from", () => {
  it("produces every operation of the schema (a new operation missing from it is caught here)", () => {
    expect([...GENERATED_TYPES].sort()).toEqual([...OPERATION_TYPES].sort());
    const seen = new Set<string>();
    const visit = (ops: readonly { type: string; operations?: readonly never[] }[]): void => {
      for (const op of ops) {
        seen.add(op.type);
        if (op.operations !== undefined) visit(op.operations);
      }
    };
    for (const recipe of fc.sample(recipeArb, { numRuns: 400, seed: 42 })) visit(recipe.operations as { type: string }[]);
    expect([...seen].sort()).toEqual([...OPERATION_TYPES].sort());
  });
});
