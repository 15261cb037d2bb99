import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRecipe, forEachPlanBlock } from "@mcb/recipe";
import { registry } from "../../../blocks/test/registry.js";
import { ConnectionRules, STEP, type Dir } from "../../src/plan/ConnectionRules.js";

/**
 * The recipe's roof operation, checked against what a roof must be rather than against its own
 * formula: slopes step down by the pitch, stairs face up-slope (stepped side outward), the game's
 * own stair rule (StairBlock.getStairsShape, here ConnectionRules) gives every stair the shape the
 * roof wrote, hips have outer corners, and turning the outline by 90° turns the roof.
 */
const reg = registry();
const rules = new ConnectionRules(reg);
type Blocks = Map<string, string>;

interface Roof {
  type: "roof";
  min: { x: number; z: number };
  max: { x: number; z: number };
  y: number;
  style: "gable" | "hip" | "flat";
  axis?: "x" | "z";
  stairs: string;
  slab: string;
  pitch: 1 | 2;
  overhang: number;
}

function build(ops: unknown[]): Blocks {
  const r = compileRecipe(reg, { version: 1, connections: "pinned", operations: ops });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  const out: Blocks = new Map();
  forEachPlanBlock(r.value, (x, y, z, s) => out.set(`${x},${y},${z}`, r.value.palette[s]!));
  return out;
}

const props = (state: string) => reg.stateOf(state).properties;
/** Surface height in half blocks: a stair or a top slab fills its cell's top, a bottom slab half of it. */
const surface = (y: number, state: string) => 2 * y + (props(state).type === "bottom" ? 1 : 2);

/** Highest roof block per column. */
function columns(blocks: Blocks): Map<string, { y: number; state: string }> {
  const top = new Map<string, { y: number; state: string }>();
  for (const [k, state] of blocks) {
    const [x, y, z] = k.split(",").map(Number) as [number, number, number];
    const c = `${x},${z}`;
    if ((top.get(c)?.y ?? -Infinity) < y) top.set(c, { y, state });
  }
  return top;
}

/** Every way the roof can be wrong, as messages (empty: a good roof). */
function faults(roof: Roof, blocks: Blocks): string[] {
  const out: string[] = [];
  const top = columns(blocks);
  const cx = (roof.min.x + roof.max.x) / 2,
    cz = (roof.min.z + roof.max.z) / 2;
  for (const [c, { y, state }] of top) {
    const [x, z] = c.split(",").map(Number) as [number, number];
    const p = props(state);
    if (p.facing === undefined) continue;
    const [dx, dz] = STEP[p.facing as Dir];
    // Up-slope means towards the middle of the outline: the stepped side faces outward.
    if (dx * (cx - x) + dz * (cz - z) <= 0) out.push(`${c}: stair faces ${p.facing}, away from the ridge`);
    // One cell down-slope the roof is lower by the pitch (1 block per cell at pitch 1, half at pitch 2).
    const below = top.get(`${x - dx},${z - dz}`);
    if (below !== undefined && surface(y, state) - surface(below.y, below.state) !== 2 / roof.pitch)
      out.push(`${c}: step down ${surface(y, state) - surface(below.y, below.state)} half blocks`);
    // The game's stair rule agrees with the shape written.
    const game = rules.connect(state, x, y, z, (ax, ay, az) => blocks.get(`${ax},${ay},${az}`));
    if (game !== state) out.push(`${c}: wrote ${state}, the game makes ${game}`);
  }
  return out;
}

const side = fc.integer({ min: 0, max: 9 });
const roofs: fc.Arbitrary<Roof> = fc
  .record({
    x: fc.integer({ min: -20, max: 20 }),
    z: fc.integer({ min: -20, max: 20 }),
    w: side,
    l: side,
    y: fc.integer({ min: 60, max: 80 }),
    style: fc.constantFrom("gable" as const, "hip" as const),
    axis: fc.constantFrom("x" as const, "z" as const),
    pitch: fc.constantFrom(1 as const, 2 as const),
    overhang: fc.integer({ min: 0, max: 2 }),
  })
  .map((r) => ({
    type: "roof",
    min: { x: r.x, z: r.z },
    max: { x: r.x + r.w, z: r.z + r.l },
    y: r.y,
    style: r.style,
    axis: r.axis,
    stairs: "minecraft:spruce_stairs",
    slab: "minecraft:spruce_slab",
    pitch: r.pitch,
    overhang: r.overhang,
  }));

describe("roof operation", () => {
  it("slopes step down by the pitch, stairs face up-slope, the game's stair rule keeps every shape (property)", () => {
    fc.assert(
      fc.property(roofs, (roof) => {
        expect(faults(roof, build([roof]))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("a planted wrong roof is caught: stairs turned to face down-slope, or corners left straight", () => {
    const roof: Roof = {
      type: "roof",
      min: { x: 0, z: 0 },
      max: { x: 6, z: 4 },
      y: 70,
      style: "hip",
      pitch: 1,
      overhang: 1,
      stairs: "minecraft:spruce_stairs",
      slab: "minecraft:spruce_slab",
    };
    const good = build([roof]);
    const flip = { north: "south", south: "north", east: "west", west: "east" } as Record<string, string>;
    const flipped = new Map([...good].map(([k, s]) => [k, s.replace(/facing=(\w+)/, (_, f: string) => `facing=${flip[f]}`)]));
    const straight = new Map([...good].map(([k, s]) => [k, s.replace("outer_right", "straight")]));
    expect(faults(roof, good)).toEqual([]);
    expect(faults(roof, flipped).length).toBeGreaterThan(0);
    expect(faults(roof, straight).some((f) => f.includes("the game makes"))).toBe(true);
  });

  it("hips have outer corners at every corner of the eaves; gables have none and close their ends", () => {
    const hip = build([
      { type: "roof", min: { x: 0, z: 0 }, max: { x: 8, z: 5 }, y: 70, style: "hip", stairs: "spruce_stairs", slab: "spruce_slab", overhang: 1 },
    ]);
    for (const [x, z] of [
      [-1, -1],
      [9, -1],
      [-1, 6],
      [9, 6],
    ] as const)
      expect(hip.get(`${x},69,${z}`)).toMatch(/shape=outer_/);
    // A 9 × 6 outline plus overhang is 11 × 8: even span, so the two middle rows meet; its ends hip down.
    const gable = build([
      {
        type: "roof",
        min: { x: 0, z: 0 },
        max: { x: 8, z: 4 },
        y: 70,
        style: "gable",
        axis: "x",
        stairs: "spruce_stairs",
        slab: "spruce_slab",
        overhang: 0,
        gable_block: "spruce_planks",
      },
    ]);
    expect([...gable.values()].some((s) => s.includes("outer"))).toBe(false);
    // Odd span (5): a slab ridge along x at z = 2, two courses up; the end triangles are planks under it.
    expect(gable.get("4,72,2")).toBe("minecraft:spruce_slab[type=bottom,waterlogged=false]");
    expect(gable.get("0,71,2")).toBe("minecraft:spruce_planks");
    expect(gable.get("0,70,2")).toBe("minecraft:spruce_planks");
    expect(gable.get("4,71,2")).toBeUndefined();
    expect(gable.get("0,70,1")).toBe("minecraft:spruce_planks");
    expect(gable.get("0,71,1")).toMatch(/spruce_stairs\[facing=south/);
  });

  it("turning the outline by 90° turns the roof (property)", () => {
    fc.assert(
      fc.property(roofs, (roof) => {
        const turned = build([{ type: "transform", rotate: 90, operations: [roof] }]);
        // 90° clockwise seen from above: (x, z) ↦ (−z, x); the ridge axis swaps.
        const direct = build([
          { ...roof, min: { x: -roof.max.z, z: roof.min.x }, max: { x: -roof.min.z, z: roof.max.x }, axis: roof.axis === "x" ? "z" : "x" },
        ]);
        expect(turned).toEqual(direct);
      }),
      { numRuns: 200 },
    );
  });

  it("refuses a stairs or slab block that is not one, naming the field", () => {
    const r = compileRecipe(reg, {
      version: 1,
      operations: [{ type: "roof", min: { x: 0, z: 0 }, max: { x: 4, z: 4 }, y: 70, style: "gable", stairs: "stone", slab: "spruce_slab" }],
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: "invalid_request", details: { reason: "roof_block", path: "operations[0].stairs" } });
    const noStairs = compileRecipe(reg, {
      version: 1,
      operations: [{ type: "roof", min: { x: 0, z: 0 }, max: { x: 4, z: 4 }, y: 70, style: "hip", slab: "spruce_slab" }],
    });
    expect(!noStairs.ok && noStairs.error.details?.reason).toBe("roof_block");
  });
});
