import { describe, expect, it } from "vitest";
import { unwrap, type Harness } from "@mcb/property-tests";
import { harnessPool } from "../harnesses.js";

/**
 * Placement warnings name positions, and only where something is wrong: a block with nothing to
 * hold it (in the plan or in the world), a two-block block without its other half, a falling block
 * over air. The same blocks with what they need give no warning.
 */
const harness = harnessPool();
const v = (x: number, y: number, z: number) => ({ x, y, z });

async function warnings(h: Harness, blocks: Array<[number, number, number, string]>): Promise<readonly string[]> {
  const recipe = { version: 1, connections: "pinned", operations: [{ type: "blocks", blocks: blocks.map(([x, y, z, block]) => ({ x, y, z, block })) }] };
  return unwrap(await h.engine.buildPrepare(h.agent, { recipe })).warnings;
}
const about = (ws: readonly string[], kind: string) => ws.filter((w) => w.startsWith(kind));

describe("placement warnings", () => {
  it("a lantern on a floor, a hanging lantern under a beam and a ladder on a wall: none; the same in the air: each named with its position and side", async () => {
    const h = await harness();
    const held = await warnings(h, [
      [0, 70, 0, "stone"],
      [0, 71, 0, "lantern"],
      [3, 72, 0, "oak_planks"],
      [3, 71, 0, "lantern[hanging=true]"],
      [6, 70, 1, "stone"],
      [6, 70, 0, "ladder[facing=north]"],
    ]);
    expect(about(held, "attachment")).toEqual([]);
    const free = await warnings(h, [
      [0, 90, 0, "lantern"],
      [3, 90, 0, "lantern[hanging=true]"],
      [6, 90, 0, "ladder[facing=north]"],
    ]);
    expect(about(free, "attachment")).toEqual([
      "attachment: nothing holds 3 blocks: minecraft:lantern[hanging=false,waterlogged=false] at 0 90 0 (nothing holds it below); " +
        "minecraft:lantern[hanging=true,waterlogged=false] at 3 90 0 (nothing holds it above); " +
        "minecraft:ladder[facing=north,waterlogged=false] at 6 90 0 (nothing holds it to the south)",
    ]);
  });

  it("a sulfur spike (26.2) and a pointed dripstone stand on a sturdy face or on one of their own pointing the same way; hung from nothing, or on one pointing the other way, named", async () => {
    const h = await harness();
    const held = await warnings(h, [
      [0, 70, 0, "stone"],
      [0, 71, 0, "sulfur_spike[vertical_direction=up,thickness=base]"],
      [0, 72, 0, "sulfur_spike[vertical_direction=up,thickness=tip]"],
      [3, 80, 0, "stone"],
      [3, 79, 0, "pointed_dripstone[vertical_direction=down,thickness=tip]"],
    ]);
    expect(about(held, "attachment")).toEqual([]);
    const loose = await warnings(h, [
      [6, 90, 0, "sulfur_spike[vertical_direction=up]"],
      [8, 70, 0, "stone"],
      [8, 71, 0, "sulfur_spike[vertical_direction=down,thickness=base]"],
      [8, 72, 0, "sulfur_spike[vertical_direction=up]"],
    ]);
    expect(about(loose, "attachment")).toEqual([
      "attachment: nothing holds 3 blocks: minecraft:sulfur_spike[thickness=base,vertical_direction=down,waterlogged=false] at 8 71 0 (nothing holds it above); " +
        "minecraft:sulfur_spike[thickness=tip,vertical_direction=up,waterlogged=false] at 8 72 0 (nothing holds it below); " +
        "minecraft:sulfur_spike[thickness=tip,vertical_direction=up,waterlogged=false] at 6 90 0 (nothing holds it below)",
    ]);
  });

  it("support found in the world counts: a torch on a block a person placed, a ladder against an existing wall", async () => {
    const h = await harness();
    h.world.externalEdit(10, 70, 10, "minecraft:stone");
    h.world.externalEdit(12, 70, 11, "minecraft:stone");
    expect(
      await warnings(h, [
        [10, 71, 10, "torch"],
        [12, 70, 10, "ladder[facing=north]"],
      ]),
    ).toEqual([]);
    // A fence post holds a torch (its middle), a fence does not hold a ladder (no full face).
    h.world.externalEdit(14, 70, 10, "minecraft:oak_fence[east=false,north=false,south=false,waterlogged=false,west=false]");
    h.world.externalEdit(16, 70, 11, "minecraft:oak_fence[east=false,north=false,south=false,waterlogged=false,west=false]");
    expect(
      about(
        await warnings(h, [
          [14, 71, 10, "torch"],
          [16, 70, 10, "ladder[facing=north]"],
        ]),
        "attachment",
      ),
    ).toEqual(["attachment: nothing holds 1 block: minecraft:ladder[facing=north,waterlogged=false] at 16 70 10 (nothing holds it to the south)"]);
  });

  it("doors, beds and tall plants with both halves: none; one half alone: named", async () => {
    const h = await harness();
    const whole = await warnings(h, [
      [0, 69, 0, "stone"],
      [0, 70, 0, "oak_door[half=lower,facing=east]"],
      [0, 71, 0, "oak_door[half=upper,facing=east]"],
      [3, 70, 0, "red_bed[part=foot,facing=south]"],
      [3, 70, 1, "red_bed[part=head,facing=south]"],
      [6, 69, 0, "grass_block"],
      [6, 70, 0, "sunflower[half=lower]"],
      [6, 71, 0, "sunflower[half=upper]"],
    ]);
    expect(whole.filter((w) => /^(attachment|incomplete)/.test(w))).toEqual([]);
    const halves = await warnings(h, [
      [0, 69, 5, "stone"],
      [0, 70, 5, "oak_door[half=lower,facing=east]"],
      [3, 70, 5, "red_bed[part=foot,facing=south]"],
    ]);
    expect(about(halves, "incomplete")).toEqual([
      "incomplete: two-block blocks miss their other half: minecraft:oak_door[facing=east,half=lower,hinge=left,open=false,powered=false] at 0 70 5 (no upper half above); " +
        "minecraft:red_bed[facing=south,occupied=false,part=foot] at 3 70 5 (no head in front)",
    ]);
  });

  it("lists at most five positions and counts the rest; sand over air falls, on stone it does not", async () => {
    const h = await harness();
    const many = await warnings(
      h,
      Array.from({ length: 8 }, (_, i) => [i * 2, 100, 0, "torch"] as [number, number, number, string]),
    );
    const line = about(many, "attachment")[0]!;
    expect(line).toMatch(/^attachment: nothing holds 8 blocks: /);
    expect(line.match(/ at /g)).toHaveLength(5);
    expect(line).toMatch(/; and 3 more$/);
    expect(about(await warnings(h, [[0, 100, 0, "sand"]]), "gravity")).toEqual([
      "gravity: falling blocks over air or fluid: minecraft:sand at 0 100 0 (falls: nothing below)",
    ]);
    expect(
      await warnings(h, [
        [0, 100, 0, "sand"],
        [0, 99, 0, "stone"],
      ]),
    ).toEqual([]);
  });

  it("the example recipe stands: its ladder has a wall behind it", async () => {
    const h = await harness();
    const { readFileSync } = await import("node:fs");
    const recipe = JSON.parse(readFileSync(new URL("../../../../examples/tower.json", import.meta.url), "utf8"));
    const ws = unwrap(await h.engine.buildPrepare(h.agent, { recipe })).warnings;
    expect(ws.filter((w) => /^(attachment|incomplete|gravity)/.test(w))).toEqual([]);
    void v;
  });
});
