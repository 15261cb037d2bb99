// Issue 2 target: compiling a 100,000-block recipe costs at most 3× a baseline loop that writes
// the same positions into a typed array.
import { createBlockRegistry } from "@mcb/blocks";
import { compileRecipe, createRecipeCompiler, forEachPlanBlock, planHash } from "@mcb/recipe";
import { compare, row } from "./timing.mjs";

const v = (x, y, z) => ({ x, y, z });
const towers = (block) => ({
  type: "repeat",
  count: 4,
  offset: v(36, 0, 0),
  operations: [
    { type: "cylinder", center: v(6, 1, 6), radius: 6, height: 44, block, hollow: true },
    {
      type: "transform",
      anchor: v(60, 0, 60),
      rotate: 180,
      operations: [{ type: "cylinder", center: v(6, 1, 6), radius: 6, height: 44, block, hollow: true }],
    },
  ],
});
const stairs = {
  type: "repeat",
  count: 30,
  offset: v(0, 1, 0),
  operations: [{ type: "line", from: v(1, 1, 1), to: v(118, 1, 118), block: "minecraft:oak_stairs[facing=east]" }],
};
const keep = { type: "box", min: v(0, 0, 0), max: v(119, 0, 119), block: "minecraft:smooth_stone" };

const palette = {
  wall: {
    choices: [
      { block: "minecraft:stone_bricks", weight: 5 },
      { block: "minecraft:mossy_stone_bricks", weight: 1 },
    ],
  },
};
const castle = (block) => [keep, { type: "box", min: v(0, 1, 0), max: v(119, 52, 119), block, hollow: true }, towers("minecraft:deepslate_bricks"), stairs];

/** Issue 13: every shape ≤3× the typed-array baseline of the same positions. */
const RECIPES = [
  { name: "solid box 100×10×100", recipe: { version: 1, operations: [{ type: "box", min: v(0, 0, 0), max: v(99, 9, 99), block: "minecraft:stone" }] } },
  {
    name: "hollow box 120×53×120",
    recipe: { version: 1, operations: [{ type: "box", min: v(0, 0, 0), max: v(119, 52, 119), block: "minecraft:stone_bricks", hollow: true }] },
  },
  {
    name: "cylinder r 28, 38 high",
    recipe: { version: 1, operations: [{ type: "cylinder", center: v(0, 0, 0), radius: 28, height: 38, block: "minecraft:sandstone" }] },
  },
  {
    name: "arch 200 wide, 60 high, 12 deep, 5 thick",
    recipe: { version: 1, operations: [{ type: "arch", min: v(0, 0, 0), max: v(199, 59, 11), axis: "x", block: "minecraft:stone_bricks", thickness: 5 }] },
  },
  { name: "castle: hollow walls, 8 towers, stair lines", recipe: { version: 1, operations: castle("minecraft:stone_bricks") } },
  { name: "same castle, walls from a seeded 2-block palette", recipe: { version: 1, seed: 3, palettes: palette, operations: castle({ palette: "wall" }) } },
  {
    name: "1,024 copies (32 × 32 repeat) of a 2×6×2 pillar",
    recipe: {
      version: 1,
      operations: [
        {
          type: "repeat",
          count: 32,
          offset: v(4, 0, 0),
          operations: [
            {
              type: "repeat",
              count: 32,
              offset: v(0, 0, 4),
              operations: [{ type: "box", min: v(0, 0, 0), max: v(1, 5, 1), block: "minecraft:oak_log[axis=y]" }],
            },
          ],
        },
      ],
    },
  },
].map((r) => ({ ...r, target: 3 }));

/** The agent's common case: a small house (floor, hollow walls, door gap, roof) of about 1,000 blocks. */
const HOUSE = {
  version: 1,
  operations: [
    { type: "box", min: v(0, 0, 0), max: v(11, 0, 9), block: "minecraft:oak_planks" },
    { type: "box", min: v(0, 1, 0), max: v(11, 6, 9), block: "minecraft:cobblestone", hollow: true },
    { type: "box", min: v(5, 1, 0), max: v(6, 3, 0), block: "minecraft:air" },
    { type: "repeat", count: 6, offset: v(0, 1, 0), operations: [{ type: "box", min: v(0, 7, 0), max: v(11, 7, 9), block: "minecraft:spruce_planks" }] },
    { type: "line", from: v(0, 7, 0), to: v(11, 7, 0), block: "minecraft:oak_stairs[facing=south]" },
  ],
};

export async function run() {
  const reg = createBlockRegistry();
  if (!reg.ok) throw new Error(reg.error.message);
  let ok = true;
  for (const { name, recipe, target } of RECIPES) {
    const plan = compileRecipe(reg.value, recipe);
    if (!plan.ok) throw new Error(JSON.stringify(plan.error));
    const positions = [];
    forEachPlanBlock(plan.value, (x, y, z) => positions.push(x, y, z));
    const source = Int32Array.from(positions);
    const n = source.length / 3;
    // Baseline: write the same positions into a typed array (no parsing, dedupe, sorting or hashing).
    const baseline = () => {
      const out = new Int32Array(source.length);
      for (let i = 0; i < n; i++) {
        out[i * 3] = source[i * 3];
        out[i * 3 + 1] = source[i * 3 + 1];
        out[i * 3 + 2] = source[i * 3 + 2];
      }
      return out;
    };
    // A long-lived compiler, as the engine holds one: its grid memory is reused between calls.
    const compiler = createRecipeCompiler(reg.value);
    const { baselineMs, candidateMs } = compare(baseline, () => compiler.compile(recipe));
    ok = row(`compile ${name} (${n} blocks)`, candidateMs, baselineMs, target) && ok;
    // The canonical plan hash alone (SHA-256 over 24 bytes per run, format mcb-plan/1): a floor
    // no compiler can go under without changing every plan's hash.
    const { baselineMs: b2, candidateMs: hashMs } = compare(baseline, () => planHash(plan.value));
    console.log(
      `  of which the plan hash of its ${plan.value.runs.length.length} runs alone: ${hashMs.toFixed(3)} ms = ${(hashMs / b2).toFixed(2)}× the baseline`,
    );
  }
  const compiler = createRecipeCompiler(reg.value);
  const house = compiler.compile(HOUSE);
  if (!house.ok) throw new Error(JSON.stringify(house.error));
  const { candidateMs } = compare(
    () => {},
    () => compiler.compile(HOUSE),
    { runs: 201, warmup: 50 },
  );
  console.log(
    `compile a ${house.value.count}-block house recipe: ${(1000 / candidateMs).toFixed(0)} plans/s (${(candidateMs * 1000).toFixed(0)} µs each)  (reported)`,
  );
  return ok;
}
