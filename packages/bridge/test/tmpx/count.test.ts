import { it } from "vitest";
import { setup } from "../InProcessMcp.js";
it("x", async () => {
  const s = await setup({ toolsets: "all" } as any);
  const tools = (await s.client.listTools()).tools;
  await s.close();
  const rows = tools.map((t) => [t.name, Buffer.byteLength(t.description ?? "") + Buffer.byteLength(JSON.stringify(t.inputSchema))] as const).sort((a, b) => b[1] - a[1]);
  console.log("ROWS " + rows.map((r) => r.join(":")).join(" "));
  const bp = tools.find((t) => t.name === "build_prepare")!;
  console.log("ALL " + JSON.stringify(bp.inputSchema).match(/"description":"[^"]*"/g)?.join(" | "));
});
