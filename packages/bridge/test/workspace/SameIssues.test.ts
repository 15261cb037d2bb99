import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { setup } from "../mcp/InProcessMcp.js";
import { mcb, tempDirs } from "../support.js";

const dir = tempDirs("mcb-issues-");

/** Recipes that fail the schema in different ways: a wrong type name, a missing corner, bad values, unknown keys, too deep. */
const BAD: Record<string, unknown> = {
  "unknown operation": { version: 1, operations: [{ type: "boks", min: { x: 0, y: 64, z: 0 }, max: { x: 1, y: 64, z: 1 }, block: "stone" }] },
  "missing corner": { version: 1, operations: [{ type: "box", min: { x: 0, y: 64, z: 0 }, block: "stone" }] },
  "bad values": { version: 1, operations: [{ type: "cylinder", center: { x: 0.5, y: 64, z: 0 }, radius: -2, height: 3, block: 7 }] },
  "unknown keys": { version: 1, colour: "red", operations: [] },
  "too deep": { version: 1, operations: [JSON.parse("[".repeat(80) + "]".repeat(80))] },
};

describe("one schema-issue formatter and one JSON guard for every front end", () => {
  it("the same bad recipe gives the same issues through the CLI and through MCP (there under recipe.)", async () => {
    const d = await dir();
    const mcp = await setup();
    try {
      for (const [name, recipe] of Object.entries(BAD)) {
        const file = join(d, `${name.replace(/ /g, "-")}.json`);
        writeFileSync(file, JSON.stringify(recipe));
        const cli = await mcb("recipe", "compile", file);
        expect(cli.code, name).toBe(1);
        const viaCli = JSON.parse(cli.stderr).error as { code: string; details: { reason: string; issues?: { path: string; message: string }[] } };
        const viaMcp = mcp.error(await mcp.call("build_prepare", { recipe })) as typeof viaCli;
        expect([viaCli.code, viaCli.details.reason], name).toEqual([viaMcp.code, viaMcp.details.reason]);
        if (viaCli.details.reason === "json_shape") continue;
        expect(viaCli.details.issues!.length, name).toBeGreaterThan(0);
        expect(viaMcp.details.issues, name).toEqual(viaCli.details.issues!.map((i) => ({ ...i, path: i.path === "" ? "recipe" : `recipe.${i.path}` })));
      }
    } finally {
      await mcp.close();
    }
  });
});
