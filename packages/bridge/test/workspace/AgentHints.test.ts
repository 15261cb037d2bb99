import { describe, expect, it } from "vitest";
import { openWorkspace } from "../../src/index.js";
import { tempDirs } from "../support.js";

const stateDir = tempDirs("mcb-hints-");
const far = { version: 1, operations: [{ type: "box", min: { x: 9000, y: 64, z: 0 }, max: { x: 9001, y: 64, z: 0 }, block: "minecraft:stone" }] };

describe("a refusal tells each front end what it can do", () => {
  it.each([
    ["the command line", false, /; pass --area minX,minZ,maxX,maxZ to choose another$/],
    ["an agent (MCP, chat)", true, /; build inside it, or ask the person who started mcb for another area$/],
  ])("outside the project area, for %s", async (_who, agent, hint) => {
    const opened = await openWorkspace(await stateDir(), { create: true, agent, log: () => {} });
    if (!opened.ok) throw new Error(opened.error.message);
    try {
      const r = await opened.value.engine.buildPrepare(opened.value.ctx, { recipe: far });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe("out_of_bounds");
        expect(r.error.message).toMatch(hint);
        if (agent) expect(r.error.message).not.toContain("--area");
      }
    } finally {
      await opened.value.close();
    }
  });
});
