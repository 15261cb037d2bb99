import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { MemoryWorld } from "@mcb/adapter-memory";
import { blockEntityPredicate } from "@mcb/blocks";
import { Engine, openJournal } from "@mcb/engine";
import type { SchematicLimits } from "@mcb/schematic";
import { registry } from "../../../blocks/test/registry.js";
import { createMcbMcpServer, mcpContextFor } from "../../src/index.js";
import { TOOLSET_NAMES, type Toolset } from "../../src/workspace/agent/Toolsets.js";

export const AREA = { minX: 0, minY: -64, minZ: 0, maxX: 31, maxY: 319, maxZ: 31 };
export const v = (x: number, y: number, z: number) => ({ x, y, z });

/** The library path: our MCP server over a caller's own engine (memory journal, small area), in memory. */
export async function setup(options: { libraryLimits?: SchematicLimits; toolsets?: readonly Toolset[]; textCopy?: "full" | "summary" } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "mcb-mcplib-"));
  const world = new MemoryWorld({ hasBlockEntity: blockEntityPredicate(registry()) });
  const engine = await Engine.open({
    adapter: world,
    journal: openJournal(":memory:"),
    registry: registry(),
    projects: [{ projectId: "p", ownerId: "alice", area: AREA }],
  });
  const ctx = { principal: { playerId: "alice", role: "agent" as const }, projectId: "p" };
  const server = createMcbMcpServer(mcpContextFor({ engine, registry: registry(), world, dir }, ctx, options.libraryLimits), "test", {
    toolsets: options.toolsets ?? TOOLSET_NAMES,
    ...(options.textCopy === undefined ? {} : { textCopy: options.textCopy }),
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "lib", version: "1" });
  await client.connect(b);
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const error = (r: CallToolResult) => (r.isError ? JSON.parse((r.content[0] as { text: string }).text).error : null);
  return { dir, world, engine, client, call, error, close: () => client.close() };
}
