import { ok, type Result } from "@mcb/blocks";
import type { EngineLimits } from "@mcb/engine";
import { DEFAULT_SCHEMATIC_LIMITS, type SchematicLimits } from "@mcb/schematic";
import { MCB_VERSION, mcpContextFor } from "../workspace/agent/McpContext.js";
import { StdioLineTransport } from "../workspace/agent/StdioLineTransport.js";
import type { Toolset } from "../workspace/agent/Toolsets.js";
import { openWorkspace } from "../workspace/world/OpenWorkspace.js";
import type { AnswerOptions } from "../workspace/agent/AnswerOptions.js";
import { worldKindOf, type WorldLocation } from "../workspace/world/Workspace.js";
import { createMcbMcpServer } from "./McbMcpServer.js";

/**
 * `mcb mcp`: the MCP server over stdio on the world in `where` (schematics in
 * `<state>/schematics`, cameras in `<state>/cameras.json`). `schematicLimits` is the policy: the
 * read limits of every library file, and the most a client may ask for in
 * schematic_import_prepare. stdout carries only the protocol; diagnostics go to stderr. Ends when
 * the client closes stdin and every request it sent has its answer; running operations finish
 * first. SIGINT/SIGTERM end it too: running operations stop after their current slice
 * (`cancelled`, undoable), never left to recovery.
 */
export async function runMcpServer(
  where: WorldLocation,
  schematicLimits: SchematicLimits = DEFAULT_SCHEMATIC_LIMITS,
  limits: Partial<EngineLimits> = {},
  toolsets: readonly Toolset[] = ["build"],
  answers: AnswerOptions = {},
): Promise<Result<void>> {
  const opened = await openWorkspace(where, { limits, create: true, agent: true });
  if (!opened.ok) return opened;
  const w = opened.value;
  const server = createMcbMcpServer(mcpContextFor(w, w.ctx, schematicLimits, { stop: w.interrupt, log: w.log }), MCB_VERSION, { toolsets, ...answers });
  const transport = new StdioLineTransport(process.stdin, process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // A signal is not a crash either: running operations stop after their slice, then we exit.
    w.interrupt.install(resolve);
  });
  await server.connect(transport);
  const info = await w.world.info().catch(() => null);
  const kind = worldKindOf(where.target);
  process.stderr.write(
    kind === "embedded"
      ? `mcb mcp: serving the embedded world in ${w.dir}\n`
      : kind === "save"
        ? `mcb mcp: serving the save ${where.target.savePath!} (held: the game cannot open it meanwhile); journal in ${w.dir}\n`
        : `mcb mcp: serving the server world ${info?.worldId ?? "?"} (${info?.minecraftVersion ?? "?"}) through the world port; journal in ${w.dir}\n`,
  );
  await closed;
  await server.close().catch(() => undefined);
  await w.close();
  return ok(undefined);
}
