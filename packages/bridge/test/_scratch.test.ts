import { it } from "vitest";
import { writeFileSync } from "node:fs";
import { setup } from "./InProcessMcp.js";
it("sizes", async () => {
  for (const ts of [["build"], ["build", "terrain", "schematic"]] as const) {
    const s = await setup({ toolsets: ts as any });
    const tools = (await s.client.listTools()).tools;
    writeFileSync(`/tmp/tools-${ts.length}.json`, JSON.stringify(tools, null, 1));
    let d = 0, i = 0, o = 0;
    const rows: string[] = [];
    for (const t of tools) {
      const dd = Buffer.byteLength(t.description ?? ""), ii = Buffer.byteLength(JSON.stringify(t.inputSchema)), oo = Buffer.byteLength(JSON.stringify(t.outputSchema ?? {}));
      d += dd; i += ii; o += oo; rows.push(`${t.name.padEnd(28)} d=${dd} i=${ii} o=${oo}`);
    }
    console.log(rows.join("\n"));
    console.log({ n: tools.length, d, i, o, di: d + i, all: Buffer.byteLength(JSON.stringify({ tools })) });
    await s.close();
  }
});
