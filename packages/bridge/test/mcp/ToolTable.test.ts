import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ok } from "@mcb/blocks";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolTable } from "../../src/mcp/ToolTable.js";
import { toolResult } from "../../src/mcp/ToolResult.js";

/**
 * Published output schemas say `additionalProperties: false` only at the top (bytes every client
 * downloads); the server still checks every nested object strictly and never sends a result with
 * an undeclared key.
 */
async function serve(answer: unknown) {
  const server = new McpServer({ name: "t", version: "1" }, { capabilities: { tools: {} } });
  const tools = new ToolTable(server, () => ok(undefined), new Set(["build"]));
  tools.register(
    "probe",
    {
      title: "probe",
      description: "answers what the test gives",
      inputSchema: {},
      outputSchema: z.strictObject({ region: z.strictObject({ min: z.strictObject({ x: z.number().int() }) }) }),
      annotations: { readOnlyHint: true },
    },
    async () => toolResult(ok(answer as object)),
  );
  tools.install();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "c", version: "1" });
  await client.connect(b);
  return client;
}

describe("output strictness", () => {
  it("a nested undeclared key is a server error, never sent; a declared answer passes", async () => {
    const good = await serve({ region: { min: { x: 1 } } });
    expect((await good.callTool({ name: "probe", arguments: {} })).structuredContent).toEqual({ region: { min: { x: 1 } } });
    const published = (await good.listTools()).tools[0]!.outputSchema as Record<string, any>;
    expect(published.additionalProperties).toBe(false);
    expect(published.properties.region.additionalProperties).toBeUndefined();
    const bad = await serve({ region: { min: { x: 1, extra: 2 } } });
    await expect(bad.callTool({ name: "probe", arguments: {} })).rejects.toThrow(/outside its output schema/);
  });
});
