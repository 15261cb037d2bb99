// Materials and recipes from your own code (docs/LIBRARY.md).
import { readFileSync } from "node:fs";
import { createBlockRegistry, createMaterialCatalog, describeMaterial, searchMaterials } from "@mcb/blocks";
import { compileRecipe, createRecipeCompiler, summarizePlan } from "@mcb/recipe";

const registry = createBlockRegistry(); // Result<BlockRegistry>, default 26.2 ({ version: "26.1" } for 26.1)
if (!registry.ok) throw new Error(registry.error.message);
const catalog = createMaterialCatalog(registry.value);
console.log(searchMaterials(catalog, { query: "spruce trapdoor" })); // {catalog_version, query, kind, total, results, next_cursor?}
console.log(describeMaterial(catalog, "minecraft:spruce_trapdoor")); // default_state, properties, behavior
const recipeJson: unknown = JSON.parse(readFileSync("examples/tower.json", "utf8"));
const plan = compileRecipe(registry.value, recipeJson); // Result<Plan>
if (plan.ok) console.log(summarizePlan(plan.value));

// Long-lived processes: one compiler keeps its grid memory between calls (same plans, fewer page faults).
const compiler = createRecipeCompiler(registry.value);
const again = compiler.compile(recipeJson);
console.log(again.ok && plan.ok && again.value.planHash === plan.value.planHash); // true: plans are deterministic
