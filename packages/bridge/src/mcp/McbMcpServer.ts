import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { BUILDING_GUIDANCE } from "./BuildingGuidance.js";
import { registerBuildTools } from "./BuildTools.js";
import { registerCameraTools } from "./CameraTools.js";
import type { McpContext } from "./McpContext.js";
import { registerSchematicTools } from "./SchematicTools.js";
import { registerTerrainTools } from "./TerrainTools.js";
import { ToolTable } from "./ToolTable.js";
import { registerWorldTools } from "./WorldTools.js";

export const MCP_SERVER_NAME = "minecraft-builder";

/** The 19 tools of the seeds (BRIDGE-README "MCP") over one project, with the building guidance as instructions. */
export function createMcbMcpServer(m: McpContext, version: string): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version }, { instructions: BUILDING_GUIDANCE, capabilities: { tools: {} } });
  const tools = new ToolTable(server, () => m.engine.projectScope(m.ctx));
  registerWorldTools(tools, m);
  registerBuildTools(tools, m);
  registerCameraTools(tools, m);
  registerSchematicTools(tools, m);
  registerTerrainTools(tools, m);
  tools.install();
  return server;
}
