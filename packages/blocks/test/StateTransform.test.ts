import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mirrorState, rotateState, type BlockState, type QuarterTurns } from "../src/index.js";
import { registry } from "./registry.js";

const reg = registry();
const types = [...reg.blockTypes.values()];
const directional = types.filter((t) =>
  t.properties.some((p) => ["facing", "axis", "rotation", "shape", "orientation", "north", "hinge", "type"].includes(p.name)),
);

/** A random valid state of a random block type. */
const anyState = fc.constantFrom(...types).chain((t) =>
  fc.tuple(...t.properties.map((p) => fc.constantFrom(...p.values))).map((values) => {
    const props = Object.fromEntries(t.properties.map((p, i) => [p.name, values[i]!]));
    const text = `${t.id}${
      t.properties.length
        ? `[${Object.entries(props)
            .map(([k, v]) => `${k}=${v}`)
            .join(",")}]`
        : ""
    }`;
    const r = reg.resolveState(text);
    if (!r.ok) throw new Error(text);
    return r.value;
  }),
);
const turns = fc.constantFrom<QuarterTurns>(0, 1, 2, 3);
const state = (s: string): BlockState => {
  const r = reg.resolveState(s);
  if (!r.ok) throw new Error(s);
  return r.value;
};

describe("state rotation and mirroring", () => {
  it("four quarter turns are the identity on every state (property)", () => {
    fc.assert(
      fc.property(anyState, (s) => {
        let t = s;
        for (let i = 0; i < 4; i++) t = rotateState(reg, t, 1);
        expect(t.canonical).toBe(s.canonical);
      }),
      { numRuns: 3_000 },
    );
  });

  it("every block type's default survives 4×90° and double mirrors (exhaustive over types)", () => {
    for (const t of types) {
      const s = state(t.defaultState);
      let r = s;
      for (let i = 0; i < 4; i++) r = rotateState(reg, r, 1);
      expect(r.canonical).toBe(s.canonical);
      expect(mirrorState(reg, mirrorState(reg, s, "x"), "x").canonical).toBe(s.canonical);
      expect(mirrorState(reg, mirrorState(reg, s, "z"), "z").canonical).toBe(s.canonical);
    }
  });

  it("turns compose additively; mirror z equals mirror x then a half turn (property)", () => {
    fc.assert(
      fc.property(anyState, turns, turns, (s, a, b) => {
        const composed = rotateState(reg, rotateState(reg, s, a), b).canonical;
        expect(composed).toBe(rotateState(reg, s, ((a + b) % 4) as QuarterTurns).canonical);
        expect(mirrorState(reg, s, "z").canonical).toBe(rotateState(reg, mirrorState(reg, s, "x"), 2).canonical);
        // Conjugation: M·R = R⁻¹·M.
        expect(mirrorState(reg, rotateState(reg, s, a), "x").canonical).toBe(
          rotateState(reg, mirrorState(reg, s, "x"), ((4 - a) % 4) as QuarterTurns).canonical,
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it("directional blocks are exercised by the generators", () => {
    expect(directional.length).toBeGreaterThan(400);
  });

  it("rotates facing, axis, rotation, rails, multiple faces and orientation clockwise", () => {
    const r = (s: string, t: QuarterTurns = 1) => rotateState(reg, state(s), t).canonical;
    expect(r("oak_stairs[facing=north,shape=inner_left]")).toBe("minecraft:oak_stairs[facing=east,half=bottom,shape=inner_left,waterlogged=false]");
    expect(r("oak_log[axis=x]")).toBe("minecraft:oak_log[axis=z]");
    expect(r("oak_log[axis=y]")).toBe("minecraft:oak_log[axis=y]");
    expect(r("oak_sign[rotation=0]")).toBe("minecraft:oak_sign[rotation=4,waterlogged=false]");
    expect(r("oak_sign[rotation=14]")).toBe("minecraft:oak_sign[rotation=2,waterlogged=false]");
    expect(r("rail[shape=north_east]")).toBe("minecraft:rail[shape=south_east,waterlogged=false]");
    expect(r("rail[shape=ascending_west]")).toBe("minecraft:rail[shape=ascending_north,waterlogged=false]");
    expect(r("powered_rail[shape=north_south]")).toBe("minecraft:powered_rail[powered=false,shape=east_west,waterlogged=false]");
    expect(r("oak_fence[north=true]")).toBe("minecraft:oak_fence[east=true,north=false,south=false,waterlogged=false,west=false]");
    expect(r("cobblestone_wall[north=tall,west=low]")).toBe("minecraft:cobblestone_wall[east=tall,north=low,south=none,up=true,waterlogged=false,west=none]");
    expect(r("vine[north=true,up=true]")).toBe("minecraft:vine[east=true,north=false,south=false,up=true,west=false]");
    expect(r("crafter[orientation=down_east]")).toBe("minecraft:crafter[crafting=false,orientation=down_south,triggered=false]");
    expect(r("observer[facing=up]")).toBe("minecraft:observer[facing=up,powered=false]");
    expect(r("oak_door[hinge=left,facing=west]")).toBe("minecraft:oak_door[facing=north,half=lower,hinge=left,open=false,powered=false]");
  });

  it("mirrors flip handedness: stair corners, door hinges, chest halves", () => {
    const m = (s: string, axis: "x" | "z") => mirrorState(reg, state(s), axis).canonical;
    expect(m("oak_stairs[facing=east,shape=outer_left]", "x")).toBe("minecraft:oak_stairs[facing=west,half=bottom,shape=outer_right,waterlogged=false]");
    expect(m("oak_stairs[facing=north,shape=inner_right]", "x")).toBe("minecraft:oak_stairs[facing=north,half=bottom,shape=inner_left,waterlogged=false]");
    expect(m("oak_door[hinge=left,facing=north]", "z")).toBe("minecraft:oak_door[facing=south,half=lower,hinge=right,open=false,powered=false]");
    expect(m("chest[type=left,facing=east]", "z")).toBe("minecraft:chest[facing=east,type=right,waterlogged=false]");
    expect(m("oak_slab[type=top]", "x")).toBe("minecraft:oak_slab[type=top,waterlogged=false]");
    expect(m("oak_sign[rotation=2]", "x")).toBe("minecraft:oak_sign[rotation=14,waterlogged=false]");
    expect(m("oak_sign[rotation=2]", "z")).toBe("minecraft:oak_sign[rotation=6,waterlogged=false]");
    expect(m("rail[shape=south_east]", "x")).toBe("minecraft:rail[shape=south_west,waterlogged=false]");
  });

  it("facing turns like a position vector (state and coordinate transforms agree)", () => {
    const vec: Record<string, [number, number]> = { north: [0, -1], east: [1, 0], south: [0, 1], west: [-1, 0] };
    const turn = ([x, z]: [number, number]): [number, number] => [z === 0 ? 0 : -z, x];
    fc.assert(
      fc.property(
        anyState.filter((s) => s.properties["facing"] !== undefined && vec[s.properties["facing"]!] !== undefined),
        (s) => {
          const before = vec[s.properties["facing"]!]!;
          const after = vec[rotateState(reg, s, 1).properties["facing"]!]!;
          expect(after).toEqual(turn(before));
          const mirrored = vec[mirrorState(reg, s, "x").properties["facing"]!]!;
          expect(mirrored).toEqual([before[0] === 0 ? 0 : -before[0], before[1]]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
