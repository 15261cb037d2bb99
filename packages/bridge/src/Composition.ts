import { fileURLToPath } from "node:url";
import { createMain, type Main } from "./cli/Main.js";
import { MCB_VERSION } from "./workspace/agent/McpContext.js";
import { TOOLSET_NAMES } from "./workspace/agent/Toolsets.js";

// The composition root: the one place that sees every room. cli/, mcp/ and chat/ import
// workspace/ and never each other; the command line reaches the MCP server and the chat through
// the rooms passed here, and the chat reaches the MCP tools through the server factory.
// The MCP server and the chat are loaded when their command runs: with their protocol SDKs they
// are half of a start (0.27 s of 0.64 here), which every other command (and the tests' hundreds of
// runs) would pay for nothing.

/** The command an agent of `mcb chat` runs to reach the chat's MCP relay (`ChatBridgeOptions.attachCommand`). */
export const ATTACH_COMMAND = { command: process.execPath, args: [fileURLToPath(new URL("./bin.js", import.meta.url)), "mcp", "--attach"] } as const;

/** `mcb` as a function: `main(argv, {stdout, stderr, env})` → exit status (see `createMain`). */
export const main: Main = createMain({
  mcp: async (where, policy, limits, toolsets, answers) => (await import("./mcp/McpCommand.js")).runMcpServer(where, policy, limits, toolsets, answers),
  attach: async (env) => (await import("./chat/McpAttach.js")).attachToChat(env),
  chat: async (where, options) => {
    const [{ runChat }, { createMcbMcpServer }] = await Promise.all([import("./chat/ChatCommand.js"), import("./mcp/McbMcpServer.js")]);
    return runChat(where, {
      ...options,
      mcpServer: (context) => createMcbMcpServer(context, MCB_VERSION, { toolsets: TOOLSET_NAMES }),
      attachCommand: ATTACH_COMMAND,
    });
  },
  doctor: async (where) => (await import("./chat/Doctor.js")).doctorReport(where),
});
