// The library's surface: what another program needs to run mcb's front ends over its own world.
// `mcb` itself is composed in Composition.ts (which bin.ts loads alone).
export { main, ATTACH_COMMAND } from "./Composition.js";
export { processIo } from "./cli/Io.js";
export { openWorkspace } from "./workspace/world/OpenWorkspace.js";
export type { OpenOptions, Workspace } from "./workspace/world/Workspace.js";
export { createMcbMcpServer } from "./mcp/McbMcpServer.js";
export { mcpContextFor, type McpContext } from "./workspace/agent/McpContext.js";
export { BUILDING_GUIDANCE } from "./workspace/agent/BuildingGuidance.js";
export { StdioLineTransport } from "./workspace/agent/StdioLineTransport.js";
export { ChatBridge, type ChatBridgeOptions } from "./chat/ChatBridge.js";
export type { ChatMessage, ChatSource } from "./chat/ChatSource.js";
export { agentConfigFrom, type AgentConfig } from "./chat/AgentConfig.js";
export { DEFAULT_AREA_POLICY, type AreaPolicy } from "./chat/ChatAreas.js";
