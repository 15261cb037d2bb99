export { compileRecipeFile, readRecipeFile, formatSummary, MAX_RECIPE_FILE_BYTES, type CompileFileOptions } from "./RecipeCommand.js";
export { openEmbeddedWorld, DEFAULT_STATE_DIR, EMBEDDED_AREA, EMBEDDED_PROJECT, type EmbeddedWorld } from "./EmbeddedWorld.js";
