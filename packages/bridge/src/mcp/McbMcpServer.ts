import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { ApplyConsent } from "./ApplyConsent.js";
import type { AnswerOptions } from "../workspace/agent/AnswerOptions.js";
import { BUILDING_GUIDANCE } from "../workspace/agent/BuildingGuidance.js";
import { registerBuildTools } from "./BuildTools.js";
import { registerCameraTools } from "./CameraTools.js";
import { MCB_VERSION, MCP_SERVER_NAME, type McpContext } from "../workspace/agent/McpContext.js";
import { registerSchematicTools } from "./SchematicTools.js";
import { registerTerrainTools } from "./TerrainTools.js";
import { ToolTable } from "./ToolTable.js";
import { registerWorldTools } from "./WorldTools.js";
import { TOOLSET_NAMES, type Toolset } from "../workspace/agent/Toolsets.js";
import { registerToolsetTool } from "./ToolsetTool.js";
import { registerBatchUndo } from "./BatchUndoTool.js";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";

/** Where the building guidance is served as a resource (for clients that hide server instructions). */
export const GUIDANCE_URI = "mcb://guidance/building";

export interface McbMcpServerOptions extends AnswerOptions {
  /** Toolsets listed from the start (build always is); the others wait for toolsets_enable. Default: build only. */
  readonly toolsets?: readonly Toolset[];
}

/**
 * The tools of docs/PROTOCOL.md over one project, in toolsets (build, terrain, schematic), with
 * the building guidance as instructions, as a resource and as a prompt.
 */
export function createMcbMcpServer(m: McpContext, version: string = MCB_VERSION, options: McbMcpServerOptions = {}): McpServer {
  // Tasks (MCP 2025-11-25) for the tools of long jobs, where a client opts in; the others poll.
  const taskStore = new InMemoryTaskStore();
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version },
    {
      instructions: BUILDING_GUIDANCE,
      capabilities: { tools: { listChanged: true }, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore,
    },
  );
  // A finished task is kept for its ttl by a timer; when the session ends nobody can ask for it, and
  // the timer must not keep the process (mcb mcp, mcb serve) from exiting for as long as a client chose.
  server.server.onclose = () => taskStore.cleanup();
  server.registerResource(
    "building_guidance",
    GUIDANCE_URI,
    {
      title: "Building guidance",
      description: "How to build with these tools: workflow, design advice and the exact boundaries (the same text as the server instructions).",
      mimeType: "text/markdown",
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: BUILDING_GUIDANCE }] }),
  );
  server.registerPrompt(
    "building_guidance",
    {
      title: "Build with mcb",
      description: "The building guidance as a prompt, optionally followed by a task.",
      argsSchema: { task: z.string().max(2000).optional().describe('what to build, e.g. "a watchtower by the lake"') },
    },
    async ({ task }) => ({
      messages: [{ role: "user", content: { type: "text", text: task === undefined ? BUILDING_GUIDANCE : `${BUILDING_GUIDANCE}\n\nTask: ${task}` } }],
    }),
  );
  const tools = new ToolTable(server, () => m.engine.projectScope(m.ctx), new Set<Toolset>(["build", ...(options.toolsets ?? [])]), options.textCopy ?? "full");
  registerWorldTools(tools, m);
  const consent = new ApplyConsent(server, m, options.confirmAbove);
  registerBuildTools(tools, m, consent);
  registerBatchUndo(tools, m, consent);
  registerCameraTools(tools, m);
  tools.in("schematic", () => registerSchematicTools(tools, m, consent));
  tools.in("terrain", () => registerTerrainTools(tools, m));
  if (!tools.allEnabled(TOOLSET_NAMES)) registerToolsetTool(tools);
  tools.install();
  return server;
}
