import mcData from "minecraft-data";
import { describe, expect, it } from "vitest";
import { blockShapes, createBlockRegistry, formatState, minecraftVersions } from "../src/index.js";
import { registry } from "./registry.js";

describe("block registry (26.2, the default)", () => {
  const reg = registry();

  it("is Minecraft 26.2: 1,196 block types, 1,537 items (the seeds' Paper 26.2 catalog)", () => {
    expect(reg.minecraftVersion).toBe("26.2");
    expect(reg.dataVersion).toBe(4903);
    expect(reg.blockTypes.size).toBe(1196);
    expect(reg.itemIds.size).toBe(1537);
    for (const id of ["minecraft:cinnabar", "minecraft:sulfur_spike", "minecraft:potent_sulfur", "minecraft:chiseled_sulfur", "minecraft:cinnabar_brick_wall"])
      expect(reg.blockTypes.has(id), id).toBe(true);
    expect(reg.blockTypes.get("minecraft:potent_sulfur")?.blockEntity).toBe("minecraft:potent_sulfur");
    expect(reg.blockTypes.get("minecraft:sulfur_spike")?.defaultState).toBe("minecraft:sulfur_spike[thickness=tip,vertical_direction=up,waterlogged=false]");
  });

  it("the 26.1 registry (generated from Minestom's 26.1.2 data) agrees with minecraft-data 26.1, an independent dump, on every block, state numbering, item and collision shape", () => {
    const old = createBlockRegistry({ version: "26.1" });
    if (!old.ok) throw new Error(old.error.message);
    const r = old.value;
    const data = mcData("26.1");
    expect(r.minecraftVersion).toBe("26.1");
    expect(r.dataVersion).toBe(data.version.dataVersion);
    expect(r.blockTypes.size).toBe(data.blocksArray.length);
    expect([...r.itemIds].sort()).toEqual(data.itemsArray.map((i) => `minecraft:${i.name}`).sort());
    const shapes = blockShapes(r);
    const table = (data as unknown as { blockCollisionShapes: { blocks: Record<string, number | number[]>; shapes: Record<string, number[][]> } })
      .blockCollisionShapes;
    let states = 0;
    for (const b of data.blocksArray) {
      const t = r.blockTypes.get(`minecraft:${b.name}`)!;
      const raw = (b.states ?? []) as { name: string; type: string; values?: unknown[] }[];
      expect(t.properties.map((p) => p.name)).toEqual(raw.map((s) => s.name).sort());
      for (const s of raw) expect(t.properties.find((p) => p.name === s.name)!.values).toEqual(s.type === "bool" ? ["true", "false"] : s.values!.map(String));
      // Every state, numbered as minecraft-data numbers them (last property fastest): default and shape.
      const count = raw.reduce((n, s) => n * (s.type === "bool" ? 2 : s.values!.length), 1);
      for (let offset = 0; offset < count; offset++) {
        const props: Record<string, string> = {};
        let rest = offset;
        for (let i = raw.length - 1; i >= 0; i--) {
          const domain = raw[i]!.type === "bool" ? ["true", "false"] : raw[i]!.values!.map(String);
          props[raw[i]!.name] = domain[rest % domain.length]!;
          rest = Math.floor(rest / domain.length);
        }
        const state = formatState(t.id, props);
        if (b.minStateId + offset === b.defaultState) expect(t.defaultState).toBe(state);
        const entry = table.blocks[b.name];
        const expected = (table.shapes[String(Array.isArray(entry) ? entry[offset] : entry)] ?? []).map((box) => box.map((v) => Math.round(v * 1e6) / 1e6));
        expect(
          shapes.collision(state).map((box) => box.map((v) => Math.round(v * 1e6) / 1e6)),
          state,
        ).toEqual(expected);
        states++;
      }
    }
    expect(states).toBe(29_873);
  });

  it("names the registries it has, and every release of them", () => {
    expect(minecraftVersions().map((v) => [v.version, v.dataVersion, v.maxDataVersion, Object.keys(v.releases)])).toEqual([
      ["26.1", 4786, 4790, ["26.1", "26.1.1", "26.1.2"]],
      ["26.2", 4903, 4903, ["26.2"]],
    ]);
    const patch = createBlockRegistry({ version: "26.1.2" });
    expect(patch.ok && [patch.value.minecraftVersion, patch.value.dataVersion, patch.value.blockTypes.size]).toEqual(["26.1.2", 4790, 1168]);
  });

  it("a 26.2 block in the 26.1 registry says it is new in 26.2", () => {
    const old = createBlockRegistry({ version: "26.1" });
    if (!old.ok) throw new Error(old.error.message);
    expect(old.value.resolveState("minecraft:cinnabar")).toMatchObject({
      ok: false,
      error: { code: "unsupported_block", message: expect.stringContaining("new in Minecraft 26.2"), details: { reason: "unknown_block", since: "26.2" } },
    });
  });

  it("heightmap facts are the game's: signs and pressure plates block motion, ladders do not; waterlogged states hold a fluid", () => {
    const s = blockShapes(reg);
    expect(s.blocksMotion("minecraft:stone")).toBe(true);
    expect(s.blocksMotion("minecraft:air")).toBe(false);
    expect(s.blocksMotion("minecraft:oak_sign[rotation=0,waterlogged=false]")).toBe(true);
    expect(s.blocksMotion("minecraft:ladder[facing=north,waterlogged=false]")).toBe(false);
    expect(s.fluid("minecraft:water[level=0]")).toBe(true);
    expect(s.fluid("minecraft:ladder[facing=north,waterlogged=true]")).toBe(true);
    expect(s.fluid("minecraft:ladder[facing=north,waterlogged=false]")).toBe(false);
    expect(s.fluid("minecraft:kelp[age=0]")).toBe(true);
  });

  it("decodes the game's default states", () => {
    expect(reg.blockTypes.get("minecraft:oak_stairs")?.defaultState).toBe("minecraft:oak_stairs[facing=north,half=bottom,shape=straight,waterlogged=false]");
    expect(reg.blockTypes.get("minecraft:oak_log")?.defaultState).toBe("minecraft:oak_log[axis=y]");
    expect(reg.blockTypes.get("minecraft:oak_door")?.defaultState).toBe("minecraft:oak_door[facing=north,half=lower,hinge=left,open=false,powered=false]");
    expect(reg.blockTypes.get("minecraft:oak_leaves")?.defaultState).toBe("minecraft:oak_leaves[distance=7,persistent=false,waterlogged=false]");
    expect(reg.blockTypes.get("minecraft:redstone_wire")?.defaultState).toBe("minecraft:redstone_wire[east=none,north=none,power=0,south=none,west=none]");
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
    expect(n).toBe(1196);
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
    expect(cases).toBe(6655); // 4,595 values other than the default + each property's default
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

  it("loads another version on request and refuses those it does not have, naming the ones it has", () => {
    const older = createBlockRegistry({ version: "26.1" });
    expect(older.ok && older.value.blockTypes.has("minecraft:cinnabar")).toBe(false);
    expect(createBlockRegistry({ version: "9.99" })).toMatchObject({
      ok: false,
      error: { code: "version_mismatch", message: expect.stringContaining("26.1, 26.1.1, 26.1.2, 26.2") },
    });
    expect(createBlockRegistry({ version: "1.21.4" })).toMatchObject({ ok: false, error: { code: "version_mismatch" } });
  });

  it("behaviour hints mark known categories", () => {
    const hints = (id: string) => reg.blockTypes.get(id)?.behavior;
    expect(hints("minecraft:sand")).toContain("gravity");
    expect(hints("minecraft:red_concrete_powder")).toContain("gravity");
    expect(hints("minecraft:water")).toContain("fluid");
    expect(hints("minecraft:chest")).toContain("block_entity");
    expect(hints("minecraft:oak_sign")).toEqual(expect.arrayContaining(["attachment", "block_entity"]));
    expect(hints("minecraft:oak_door")).toEqual(["attachment", "multipart"]);
    // 26.2 dropped the bed's block entity (its type is gone from the game's registry); 26.1 beds have one.
    expect(hints("minecraft:red_bed")).toEqual(["attachment", "multipart"]);
    const old = createBlockRegistry({ version: "26.1" });
    expect(old.ok && old.value.blockTypes.get("minecraft:red_bed")?.behavior).toEqual(["attachment", "multipart", "block_entity"]);
    expect(hints("minecraft:potent_sulfur")).toEqual(["block_entity"]);
    expect(hints("minecraft:stone")).toEqual([]);
    expect(hints("minecraft:piston_head")).not.toContain("block_entity");
  });
});
