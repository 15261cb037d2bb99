import fc from "fast-check";
import { registry } from "../../blocks/test/registry.js";
import { compileRecipe, forEachPlanBlock, type CompileOptions, type Operation, type Plan } from "../src/index.js";

export { registry };

export function compile(recipe: unknown, options?: CompileOptions): Plan {
  const r = compileRecipe(registry(), recipe, options);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

/** Position key → canonical state. */
export function blockMap(plan: Plan): Map<string, string> {
  const out = new Map<string, string>();
  forEachPlanBlock(plan, (x, y, z, s) => out.set(`${x},${y},${z}`, plan.palette[s]!));
  return out;
}

export const BLOCKS = [
  "minecraft:stone",
  "minecraft:oak_planks",
  "minecraft:oak_log[axis=x]",
  "minecraft:oak_stairs[facing=east,shape=outer_left]",
  "minecraft:rail[shape=north_east]",
  "minecraft:oak_fence[north=true,west=true]",
  "minecraft:oak_sign[rotation=3]",
  "minecraft:air",
];

const small = fc.integer({ min: -6, max: 6 });
const vec = fc.record({ x: small, y: small, z: small });
const block = fc.oneof(fc.constantFrom(...BLOCKS), fc.constant({ palette: "mix" }));

type OperationType = Operation["type"];
type Nested = "repeat" | "transform";

/**
 * One generator per operation type that has no nested operations, keyed by the type: the mapped
 * type makes a type of the schema missing here a compile error (and `OPERATION_TYPES` a test
 * failure, `Compiler.property.test.ts`), so every compiler property sees every operation.
 */
const leaves: { readonly [T in Exclude<OperationType, Nested>]: fc.Arbitrary<{ type: T }> } = {
  box: fc.oneof(
    fc.record({ type: fc.constant("box"), min: vec, max: vec, block, hollow: fc.constantFrom(false, true, "walls") }),
    fc.record({
      type: fc.constant("box"),
      min: vec,
      max: vec,
      block,
      hollow: fc.constantFrom(false, true, "walls"),
      exclude: fc.array(fc.record({ min: vec, max: vec }), { minLength: 1, maxLength: 2 }),
    }),
  ),
  blocks: fc.record({
    type: fc.constant("blocks"),
    blocks: fc.uniqueArray(fc.record({ x: small, y: small, z: small, block }), { minLength: 1, maxLength: 6, selector: (b) => `${b.x},${b.y},${b.z}` }),
  }),
  roof: fc.record({
    type: fc.constant("roof"),
    min: fc.record({ x: small, z: small }),
    max: fc.record({ x: small, z: small }),
    y: small,
    style: fc.constantFrom("gable", "hip", "flat"),
    axis: fc.constantFrom("x", "z"),
    stairs: fc.constant("minecraft:spruce_stairs"),
    slab: fc.constant("minecraft:spruce_slab"),
    pitch: fc.constantFrom(1, 2),
    overhang: fc.integer({ min: 0, max: 2 }),
    gable_block: fc.constantFrom("minecraft:spruce_planks", { palette: "mix" }),
  }),
  line: fc.record({ type: fc.constant("line"), from: vec, to: vec, block }),
  cylinder: fc.record({
    type: fc.constant("cylinder"),
    center: vec,
    radius: fc.integer({ min: 0, max: 4 }),
    height: fc.integer({ min: 1, max: 4 }),
    block,
    hollow: fc.boolean(),
    axis: fc.constantFrom("x", "y", "z"),
  }),
  arch: fc.record({ type: fc.constant("arch"), min: vec, max: vec, axis: fc.constantFrom("x", "z"), block, thickness: fc.integer({ min: 1, max: 3 }) }),
  replace: fc.oneof(
    fc.record({ type: fc.constant("replace"), min: vec, max: vec, from: fc.constant(["minecraft:stone", "minecraft:oak_log[axis=z]"]), block }),
    fc.record({
      type: fc.constant("replace"),
      min: vec,
      max: vec,
      from: fc.constant(["minecraft:stone"]),
      block,
      exclude: fc.array(fc.record({ min: vec, max: vec }), { minLength: 1, maxLength: 2 }),
    }),
  ),
};

/** The operation types the generators below produce (compared with the schema's in a test). */
export const GENERATED_TYPES: readonly OperationType[] = [...(Object.keys(leaves) as OperationType[]), "repeat", "transform"];

const leaf = fc.oneof(...Object.values(leaves));

/** Small recipes over a tiny arena (so operations overlap), nested up to three levels. */
export const recipeArb = fc.letrec((tie) => ({
  op: fc.oneof(
    { maxDepth: 3, depthSize: "small", withCrossShrink: true },
    leaf,
    fc.record({
      type: fc.constant("repeat"),
      count: fc.integer({ min: 1, max: 3 }),
      offset: vec,
      operations: fc.array(tie("op"), { minLength: 1, maxLength: 3 }),
    }),
    fc
      .record({
        type: fc.constant("transform"),
        anchor: vec,
        rotate: fc.constantFrom(0, 90, 180, 270),
        mirror: fc.constantFrom("x", "z", undefined),
        translate: vec,
        operations: fc.array(tie("op"), { minLength: 1, maxLength: 3 }),
      })
      .map((t) => {
        const { mirror, ...rest } = t;
        return mirror === undefined ? rest : { ...rest, mirror };
      }),
  ),
  recipe: fc.record({
    version: fc.constant(1),
    seed: fc.integer({ min: 0, max: 1000 }),
    palettes: fc.constant({
      mix: {
        choices: [
          { block: "minecraft:stone_bricks", weight: 3 },
          { block: "minecraft:oak_stairs[facing=north]", weight: 1 },
        ],
      },
    }),
    operations: fc.array(tie("op"), { minLength: 1, maxLength: 4 }),
  }),
})).recipe;

/** Rebuilds a JSON value with every object's keys in a random order. */
export function shuffleKeys(value: unknown, rand: () => number): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, rand));
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [entries[i], entries[j]] = [entries[j]!, entries[i]!];
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, shuffleKeys(v, rand)]));
  }
  return value;
}
