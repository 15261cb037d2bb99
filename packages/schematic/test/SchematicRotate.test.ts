import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rotateState, type QuarterTurns } from "@mcb/blocks";
import { forEachPlanBlock } from "@mcb/recipe";
import { rotateSchematic, schematicToPlan, writeSchematic, type Schematic } from "../src/index.js";
import { contents, registry, states } from "./support.js";

const arb = fc
  .record({
    width: fc.integer({ min: 1, max: 6 }),
    height: fc.integer({ min: 1, max: 3 }),
    length: fc.integer({ min: 1, max: 6 }),
    offset: fc.record({ x: fc.integer({ min: -20, max: 20 }), y: fc.integer({ min: -5, max: 5 }), z: fc.integer({ min: -20, max: 20 }) }),
    seed: fc.array(fc.nat({ max: 6 }), { minLength: 1, maxLength: 100 }),
  })
  .map(({ width, height, length, offset, seed }): Schematic => {
    const n = width * height * length;
    const blocks = new Uint32Array(n).map((_, i) => seed[i % seed.length]!);
    return { width, height, length, offset, dataVersion: 4786, palette: states(), blocks, blockEntities: [] };
  });
const turnsArb = fc.constantFrom<QuarterTurns>(0, 1, 2, 3);

function turn(x: number, z: number, t: number): [number, number] {
  for (let i = 0; i < t; i++) [x, z] = [0 - z, x];
  return [x, z];
}

describe("schematic rotation", () => {
  it("four quarter turns give the same bytes back (property)", () => {
    fc.assert(
      fc.property(arb, (s) => {
        let r = s;
        for (let i = 0; i < 4; i++) r = rotateSchematic(registry(), r, 1);
        expect(writeSchematic(r).equals(writeSchematic(s))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("a turn of a then b equals a turn of a + b (property)", () => {
    fc.assert(
      fc.property(arb, turnsArb, turnsArb, (s, a, b) => {
        const ab = rotateSchematic(registry(), rotateSchematic(registry(), s, a), b);
        const once = rotateSchematic(registry(), s, ((a + b) % 4) as QuarterTurns);
        expect(writeSchematic(ab).equals(writeSchematic(once))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("every block moves like a position vector about the anchor and its state turns with it (property)", () => {
    fc.assert(
      fc.property(arb, turnsArb, (s, t) => {
        const r = rotateSchematic(registry(), s, t);
        const moved = contents(r, true);
        for (const [key, state] of contents(s, true)) {
          const [x, y, z] = key.split(",").map(Number) as [number, number, number];
          const [rx, rz] = turn(x, z, t);
          expect(moved.get(`${rx},${y},${rz}`)).toBe(rotateState(registry(), registry().stateOf(state), t).canonical);
        }
        expect(moved.size).toBe(s.width * s.height * s.length);
      }),
      { numRuns: 150 },
    );
  });

  it("stairs facing east face south after 90° clockwise, logs along x lie along z", () => {
    const s: Schematic = {
      width: 2,
      height: 1,
      length: 1,
      offset: { x: 0, y: 0, z: 0 },
      dataVersion: 4786,
      palette: [states()[3]!, states()[2]!],
      blocks: Uint32Array.from([0, 1]),
      blockEntities: [],
    };
    const r = rotateSchematic(registry(), s, 1);
    expect(r).toMatchObject({ width: 1, length: 2, offset: { x: 0, y: 0, z: 0 } });
    const c = contents(r, true);
    expect(c.get("0,0,0")).toContain("facing=south");
    expect(c.get("0,0,1")).toBe("minecraft:oak_log[axis=z]");
  });

  it("a paste plan holds every position, air included, at target + offset after the turn", () => {
    fc.assert(
      fc.property(
        arb,
        turnsArb,
        fc.record({ x: fc.integer({ min: -100, max: 100 }), y: fc.integer({ min: 0, max: 100 }), z: fc.integer({ min: -100, max: 100 }) }),
        (s, t, target) => {
          const plan = schematicToPlan(registry(), s, { target, turns: t });
          if (!plan.ok) throw new Error(plan.error.message);
          const got = new Map<string, string>();
          forEachPlanBlock(plan.value, (x, y, z, st) => got.set(`${x},${y},${z}`, plan.value.palette[st]!));
          const want = new Map<string, string>();
          for (const [key, state] of contents(rotateSchematic(registry(), s, t), true)) {
            const [x, y, z] = key.split(",").map(Number) as [number, number, number];
            want.set(`${x + target.x},${y + target.y},${z + target.z}`, state);
          }
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("schematic from a compiled plan", () => {
  it("pasting the schematic of a plan at its origin rewrites the same blocks, air elsewhere in the bounds", async () => {
    const { compileRecipe } = await import("@mcb/recipe");
    const { schematicFromPlan } = await import("../src/index.js");
    const recipe = {
      version: 1,
      operations: [
        { type: "box", min: { x: 3, y: 64, z: -2 }, max: { x: 5, y: 67, z: 0 }, block: "minecraft:stone_bricks", hollow: true },
        { type: "line", from: { x: 3, y: 68, z: -2 }, to: { x: 5, y: 68, z: 0 }, block: "minecraft:oak_stairs[facing=east]" },
      ],
    };
    const plan = compileRecipe(registry(), recipe);
    if (!plan.ok) throw new Error(plan.error.message);
    const s = schematicFromPlan(plan.value, { origin: { x: 3, y: 64, z: -2 } });
    if (!s.ok) throw new Error(s.error.message);
    expect(s.value).toMatchObject({ width: 3, height: 5, length: 3, offset: { x: 0, y: 0, z: 0 } });
    const paste = schematicToPlan(registry(), s.value, { target: { x: 3, y: 64, z: -2 } });
    if (!paste.ok) throw new Error(paste.error.message);
    const want = new Map<string, string>();
    forEachPlanBlock(plan.value, (x, y, z, st) => want.set(`${x},${y},${z}`, plan.value.palette[st]!));
    let air = 0;
    forEachPlanBlock(paste.value, (x, y, z, st) => {
      const state = paste.value.palette[st]!;
      if (want.has(`${x},${y},${z}`)) expect(state).toBe(want.get(`${x},${y},${z}`));
      else (expect(state).toBe("minecraft:air"), air++);
    });
    expect(paste.value.count).toBe(45);
    expect(air).toBe(45 - want.size);
    const tooBig = schematicFromPlan(plan.value, { maxPositions: 44 });
    expect(tooBig).toMatchObject({ ok: false, error: { code: "budget_exceeded" } });
  });
});
