import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ok, type Result } from "@mcb/blocks";
import type { Engine, EngineLimits } from "@mcb/engine";
import { DEFAULT_SCHEMATIC_LIMITS, type SchematicLimits } from "@mcb/schematic";
import { MCB_VERSION, mcpContextFor, sharedStoresFor } from "../workspace/agent/McpContext.js";
import { StdioLineTransport } from "../workspace/agent/StdioLineTransport.js";
import type { Toolset } from "../workspace/agent/Toolsets.js";
import type { AnswerOptions } from "../workspace/agent/AnswerOptions.js";
import { worldKindOf, type Workspace, type WorldLocation, type WorldService } from "../workspace/world/Workspace.js";
import { roomWorld } from "../workspace/holder/RoomWorld.js";
import { actingThrough, type RoomHost } from "../workspace/holder/HeldWorld.js";
import { Interrupt } from "../workspace/jobs/Interrupt.js";
import { createMcbMcpServer } from "./McbMcpServer.js";

const storesByEngine = new WeakMap<Engine, ReturnType<typeof sharedStoresFor>>();

/** The stores every MCP session on this process's world shares: a paste job started by one session is the same job for another. */
export function holderStores(w: Workspace): ReturnType<typeof sharedStoresFor> {
  let s = storesByEngine.get(w.engine);
  if (s === undefined) storesByEngine.set(w.engine, (s = sharedStoresFor(w.dir, w.registry)));
  return s;
}

/**
 * One MCP session on an open world: its operations are attributed to the client's name (from its
 * initialize, with `suffix` telling sessions apart), and `stop` (Ctrl-C, a caller's signal, a
 * closing holder) stops them after their current slice.
 */
export function mcpSession(
  w: Workspace,
  schematicLimits: SchematicLimits,
  toolsets: readonly Toolset[],
  answers: AnswerOptions,
  suffix: string,
  signals?: (handler: (signal: NodeJS.Signals) => void) => () => void,
): { server: McpServer; interrupt: Interrupt } {
  let server: McpServer | undefined;
  const client = (): string => `${(server?.server.getClientVersion()?.name ?? "mcp client").slice(0, 60)}${suffix}`;
  const interrupt = new Interrupt(w.engine, w.log, { client, ...(signals === undefined ? {} : { signals }) });
  const context = mcpContextFor(w, actingThrough(w.ctx, client), schematicLimits, { stop: interrupt, log: w.log, ...holderStores(w) });
  server = createMcbMcpServer(context, MCB_VERSION, { toolsets, ...answers });
  return { server, interrupt };
}

/**
 * `mcb mcp`: the MCP server over stdio on the world in `where` (schematics in
 * `<state>/schematics`, cameras in `<state>/cameras.json`). `schematicLimits` is the policy: the
 * read limits of every library file, and the most a client may ask for in
 * schematic_import_prepare. stdout carries only the protocol; diagnostics go to stderr. Ends when
 * the client closes stdin and every request it sent has its answer; running operations finish
 * first. SIGINT/SIGTERM end it too: running operations stop after their current slice
 * (`cancelled`, undoable), never left to recovery. While it holds the world it serves the other mcb
 * processes on it (`service`); when another process holds it, this is a caller's session there
 * (`host.held`), so a second `mcb mcp` relays to the first and a client's configuration is the same.
 */
export async function runMcpServer(
  where: WorldLocation,
  schematicLimits: SchematicLimits = DEFAULT_SCHEMATIC_LIMITS,
  limits: Partial<EngineLimits> = {},
  toolsets: readonly Toolset[] = ["build"],
  answers: AnswerOptions = {},
  host: RoomHost = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env },
  service?: WorldService,
): Promise<Result<void>> {
  const room = await roomWorld(where, host, { limits, create: true, agent: true }, "mcb mcp", service);
  if (!room.ok) return room;
  const w = room.value.world;
  const held = host.held;
  const suffix = held === undefined ? "" : ` (pid ${held.command.request.pid})`;
  const { server, interrupt } = mcpSession(w, schematicLimits, toolsets, answers, suffix, room.value.signals);
  const transport = new StdioLineTransport(host.stdin, host.stdout, { log: (l) => void host.stderr.write(`${l}\n`) });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // A signal is not a crash either: running operations stop after their slice, then we exit.
    interrupt.install(resolve);
  });
  await server.connect(transport);
  const info = await w.world.info().catch(() => null);
  const kind = worldKindOf(where.target);
  host.stderr.write(
    held !== undefined
      ? `mcb mcp: a session of the world held by process ${process.pid} (${w.dir})\n`
      : kind === "embedded"
        ? `mcb mcp: serving the embedded world in ${w.dir}\n`
        : kind === "save"
          ? `mcb mcp: serving the save ${where.target.savePath!} (held: the game cannot open it meanwhile); journal in ${w.dir}\n`
          : `mcb mcp: serving the server world ${info?.worldId ?? "?"} (${info?.minecraftVersion ?? "?"}) through the world port; journal in ${w.dir}\n`,
  );
  await closed;
  interrupt.dispose();
  await server.close().catch(() => undefined);
  await room.value.close();
  return ok(undefined);
}
