import { fileURLToPath } from "node:url";
import { runChat } from "./chat/ChatCommand.js";
import { doctorReport } from "./chat/Doctor.js";
import { attachToChat } from "./chat/McpAttach.js";
import { createMain, type Main } from "./cli/Main.js";
import { createMcbMcpServer } from "./mcp/McbMcpServer.js";
import { runMcpServer } from "./mcp/McpCommand.js";
import { MCB_VERSION } from "./workspace/McpContext.js";
import { TOOLSET_NAMES } from "./workspace/Toolsets.js";

// The composition root: the one place that sees every room. cli/, mcp/ and chat/ import
// workspace/ and never each other; the command line reaches the MCP server and the chat through
// the rooms passed here, and the chat reaches the MCP tools through the server factory.

/** The command an agent of `mcb chat` runs to reach the chat's MCP relay (`ChatBridgeOptions.attachCommand`). */
export const ATTACH_COMMAND = { command: process.execPath, args: [fileURLToPath(new URL("./bin.js", import.meta.url)), "mcp", "--attach"] } as const;

/** `mcb` as a function: `main(argv, {stdout, stderr, env})` → exit status (see `createMain`). */
export const main: Main = createMain({
  mcp: (where, policy, limits, toolsets) => runMcpServer(where, policy, limits, toolsets),
  attach: (env) => attachToChat(env),
  chat: (where, options) =>
    runChat(where, {
      ...options,
      mcpServer: (context) => createMcbMcpServer(context, MCB_VERSION, { toolsets: TOOLSET_NAMES }),
      attachCommand: ATTACH_COMMAND,
    }),
  doctor: (where) => doctorReport(where),
});

export { processIo, type CliIo, type CliOut } from "./cli/Io.js";
export { compileRecipeFile, readRecipeFile, MAX_RECIPE_FILE_BYTES, type CompileFileOptions } from "./workspace/RecipeFiles.js";
export { openWorkspace } from "./workspace/OpenWorkspace.js";
export { DEFAULT_STATE_DIR, EMBEDDED_AREA, EMBEDDED_PROJECT, type OpenOptions, type Workspace, type WorldLocation } from "./workspace/Workspace.js";
export { createMcbMcpServer, GUIDANCE_URI, type McbMcpServerOptions } from "./mcp/McbMcpServer.js";
export { TOOLSETS, TOOLSET_NAMES, parseToolsets, type Toolset } from "./workspace/Toolsets.js";
export { MCB_VERSION, MCP_SERVER_NAME, mcpContextFor, type McpContext } from "./workspace/McpContext.js";
export { BUILDING_GUIDANCE } from "./workspace/BuildingGuidance.js";
export { CameraStore } from "./workspace/CameraStore.js";
export { CaptureCache } from "./workspace/CaptureCache.js";
export { TerrainCache } from "./workspace/TerrainCache.js";
export { runMcpServer } from "./mcp/McpCommand.js";
export { StdioLineTransport, MAX_LINE_BYTES, type StdioLineTransportOptions } from "./workspace/StdioLineTransport.js";
export { ChatBridge, type ChatBridgeOptions } from "./chat/ChatBridge.js";
export type { ChatMessage, ChatSource } from "./chat/ChatSource.js";
export { runChat, type ChatOptions } from "./chat/ChatCommand.js";
export { doctorReport } from "./chat/Doctor.js";
export { agentConfigFrom, type AgentConfig } from "./chat/AgentConfig.js";
export { DEFAULT_AREA_POLICY, type AreaPolicy } from "./chat/ChatAreas.js";
