import mcData from "minecraft-data";
import { describe, expect, it } from "vitest";
import { createBlockRegistry, formatState } from "../src/index.js";
import { registry } from "./registry.js";

describe("block registry (26.1)", () => {
  const reg = registry();

  it("covers every block type of minecraft-data 26.1", () => {
    const data = mcData("26.1");
    expect(reg.minecraftVersion).toBe("26.1");
    expect(reg.dataVersion).toBe(data.version.dataVersion);
    expect(reg.blockTypes.size).toBe(data.blocksArray.length);
    expect(reg.itemIds.size).toBe(data.itemsArray.length);
  });

  it("decodes the game's default states", () => {
    expect(reg.blockTypes.get("minecraft:oak_stairs")?.defaultState).toBe(
      "minecraft:oak_stairs[facing=north,half=bottom,shape=straight,waterlogged=false]",
    );
    expect(reg.blockTypes.get("minecraft:oak_log")?.defaultState).toBe("minecraft:oak_log[axis=y]");
    expect(reg.blockTypes.get("minecraft:oak_door")?.defaultState).toBe(
      "minecraft:oak_door[facing=north,half=lower,hinge=left,open=false,powered=false]",
    );
    expect(reg.blockTypes.get("minecraft:oak_leaves")?.defaultState).toBe("minecraft:oak_leaves[distance=7,persistent=false,waterlogged=false]");
    expect(reg.blockTypes.get("minecraft:redstone_wire")?.defaultState).toBe(
      "minecraft:redstone_wire[east=none,north=none,power=0,south=none,west=none]",
    );
  });

  it("every default state parses, formats and re-parses identically", () => {
    let n = 0;
    for (const type of reg.blockTypes.values()) {
      const first = reg.resolveState(type.defaultState);
      expect(first.ok, type.id).toBe(true);
      if (!first.ok) continue;
      expect(first.value.canonical).toBe(type.defaultState);
      const formatted = formatState(first.value.id, first.value.properties);
      expect(formatted).toBe(type.defaultState);
      const again = reg.resolveState(formatted);
      expect(again).toEqual(first);
      // The bare id resolves to the same default.
      expect(reg.resolveState(type.id)).toEqual(first);
      n++;
    }
    expect(n).toBe(1168);
  });

  it("every single-property variant validates and round-trips", () => {
    let cases = 0;
    for (const type of reg.blockTypes.values()) {
      for (const property of type.properties) {
        for (const value of property.values) {
          const text = `${type.id}[${property.name}=${value}]`;
          const r = reg.resolveState(text);
          expect(r.ok, text).toBe(true);
          if (!r.ok) continue;
          expect(r.value.properties[property.name]).toBe(value);
          expect(reg.resolveState(r.value.canonical)).toEqual(r);
          expect(Object.keys(r.value.properties).sort()).toEqual(type.properties.map((p) => p.name));
          cases++;
        }
      }
    }
    expect(cases).toBeGreaterThan(5_000);
  });

  it("rejects unknown ids, properties and values naming the bad part", () => {
    const unknown = reg.resolveState("minecraft:stone_brickz");
    expect(unknown).toMatchObject({ ok: false, error: { code: "unsupported_block", details: { reason: "unknown_block", id: "minecraft:stone_brickz" } } });
    const item = reg.resolveState("minecraft:diamond");
    expect(item).toMatchObject({ ok: false, error: { code: "unsupported_block", details: { reason: "item_only", id: "minecraft:diamond" } } });
    const prop = reg.resolveState("minecraft:oak_stairs[facing=east,color=red]");
    expect(prop).toMatchObject({ ok: false, error: { code: "unsupported_block", details: { reason: "unknown_property", property: "color" } } });
    const value = reg.resolveState("minecraft:oak_stairs[facing=up]");
    expect(value).toMatchObject({
      ok: false,
      error: { code: "unsupported_block", details: { reason: "invalid_value", property: "facing", value: "up", allowed: ["north", "south", "west", "east"] } },
    });
    expect(reg.resolveState("other:stone")).toMatchObject({ ok: false, error: { details: { reason: "unknown_block" } } });
  });

  it("canonical form is independent of property order", () => {
    const a = reg.resolveState("oak_stairs[waterlogged=true,facing=west,half=top]");
    const b = reg.resolveState("minecraft:oak_stairs[half=top,facing=west,waterlogged=true]");
    expect(a.ok && b.ok && a.value.canonical === b.value.canonical).toBe(true);
  });

  it("stateOf throws on a non-canonical string (broken invariant)", () => {
    expect(() => reg.stateOf("minecraft:oak_log")).toThrow(/canonical/);
    expect(reg.stateOf("minecraft:oak_log[axis=x]").properties["axis"]).toBe("x");
  });

  it("loads another version on request and refuses unknown ones", () => {
    const older = createBlockRegistry({ version: "1.21.4" });
    expect(older.ok).toBe(true);
    if (older.ok) {
      expect(older.value.dataVersion).toBe(mcData("1.21.4").version.dataVersion);
      expect(older.value.blockTypes.has("minecraft:copper_golem_statue")).toBe(false);
    }
    expect(createBlockRegistry({ version: "9.99" })).toMatchObject({ ok: false, error: { code: "version_mismatch" } });
  });

  it("behaviour hints mark known categories", () => {
    const hints = (id: string) => reg.blockTypes.get(id)?.behavior;
    expect(hints("minecraft:sand")).toContain("gravity");
    expect(hints("minecraft:red_concrete_powder")).toContain("gravity");
    expect(hints("minecraft:water")).toContain("fluid");
    expect(hints("minecraft:chest")).toContain("block_entity");
    expect(hints("minecraft:oak_sign")).toEqual(expect.arrayContaining(["attachment", "block_entity"]));
    expect(hints("minecraft:oak_door")).toEqual(["attachment", "multipart"]);
    expect(hints("minecraft:red_bed")).toEqual(expect.arrayContaining(["multipart", "block_entity"]));
    expect(hints("minecraft:stone")).toEqual([]);
    expect(hints("minecraft:piston_head")).not.toContain("block_entity");
  });
});
