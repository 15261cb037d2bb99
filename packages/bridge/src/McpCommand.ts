import { join } from "node:path";
import { createMaterialCatalog, ok, type Result } from "@mcb/blocks";
import type { EngineLimits } from "@mcb/engine";
import { DEFAULT_SCHEMATIC_LIMITS, SchematicLibrary, type SchematicLimits } from "@mcb/schematic";
import { locationOf, openEmbeddedWorld, type WorldLocation } from "./EmbeddedWorld.js";
import { CameraStore } from "./mcp/CameraStore.js";
import { CaptureCache } from "./mcp/CaptureCache.js";
import { createMcbMcpServer } from "./mcp/McbMcpServer.js";
import { StdioLineTransport } from "./mcp/StdioLineTransport.js";
import { TerrainCache } from "./mcp/TerrainCache.js";

export const MCB_VERSION = "0.1.0";

/**
 * `mcb mcp`: the MCP server over stdio on the embedded world in `stateDir` (schematics in
 * `stateDir/schematics`, cameras in `stateDir/cameras.json`). `schematicLimits` is the policy: the
 * read limits of every library file, and the most a client may ask for in schematic_import_prepare. stdout carries only the protocol;
 * diagnostics go to stderr. Ends when the client closes stdin and every request it sent has its
 * answer; running operations finish first. SIGINT/SIGTERM end it too: running operations stop
 * after their current slice (`cancelled`, undoable), never left to recovery.
 */
export async function runMcpServer(stateDir: string | WorldLocation, schematicLimits: SchematicLimits = DEFAULT_SCHEMATIC_LIMITS, limits: Partial<EngineLimits> = {}): Promise<Result<void>> {
  const where = locationOf(stateDir);
  const opened = await openEmbeddedWorld(where.dir, where.target, limits);
  if (!opened.ok) return opened;
  const w = opened.value;
  const server = createMcbMcpServer(
    {
      engine: w.engine,
      ctx: w.ctx,
      registry: w.registry,
      catalog: createMaterialCatalog(w.registry),
      world: w.world,
      library: new SchematicLibrary(join(w.dir, "schematics"), w.registry, schematicLimits),
      terrain: new TerrainCache(),
      cameras: new CameraStore(w.dir),
      captures: new CaptureCache(),
    },
    MCB_VERSION,
  );
  const transport = new StdioLineTransport(process.stdin, process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // A signal is not a crash either: running operations stop after their slice, then we exit.
    w.interrupt.install(resolve);
  });
  await server.connect(transport);
  const info = await w.world.info().catch(() => null);
  process.stderr.write(where.target.portUrl === undefined
    ? `mcb mcp: serving the embedded world in ${w.dir}\n`
    : `mcb mcp: serving the server world ${info?.worldId ?? "?"} (${info?.minecraftVersion ?? "?"}) through the world port; journal in ${w.dir}\n`);
  await closed;
  await server.close().catch(() => undefined);
  await w.close();
  return ok(undefined);
}
