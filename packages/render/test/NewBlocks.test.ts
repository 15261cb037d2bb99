import { describe, expect, it } from "vitest";
import { blockShapes, createBlockRegistry } from "@mcb/blocks";
import { lookOf } from "../src/BlockColors.js";
import { modelOf } from "../src/BlockModels.js";

/** The 28 blocks 26.2 added (the 26.2 registry less 26.1's) are drawn as what they are. */
const r262 = createBlockRegistry({ version: "26.2" });
const r261 = createBlockRegistry({ version: "26.1" });
if (!r262.ok || !r261.ok) throw new Error("registries");
const added = [...r262.value.blockTypes.values()].filter((t) => !r261.value.blockTypes.has(t.id));

describe("26.2's new blocks in the renderer", () => {
  it("each of the 28 gets its family's colour (cinnabar red, sulfur yellow, potent sulfur gold), not a made-up one", () => {
    expect(added).toHaveLength(28);
    const rgb = (id: string) => {
      const l = lookOf(id);
      return [l.r, l.g, l.b];
    };
    for (const t of added) {
      const family = t.id.includes("potent_sulfur") ? "minecraft:potent_sulfur" : t.id.includes("cinnabar") ? "minecraft:cinnabar" : "minecraft:sulfur";
      expect(rgb(t.defaultState), t.id).toEqual(rgb(family));
      expect(lookOf(t.defaultState).surface).toBe("opaque");
    }
    const [cr, cg] = rgb("minecraft:cinnabar"),
      [sr, sg, sb] = rgb("minecraft:sulfur");
    expect(cr!).toBeGreaterThan(cg! * 2); // red
    expect(Math.min(sr!, sg!)).toBeGreaterThan(sb! * 2); // yellow
  });

  it("their stairs, slabs and walls have the family's models; a sulfur spike is a column as wide as the game's shape, pointing its way", () => {
    for (const t of added.filter((x) => /_(stairs|slab|wall)$/.test(x.id))) expect(modelOf(t.defaultState), t.id).not.toBeNull();
    const spike = (thickness: string, dir = "up") => modelOf(`minecraft:sulfur_spike[thickness=${thickness},vertical_direction=${dir},waterlogged=false]`)!;
    const width = (m: Float64Array) => m[3]! - m[0]!;
    const shapes = blockShapes(r262.value);
    for (const th of ["tip", "frustum", "middle", "base"]) {
      const game = shapes.collision(`minecraft:sulfur_spike[thickness=${th},vertical_direction=up,waterlogged=false]`)[0]!;
      expect(width(spike(th)), th).toBeCloseTo(game[3] - game[0], 5);
    }
    expect(spike("tip")[1]).toBe(0); // standing on the floor
    expect(spike("tip", "down")[4]).toBeCloseTo(1, 5); // hanging from the ceiling
  });
});
