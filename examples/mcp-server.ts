// An MCP server over your own engine and world, and a client talking to it in memory (docs/LIBRARY.md).
import { MemoryWorld } from "@mcb/adapter-memory";
import { blockEntityPredicate, createBlockRegistry } from "@mcb/blocks";
import { createMcbMcpServer, mcpContextFor } from "@mcb/bridge";
import { Engine, openJournal } from "@mcb/engine";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";

const registry = createBlockRegistry();
if (!registry.ok) throw new Error(registry.error.message);
const world = new MemoryWorld({ hasBlockEntity: blockEntityPredicate(registry.value) });
const engine = await Engine.open({
  adapter: world,
  journal: openJournal(":memory:"),
  registry: registry.value,
  projects: [{ projectId: "default", ownerId: "alice", area: { minX: -64, minY: -64, minZ: -64, maxX: 63, maxY: 319, maxZ: 63 } }],
});
const ctx = { principal: { playerId: "alice", role: "agent" as const }, projectId: "default" };
// The context: the engine's material catalog, the schematic library under state/schematics, the camera, capture and terrain stores.
const server = createMcbMcpServer(mcpContextFor({ engine, registry: registry.value, world, dir: "state" }, ctx));
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair(); // or StdioLineTransport, or Streamable HTTP
await server.connect(serverSide);
const client = new Client({ name: "my-agent", version: "1.0.0" });
await client.connect(clientSide);
const { tools } = await client.listTools();
console.log(`${tools.length} tools: ${tools.map((t) => t.name).join(", ")}`);
const context = await client.callTool({ name: "project_context", arguments: {} });
console.log(context.isError === true ? "refused" : "project_context answered");
await client.close();
engine.close();
await world.close();
