import { describe, expect, it } from "vitest";
import { createMaterialCatalog, describeMaterial } from "../src/index.js";
import { suggestIds } from "../src/Suggestions.js";
import { registry } from "./registry.js";

/** "Did you mean": near misses an agent makes, against the real 26.1 block list. */
describe("suggestions for unknown ids", () => {
  const reg = registry();
  const blocks = [...reg.blockTypes.keys()];

  it("finds the id a near miss meant, first", () => {
    expect(suggestIds(blocks, "spruce_stair")[0]).toBe("minecraft:spruce_stairs");
    expect(suggestIds(blocks, "minecraft:oak_plank")[0]).toBe("minecraft:oak_planks");
    expect(suggestIds(blocks, "stone_brick")[0]).toBe("minecraft:stone_bricks");
    expect(suggestIds(blocks, "cobblestone_stiars")[0]).toBe("minecraft:cobblestone_stairs");
    expect(suggestIds(blocks, "lanturn")[0]).toBe("minecraft:lantern");
    expect(suggestIds(blocks, "spruce_stair").length).toBeLessThanOrEqual(3);
    expect(suggestIds(blocks, "qqqqqqqqqqqqqq")).toEqual([]);
  });

  it("appear in the errors of a state string, a recipe and material_describe", () => {
    const r = reg.resolveState("spruce_stair[facing=north]");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toMatch(/did you mean minecraft:spruce_stairs/);
      expect((r.error.details?.suggestions as string[])[0]).toBe("minecraft:spruce_stairs");
    }
    const d = describeMaterial(createMaterialCatalog(reg), "spruce_stair");
    expect(!d.ok && d.error.details?.suggestions).toContain("minecraft:spruce_stairs");
  });

  it("material_describe says what facing, half, shape and axis mean for the block at hand", () => {
    const cat = createMaterialCatalog(reg);
    const stairs = describeMaterial(cat, "oak_stairs");
    expect(stairs.ok && stairs.value.meanings).toMatchObject({
      facing: expect.stringMatching(/tall back/),
      half: expect.stringMatching(/upside down/),
      shape: expect.stringMatching(/corner/),
    });
    const ladder = describeMaterial(cat, "ladder");
    expect(ladder.ok && ladder.value.meanings?.facing).toMatch(/facing west hangs on the block to its east/);
    const log = describeMaterial(cat, "oak_log");
    expect(log.ok && log.value.meanings).toEqual({ axis: "the direction it runs: y upright, x east–west, z north–south" });
    const stone = describeMaterial(cat, "stone");
    expect(stone.ok && stone.value.meanings).toBeUndefined();
  });
});
