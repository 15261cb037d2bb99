import { fileURLToPath } from "node:url";
import { createMain, type Main } from "./cli/Main.js";
import { MCB_VERSION } from "./workspace/agent/McpContext.js";
import { TOOLSET_NAMES } from "./workspace/agent/Toolsets.js";
import type { WorldService } from "./workspace/world/Workspace.js";

// The composition root: the one place that sees every room. cli/, mcp/ and chat/ import
// workspace/ and never each other; the command line reaches the MCP server and the chat through
// the rooms passed here, and the chat reaches the MCP tools through the server factory.
// The MCP server and the chat are loaded when their command runs: with their protocol SDKs they
// are half of a start (0.27 s of 0.64 here), which every other command (and the tests' hundreds of
// runs) would pay for nothing.

/** The command an agent of `mcb chat` runs to reach the chat's MCP relay (`ChatBridgeOptions.attachCommand`). */
export const ATTACH_COMMAND = { command: process.execPath, args: [fileURLToPath(new URL("./bin.js", import.meta.url)), "mcp", "--attach"] } as const;

/**
 * What the process holding a world runs for a caller (another mcb process on its state directory):
 * the caller's command line through the same `main`, on the held world, with the caller's streams,
 * working directory and MCB_ variables, its operations attributed to it.
 */
const service: WorldService = (w, c) =>
  main(c.request.argv, {
    stdout: c.stdout,
    stderr: c.stderr,
    stdin: c.stdin,
    env: { ...process.env, ...c.request.env },
    cwd: c.request.cwd,
    held: { workspace: w, command: c },
  });

/** `mcb` as a function: `main(argv, {stdout, stderr, env})` → exit status (see `createMain`). */
export const main: Main = createMain(
  {
    mcp: async (where, policy, limits, toolsets, answers, host) =>
      (await import("./mcp/McpCommand.js")).runMcpServer(where, policy, limits, toolsets, answers, host, service),
    serve: async (where, options, host) => (await import("./mcp/ServeCommand.js")).runServe(where, options, host, service),
    attach: async (env) => (await import("./chat/McpAttach.js")).attachToChat(env),
    chat: async (where, options, host) => {
      const [{ runChat }, { createMcbMcpServer }] = await Promise.all([import("./chat/ChatCommand.js"), import("./mcp/McbMcpServer.js")]);
      return runChat(
        where,
        {
          ...options,
          mcpServer: (context) => createMcbMcpServer(context, MCB_VERSION, { toolsets: TOOLSET_NAMES }),
          attachCommand: ATTACH_COMMAND,
        },
        host,
        service,
      );
    },
    doctor: async (where) => (await import("./chat/Doctor.js")).doctorReport(where),
  },
  service,
);
