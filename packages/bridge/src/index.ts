export { compileRecipeFile, readRecipeFile, formatSummary, MAX_RECIPE_FILE_BYTES, type CompileFileOptions } from "./RecipeCommand.js";
export { openEmbeddedWorld, DEFAULT_STATE_DIR, EMBEDDED_AREA, EMBEDDED_PROJECT, type EmbeddedWorld } from "./EmbeddedWorld.js";
export { createMcbMcpServer, MCP_SERVER_NAME } from "./mcp/McbMcpServer.js";
export type { McpContext } from "./mcp/McpContext.js";
export { BUILDING_GUIDANCE } from "./mcp/BuildingGuidance.js";
export { CameraStore } from "./mcp/CameraStore.js";
export { CaptureCache } from "./mcp/CaptureCache.js";
export { TerrainCache } from "./mcp/TerrainCache.js";
export { runMcpServer } from "./McpCommand.js";
