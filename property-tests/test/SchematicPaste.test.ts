import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blockEntityType, rotateState, type QuarterTurns } from "@mcb/blocks";
import { readSchematic, schematicFromRegion, schematicToPlan, writeSchematic } from "@mcb/schematic";
import { Harness, sharedRegistry, unwrap } from "../src/index.js";

const STATES = [
  "minecraft:air",
  "minecraft:stone",
  "minecraft:oak_log[axis=x]",
  "minecraft:oak_stairs[facing=east,half=top,shape=inner_left,waterlogged=false]",
  "minecraft:rail[shape=north_east,waterlogged=false]",
  "minecraft:oak_fence[east=true,north=false,south=true,waterlogged=false,west=false]",
  "minecraft:ladder[facing=north,waterlogged=false]",
  "minecraft:repeater[delay=2,facing=west,locked=false,powered=false]",
];

function turn(x: number, z: number, t: number): [number, number] {
  for (let i = 0; i < t; i++) [x, z] = [0 - z, x];
  return [x, z];
}

describe("schematic export → file → rotated paste through the engine (property)", () => {
  it("every block lands at target + R(p − origin) with its state turned; undo clears the paste", async () => {
    const registry = sharedRegistry();
    const canon = STATES.map((s) => unwrap(registry.resolveState(s)).canonical);
    await fc.assert(
      fc.asyncProperty(
        fc.record({ w: fc.integer({ min: 1, max: 5 }), h: fc.integer({ min: 1, max: 3 }), l: fc.integer({ min: 1, max: 5 }) }),
        fc.array(fc.nat({ max: STATES.length - 1 }), { minLength: 1, maxLength: 75 }),
        fc.record({ x: fc.integer({ min: -3, max: 3 }), y: fc.integer({ min: -2, max: 2 }), z: fc.integer({ min: -3, max: 3 }) }),
        fc.record({ x: fc.integer({ min: 100, max: 140 }), y: fc.integer({ min: 70, max: 90 }), z: fc.integer({ min: -40, max: 40 }) }),
        fc.constantFrom<QuarterTurns>(0, 1, 2, 3),
        async (size, fill, originShift, target, turns) => {
          const h = await Harness.create();
          const min = { x: 0, y: 64, z: 0 };
          const source = new Map<string, string>();
          let k = 0;
          for (let y = 0; y < size.h; y++)
            for (let z = 0; z < size.l; z++)
              for (let x = 0; x < size.w; x++) {
                const s = canon[fill[k++ % fill.length]!]!;
                source.set(`${x},${y},${z}`, s);
                if (s !== "minecraft:air") h.world.externalEdit(x, 64 + y, z, s, { emitEvent: false });
              }
          const region = await h.world.read({ minX: 0, minY: 64, minZ: 0, maxX: size.w - 1, maxY: 64 + size.h - 1, maxZ: size.l - 1 });
          const origin = { x: min.x + originShift.x, y: min.y + originShift.y, z: min.z + originShift.z };
          const exported = unwrap(schematicFromRegion({ region, origin, dataVersion: registry.dataVersion, blockEntityType: blockEntityType(registry) }));
          const file = writeSchematic(exported);
          const loaded = unwrap(readSchematic(registry, file)).schematic;
          const plan = unwrap(schematicToPlan(registry, loaded, { target, turns }));
          const prepared = unwrap(await h.engine.buildPrepare(h.agent, { plan }));
          const apply = await h.engine.buildApply(h.agent, { plan_id: prepared.plan_id, plan_hash: prepared.plan_hash, idempotency_key: "paste" });
          if ([...source.values()].every((s) => s === "minecraft:air")) {
            // Only air, pasted where there is only air: nothing to write, and no operation for it.
            expect(prepared.changed_blocks).toBe(0);
            expect(apply).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "empty_plan" } } });
            h.close();
            return;
          }
          const op = unwrap(apply);
          await h.engine.settle();
          expect(unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id })).status).toBe("applied");
          for (const [key, s] of source) {
            const [x, y, z] = key.split(",").map(Number) as [number, number, number];
            const [rx, rz] = turn(min.x + x - origin.x, min.z + z - origin.z, turns);
            const want = rotateState(registry, registry.stateOf(s), turns).canonical;
            expect(h.world.stateAt(target.x + rx, min.y + y - origin.y + target.y, target.z + rz)).toBe(want);
          }
          const undo = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: op.operation_id }));
          unwrap(await h.engine.buildApply(h.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "undo" }));
          await h.engine.settle();
          for (const [key] of source) {
            const [x, y, z] = key.split(",").map(Number) as [number, number, number];
            const [rx, rz] = turn(min.x + x - origin.x, min.z + z - origin.z, turns);
            expect(h.world.stateAt(target.x + rx, min.y + y - origin.y + target.y, target.z + rz)).toBe("minecraft:air");
          }
          h.close();
        },
      ),
      { numRuns: 150 },
    );
  });
});
