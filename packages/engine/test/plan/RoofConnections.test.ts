import { describe, expect, it } from "vitest";
import { forEachPlanBlock, compileRecipe } from "@mcb/recipe";
import { unwrap } from "@mcb/property-tests";
import { harnessPool } from "../harnesses.js";

/**
 * A roof over several rectangles is written as the game would shape its stairs: after an auto
 * build (connections computed by the game's StairBlock rule from the neighbours) every stair
 * raises the same quarters as the recipe's own piece (the game may name an equivalent form:
 * outer_left facing F is outer_right facing counter-clockwise of F).
 */
const harness = harnessPool();
type Dir = "north" | "east" | "south" | "west";
const CW: Record<Dir, Dir> = { north: "east", east: "south", south: "west", west: "north" };
const CCW: Record<Dir, Dir> = { north: "west", west: "south", south: "east", east: "north" };
const OPP: Record<Dir, Dir> = { north: "south", south: "north", east: "west", west: "east" };
const quarter = (a: Dir, b: Dir): string => [a, b].sort().join("+");

/** The raised quarters of a bottom stair: its back half, plus or minus a quarter by its shape. */
function raised(props: Record<string, string>): string[] {
  const f = props.facing as Dir,
    shape = props.shape!;
  const back = [quarter(f, CW[f]), quarter(f, CCW[f])];
  if (shape === "straight") return back.sort();
  if (shape === "outer_right") return [quarter(f, CW[f])];
  if (shape === "outer_left") return [quarter(f, CCW[f])];
  return [...back, shape === "inner_right" ? quarter(OPP[f], CW[f]) : quarter(OPP[f], CCW[f])].sort();
}

const FOOTPRINTS = {
  L: [
    [0, 0, 9, 4],
    [0, 0, 4, 9],
  ],
  T: [
    [0, 0, 12, 4],
    [4, 0, 8, 11],
  ],
  U: [
    [0, 0, 12, 4],
    [0, 0, 4, 10],
    [8, 0, 12, 10],
  ],
  cross: [
    [0, 4, 14, 8],
    [5, 0, 9, 12],
  ],
} as const;

describe("roofs over several rectangles, built", () => {
  for (const [name, rects] of Object.entries(FOOTPRINTS))
    for (const style of ["hip", "gable"] as const)
      it(`${name} ${style}: every stair has the quarters the game gives it`, async () => {
        const h = await harness({ area: { minX: -64, minY: 0, minZ: -64, maxX: 64, maxY: 200, maxZ: 64 } });
        const recipe = {
          version: 1,
          operations: [
            {
              type: "roof",
              y: 70,
              style,
              stairs: "minecraft:oak_stairs",
              slab: "minecraft:oak_slab",
              footprint: rects.map(([x0, z0, x1, z1]) => ({ min: { x: x0, z: z0 }, max: { x: x1, z: z1 } })),
            },
          ],
        };
        const plan = compileRecipe(h.registry, recipe);
        if (!plan.ok) throw new Error(plan.error.message);
        await h.build(recipe);
        let stairs = 0;
        forEachPlanBlock(plan.value, (x, y, z, s) => {
          const mine = h.registry.stateOf(plan.value.palette[s]!);
          if (!mine.id.endsWith("_stairs")) return;
          stairs++;
          const game = h.registry.stateOf(h.world.stateAt(x, y, z));
          expect(raised(game.properties), `${x} ${y} ${z}: ${mine.canonical} built as ${game.canonical}`).toEqual(raised(mine.properties));
        });
        expect(stairs).toBeGreaterThan(20);
        expect(unwrap(await h.engine.operationList(h.agent, {})).operations[0]!.status).toBe("applied");
      });
});
