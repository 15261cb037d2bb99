import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import nbt from "prismarine-nbt";
import { describe, expect, it } from "vitest";
import { blockEntityType, ok, rotateState, type QuarterTurns } from "@mcb/blocks";
import type { RegionSlab } from "@mcb/engine";
import { readSchematic, schematicFromRegion, schematicToPlan, writeSchematic, type Schematic } from "@mcb/schematic";
import { Harness, sharedRegistry, unwrap } from "../src/index.js";

// Containers and a sign: their data (items, a name) must arrive byte for byte, digests and all.
const ENTITY_STATES = [
  "minecraft:chest[facing=north,type=single,waterlogged=false]",
  "minecraft:barrel[facing=up,open=false]",
  "minecraft:furnace[facing=east,lit=false]",
  "minecraft:oak_sign[rotation=4,waterlogged=false]",
];
const ITEMS = ["minecraft:diamond", "minecraft:oak_log", "minecraft:bread", "minecraft:torch"];
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

interface Entity {
  readonly at: number;
  readonly kind: number;
  readonly name: string;
  readonly items: readonly { readonly slot: number; readonly item: number; readonly count: number }[];
}

/** A Sponge v3 file written by prismarine-nbt (an encoder independent of ours). */
function spongeV3(w: number, h: number, l: number, entities: readonly Entity[], dataVersion: number): Buffer {
  const palette: Record<string, { type: "int"; value: number }> = { "minecraft:stone": { type: "int", value: 0 } };
  ENTITY_STATES.forEach((s, i) => (palette[s] = { type: "int", value: i + 1 }));
  const data = new Array<number>(w * h * l).fill(0);
  for (const e of entities) data[e.at] = e.kind + 1;
  const blockEntities = entities.map((e) => {
    const x = e.at % w,
      z = Math.floor(e.at / w) % l,
      y = Math.floor(e.at / (w * l));
    const items = e.items.map((it) => ({
      Slot: { type: "byte", value: it.slot },
      id: { type: "string", value: ITEMS[it.item]! },
      count: { type: "int", value: it.count },
    }));
    return {
      Pos: { type: "intArray", value: [x, y, z] },
      Id: { type: "string", value: ENTITY_STATES[e.kind]!.startsWith("minecraft:oak_sign") ? "minecraft:sign" : ENTITY_STATES[e.kind]!.replace(/\[.*/, "") },
      Data: { type: "compound", value: { CustomName: { type: "string", value: e.name }, Items: { type: "list", value: { type: "compound", value: items } } } },
    };
  });
  const root = {
    type: "compound",
    name: "",
    value: {
      Schematic: {
        type: "compound",
        value: {
          Version: { type: "int", value: 3 },
          DataVersion: { type: "int", value: dataVersion },
          Width: { type: "short", value: w },
          Height: { type: "short", value: h },
          Length: { type: "short", value: l },
          Offset: { type: "intArray", value: [0, 0, 0] },
          Blocks: {
            type: "compound",
            value: {
              Palette: { type: "compound", value: palette },
              Data: { type: "byteArray", value: data },
              BlockEntities: { type: "list", value: { type: "compound", value: blockEntities } },
            },
          },
        },
      },
    },
  };
  return gzipSync(nbt.writeUncompressed(root as unknown as nbt.NBT));
}

/** Java's modified UTF-8 (DataOutput.writeUTF), written out here as the check: UTF-16 units, NUL as C0 80. */
function mutf8(s: string): Buffer {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 1 && c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Buffer.from(out);
}

function turn(x: number, z: number, t: number): [number, number] {
  for (let i = 0; i < t; i++) [x, z] = [0 - z, x];
  return [x, z];
}

const entitiesArb = (volume: number) =>
  fc.uniqueArray(
    fc.record({
      at: fc.nat({ max: volume - 1 }),
      kind: fc.nat({ max: ENTITY_STATES.length - 1 }),
      // Any string, surrogate pairs and NUL included: NBT strings are modified UTF-8.
      name: fc.string({ unit: "grapheme", maxLength: 12 }),
      items: fc.uniqueArray(fc.record({ slot: fc.nat({ max: 26 }), item: fc.nat({ max: ITEMS.length - 1 }), count: fc.integer({ min: 1, max: 64 }) }), {
        selector: (i) => i.slot,
        maxLength: 5,
      }),
    }),
    { selector: (e) => e.at, minLength: 1, maxLength: 6 },
  );

describe("block-entity data through import → paste → export (property)", () => {
  it("each block entity lands at its turned position with its data byte for byte, exports back the same, and undo removes it", async () => {
    const registry = sharedRegistry();
    await fc.assert(
      fc.asyncProperty(
        fc
          .record({ w: fc.integer({ min: 1, max: 4 }), h: fc.integer({ min: 1, max: 3 }), l: fc.integer({ min: 1, max: 4 }) })
          .chain((size) =>
            fc.record({ size: fc.constant(size), entities: entitiesArb(size.w * size.h * size.l), turns: fc.constantFrom<QuarterTurns>(0, 1, 2, 3) }),
          ),
        async ({ size, entities, turns }) => {
          const h = await Harness.create();
          try {
            const read = unwrap(readSchematic(registry, spongeV3(size.w, size.h, size.l, entities, registry.dataVersion)));
            expect(read.loss).toEqual({});
            const loaded = read.schematic;
            expect(loaded.blockEntities.length).toBe(entities.length);
            const target = { x: 20, y: 70, z: -5 };
            const plan = unwrap(schematicToPlan(registry, loaded, { target, turns }));
            expect(plan.blockData.length).toBe(entities.length);
            const prepared = unwrap(await h.engine.buildPrepare(h.agent, { plan }));
            const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: prepared.plan_id, plan_hash: prepared.plan_hash, idempotency_key: "paste" }));
            await h.engine.settle();
            expect(unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id })).status).toBe("applied");

            const landed = new Map<string, Uint8Array>();
            for (const be of loaded.blockEntities) {
              const [rx, rz] = turn(be.x, be.z, turns);
              const x = target.x + rx,
                y = target.y + be.y,
                z = target.z + rz;
              const state = loaded.palette[loaded.blocks[be.x + be.z * loaded.width + be.y * loaded.width * loaded.length]!]!;
              expect(h.world.stateAt(x, y, z)).toBe(rotateState(registry, registry.stateOf(state), turns).canonical);
              expect(h.world.digestAt(x, y, z)).toBe(sha(be.data));
              const data = (await h.world.readBlockEntities({ minX: x, minY: y, minZ: z, maxX: x, maxY: y, maxZ: z })).get(0)!;
              expect(Buffer.from(data).equals(Buffer.from(be.data))).toBe(true);
              landed.set(`${x},${y},${z}`, data);
            }
            // What the world holds decodes (prismarine-nbt) to what the file said: names, items.
            for (const e of entities) {
              const ex = e.at % size.w,
                ez = Math.floor(e.at / size.w) % size.l,
                ey = Math.floor(e.at / (size.w * size.l));
              const [rx, rz] = turn(ex, ez, turns);
              const parsed = nbt.simplify(nbt.parseUncompressed(Buffer.from(landed.get(`${target.x + rx},${target.y + ey},${target.z + rz}`)!))) as {
                CustomName: string;
                Items: { Slot: number; id: string; count: number }[];
              };
              // prismarine-nbt reads strings as plain UTF-8; the world holds Java's modified UTF-8.
              if (!/[\u0000\ud800-\udfff]/.test(e.name)) expect(parsed.CustomName).toBe(e.name);
              const name = mutf8(e.name);
              const tag = Buffer.concat([Buffer.from([8, 0, 10]), Buffer.from("CustomName"), Buffer.from([name.length >> 8, name.length & 255]), name]);
              expect(Buffer.from(landed.get(`${target.x + rx},${target.y + ey},${target.z + rz}`)!).includes(tag)).toBe(true);
              expect(parsed.Items.map((i) => [i.Slot, i.id, i.count]).sort()).toEqual(e.items.map((i) => [i.slot, ITEMS[i.item], i.count]).sort());
            }

            // The same paste again changes nothing: same states, same data digests.
            const again = unwrap(await h.engine.buildPrepare(h.agent, { plan }));
            expect(again.changed_blocks).toBe(0);

            // Export of the pasted box holds the same block entities, data unchanged.
            const [ax, az] = turn(size.w - 1, size.l - 1, turns);
            const min = { x: Math.min(target.x, target.x + ax), y: target.y, z: Math.min(target.z, target.z + az) };
            const max = { x: Math.max(target.x, target.x + ax), y: target.y + size.h - 1, z: Math.max(target.z, target.z + az) };
            const slabs: RegionSlab[] = [];
            unwrap(await h.engine.regionSlabs(h.agent, { min, max, maxPositions: 32_768 }, (slab) => (slabs.push(slab), ok(null))));
            expect(slabs).toHaveLength(1);
            const region = slabs[0]!;
            const exported: Schematic = unwrap(
              schematicFromRegion({
                region,
                ...(region.entityData === undefined ? {} : { entityData: region.entityData }),
                origin: min,
                dataVersion: registry.dataVersion,
                blockEntityType: blockEntityType(registry),
              }),
            );
            const back = unwrap(readSchematic(registry, writeSchematic(exported))).schematic;
            expect(back.blockEntities.map((be) => [`${min.x + be.x},${min.y + be.y},${min.z + be.z}`, sha(be.data)]).sort()).toEqual(
              [...landed].map(([k, d]) => [k, sha(d)]).sort(),
            );

            const undo = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: op.operation_id }));
            unwrap(await h.engine.buildApply(h.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "undo" }));
            await h.engine.settle();
            for (const key of landed.keys()) {
              const [x, y, z] = key.split(",").map(Number) as [number, number, number];
              expect(h.world.stateAt(x, y, z)).toBe("minecraft:air");
              expect(h.world.digestAt(x, y, z)).toBeNull();
            }
          } finally {
            h.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});

describe("block-entity data: what a paste may not do", () => {
  const CHEST = ENTITY_STATES[0]!;
  const file = () => spongeV3(1, 1, 1, [{ at: 0, kind: 0, name: "loot", items: [{ slot: 0, item: 0, count: 3 }] }], sharedRegistry().dataVersion);

  it("refuses to replace a player's chest contents, names the position, and changes nothing", async () => {
    const h = await Harness.create();
    try {
      const registry = sharedRegistry();
      h.world.externalEdit(5, 64, 5, CHEST);
      const playerData = Buffer.from(
        nbt.writeUncompressed({
          type: "compound",
          name: "",
          value: { Items: { type: "list", value: { type: "compound", value: [{ id: { type: "string", value: "minecraft:emerald" } }] } } },
        } as unknown as nbt.NBT),
      );
      h.world.setBlockEntityData(5, 64, 5, playerData);
      const plan = unwrap(schematicToPlan(registry, unwrap(readSchematic(registry, file())).schematic, { target: { x: 5, y: 64, z: 5 } }));
      // The player's chest is their edit: a conflict found in advance, naming it …
      const r = await h.engine.buildPrepare(h.agent, { plan });
      expect(r).toMatchObject({
        ok: false,
        error: { code: "conflict", details: { reason: "manual_edits", count: 1, sample: [{ pos: { x: 5, y: 64, z: 5 } }] } },
      });
      // … and even an owner's replace cannot destroy its contents: the data is never overwritten.
      const replaced = await h.engine.buildPrepare(h.agent, { plan, replace: [{ x: 5, y: 64, z: 5 }] });
      expect(replaced).toMatchObject({
        ok: false,
        error: { code: "unsupported_block", details: { reason: "block_entity_data", count: 1, sample: [{ pos: { x: 5, y: 64, z: 5 }, replaces_data: true }] } },
      });
      // Kept, the paste leaves the chest as it is.
      const kept = unwrap(await h.engine.buildPrepare(h.agent, { plan, on_manual_edit: "keep" }));
      expect(kept.manual_edits.kept).toBe(1);
      expect(h.world.digestAt(5, 64, 5)).toBe(sha(playerData));
      // A chest that was there before the project (no edit observed) is refused by the data rule alone.
      h.world.externalEdit(6, 64, 5, CHEST, { emitEvent: false });
      h.world.setBlockEntityData(6, 64, 5, playerData, false);
      const before = unwrap(schematicToPlan(registry, unwrap(readSchematic(registry, file())).schematic, { target: { x: 6, y: 64, z: 5 } }));
      expect(await h.engine.buildPrepare(h.agent, { plan: before })).toMatchObject({
        ok: false,
        error: { code: "unsupported_block", details: { reason: "block_entity_data" } },
      });
    } finally {
      h.close();
    }
  });

  it("refuses data at a block without a block entity, and data changes the plan hash", async () => {
    const registry = sharedRegistry();
    const chest = unwrap(readSchematic(registry, file())).schematic;
    const plan = unwrap(schematicToPlan(registry, chest, { target: { x: 0, y: 64, z: 0 } }));
    const bare = unwrap(schematicToPlan(registry, { ...chest, blockEntities: [] }, { target: { x: 0, y: 64, z: 0 } }));
    expect(plan.planHash).not.toBe(bare.planHash);
    const stoneWithData = { ...chest, palette: ["minecraft:stone"], blocks: Uint32Array.of(0) };
    const h = await Harness.create();
    try {
      const bad = unwrap(schematicToPlan(registry, stoneWithData, { target: { x: 0, y: 64, z: 0 } }));
      expect(await h.engine.buildPrepare(h.agent, { plan: bad })).toMatchObject({
        ok: false,
        error: { code: "invalid_request", details: { reason: "block_data", pos: { x: 0, y: 64, z: 0 } } },
      });
      expect(h.world.stateAt(0, 64, 0)).toBe("minecraft:air");
    } finally {
      h.close();
    }
  });
});
