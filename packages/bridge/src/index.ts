export { compileRecipeFile, formatSummary, MAX_RECIPE_FILE_BYTES, type CompileFileOptions } from "./RecipeCommand.js";
