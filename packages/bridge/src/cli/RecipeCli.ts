import { compileRecipeFile } from "../workspace/jobs/RecipeFiles.js";
import type { Command } from "./Command.js";
import { formatSummary } from "./Format.js";

export const recipeCommand: Command = {
  name: "recipe",
  usage: "  mcb recipe compile <recipe.json> [--json] [--mc-version <version>]   the plan a recipe compiles to (no world)",
  async run(c) {
    const [action, file, ...extra] = c.args;
    if (action !== "compile") return c.usage(action === undefined ? "missing the action (compile)" : `unknown action "${action}"`);
    if (file === undefined) return c.usage("missing the recipe file");
    if (extra.length > 0) return c.usage(`unexpected ${JSON.stringify(extra[0])}`);
    const v = c.values["mc-version"];
    return c.emit(await compileRecipeFile(file, typeof v === "string" ? { minecraftVersion: v } : {}), formatSummary);
  },
};
