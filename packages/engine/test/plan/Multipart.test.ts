import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Harness, unwrap } from "@mcb/property-tests";
import { pairMultipart, partnerOf, sliceBounds } from "../../src/plan/Multipart.js";

const DOOR_LOWER = "minecraft:oak_door[facing=east,half=lower,hinge=left,open=false,powered=false]";
const DOOR_UPPER = "minecraft:oak_door[facing=east,half=upper,hinge=left,open=false,powered=false]";
const STONE = "minecraft:stone";

describe("multi-block pairs", () => {
  it("links door halves vertically and bed parts along facing; ordinary halves do not link", () => {
    expect(partnerOf(DOOR_LOWER)).toEqual({ id: "minecraft:oak_door", dx: 0, dy: 1, dz: 0 });
    expect(partnerOf(DOOR_UPPER)).toEqual({ id: "minecraft:oak_door", dx: 0, dy: -1, dz: 0 });
    expect(partnerOf("minecraft:red_bed[facing=north,occupied=false,part=foot]")).toMatchObject({ dx: 0, dz: -1 });
    expect(partnerOf("minecraft:red_bed[facing=west,occupied=false,part=head]")).toMatchObject({ dx: 1, dz: 0 });
    expect(partnerOf("minecraft:oak_stairs[facing=east,half=top,shape=straight,waterlogged=false]")).toBeNull();
    expect(partnerOf(STONE)).toBeNull();
  });

  it("makes pairs adjacent, keeps every write exactly once, and requires mutual links of one id", () => {
    // plan order (y, z, x): stone (0,64,0), lower (1,64,0), stone (2,64,0), upper (1,65,0), lone upper (5,65,0)
    const pos = [0, 64, 0, 1, 64, 0, 2, 64, 0, 1, 65, 0, 5, 65, 0];
    const air = "minecraft:air";
    const after = [STONE, DOOR_LOWER, STONE, DOOR_UPPER, DOOR_UPPER];
    const { order, pairStarts } = pairMultipart(
      pos,
      after.map(() => air),
      after,
    );
    expect(order).toEqual([0, 1, 3, 2, 4]);
    expect(pairStarts).toEqual([1]);
    const mixed = pairMultipart([0, 64, 0, 0, 65, 0], [air, air], [DOOR_LOWER, DOOR_UPPER.replace("oak", "birch")]);
    expect(mixed.pairStarts).toEqual([]);
  });

  it("slice bounds never split a pair and never exceed the slice size", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 2, max: 9 }), fc.array(fc.nat(60)), (n, size, raw) => {
        const starts: number[] = [];
        for (const s of [...new Set(raw)].sort((a, b) => a - b)) if (s + 1 < n && !starts.includes(s - 1)) starts.push(s);
        const b = sliceBounds(n, starts, size);
        expect(b[0]).toBe(0);
        expect(b[b.length - 1]).toBe(n);
        for (let k = 1; k < b.length; k++) {
          expect(b[k]! - b[k - 1]!).toBeGreaterThan(0);
          expect(b[k]! - b[k - 1]!).toBeLessThanOrEqual(size);
          expect(starts.includes(b[k]! - 1) && b[k]! < n).toBe(false);
        }
      }),
    );
  });

  it("a door is one compare-and-set group: a changed upper half keeps the lower half unwritten", async () => {
    const h = await Harness.create();
    const recipe = {
      version: 1,
      operations: [
        { type: "box", min: { x: 0, y: 64, z: 0 }, max: { x: 3, y: 64, z: 0 }, block: STONE },
        { type: "box", min: { x: 5, y: 64, z: 0 }, max: { x: 5, y: 64, z: 0 }, block: DOOR_LOWER },
        { type: "box", min: { x: 5, y: 65, z: 0 }, max: { x: 5, y: 65, z: 0 }, block: DOOR_UPPER },
        { type: "box", min: { x: 0, y: 65, z: 0 }, max: { x: 3, y: 65, z: 0 }, block: STONE },
      ],
    };
    const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe }));
    const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "door" }));
    h.faults.beforeCompareAndSet = () => h.world.externalEdit(5, 65, 0, "minecraft:glass");
    await h.engine.settle();
    const st = unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id }));
    expect(st.status).toBe("conflict");
    expect(st.counters.written).toBe(4);
    expect(h.world.stateAt(5, 64, 0)).toBe("minecraft:air");
    expect(h.world.stateAt(3, 64, 0)).toBe(STONE);
    h.close();
  });

  it("slices end before a pair rather than split it, and undo removes the door as a pair", async () => {
    const h = await Harness.create({ limits: { sliceSize: 2 } });
    const recipe = {
      version: 1,
      operations: [
        { type: "box", min: { x: 0, y: 64, z: 0 }, max: { x: 0, y: 64, z: 0 }, block: STONE },
        { type: "box", min: { x: 1, y: 64, z: 0 }, max: { x: 1, y: 64, z: 0 }, block: DOOR_LOWER },
        { type: "box", min: { x: 1, y: 65, z: 0 }, max: { x: 1, y: 65, z: 0 }, block: DOOR_UPPER },
      ],
    };
    const st = await h.build(recipe);
    expect(st).toMatchObject({ status: "applied", counters: { written: 3, slices_total: 2 } });
    expect(h.journal.slices(st.operation_id).map((s) => [s.start, s.end])).toEqual([
      [0, 1],
      [1, 3],
    ]);
    const undo = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: st.operation_id }));
    const u = unwrap(await h.engine.buildApply(h.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "u" }));
    await h.engine.settle();
    const done = unwrap(await h.engine.operationStatus(h.agent, { operation_id: u.operation_id }));
    expect(done.counters.slices_total).toBe(2);
    expect(h.journal.slices(u.operation_id).map((s) => [s.start, s.end])).toEqual([
      [0, 1],
      [1, 3],
    ]);
    expect(h.world.stateAt(1, 65, 0)).toBe("minecraft:air");
    h.close();
  });
});
