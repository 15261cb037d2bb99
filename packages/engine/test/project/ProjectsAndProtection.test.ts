import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Harness, boxRecipe, unwrap } from "@mcb/property-tests";
import type { RequestContext } from "../../src/index.js";
import { harnessPool } from "../harnesses.js";

const STONE = "minecraft:stone";
const GLASS = "minecraft:glass";

const harness = harnessPool();
const waitFor = async (h: Harness, id: string) => {
  await h.engine.settle();
  return unwrap(await h.engine.operationStatus(h.agent, { operation_id: id }));
};

describe("projects defined by the host", () => {
  it("creates a project with its own owner and area, and refuses bad definitions", async () => {
    const h = await harness();
    const alice: RequestContext = { principal: { playerId: "alice", role: "agent" }, projectId: "tower" };
    expect(await h.engine.projectContext(alice)).toMatchObject({ ok: false, error: { code: "permission_denied" } });
    unwrap(h.engine.defineProject({ projectId: "tower", ownerId: "alice", area: { minX: 100, minY: 64, minZ: 100, maxX: 110, maxY: 80, maxZ: 110 } }));
    const inside = unwrap(await h.engine.buildPrepare(alice, { recipe: boxRecipe({ x: 100, y: 64, z: 100 }, { x: 101, y: 64, z: 100 }, STONE) }));
    expect(inside.changed_blocks).toBe(2);
    expect(await h.engine.buildPrepare(alice, { recipe: boxRecipe({ x: 99, y: 64, z: 100 }, { x: 100, y: 64, z: 100 }, STONE) })).toMatchObject({
      ok: false,
      error: { code: "out_of_bounds" },
    });
    // the harness owner is not a member of alice's project, and alice not of the default one
    expect(await h.engine.projectContext({ ...alice, principal: { playerId: "owner-1", role: "agent" } })).toMatchObject({
      ok: false,
      error: { code: "permission_denied" },
    });
    for (const bad of [
      { projectId: "../x", ownerId: "a", area: { minX: 0, minY: 0, minZ: 0, maxX: 1, maxY: 1, maxZ: 1 } },
      { projectId: "ok", ownerId: "a", area: { minX: 2, minY: 0, minZ: 0, maxX: 1, maxY: 1, maxZ: 1 } },
      { projectId: "ok", ownerId: "a", area: { minX: 0.5, minY: 0, minZ: 0, maxX: 1, maxY: 1, maxZ: 1 } },
      { projectId: "ok", ownerId: "", area: { minX: 0, minY: 0, minZ: 0, maxX: 1, maxY: 1, maxZ: 1 } },
    ])
      expect(h.engine.defineProject(bad)).toMatchObject({ ok: false, error: { code: "invalid_request" } });
    expect(await h.engine.projectContext({ ...alice, projectId: "ok" })).toMatchObject({ ok: false });
  });

  it("a smaller area stops a running operation whose plan leaves it, before its next slice", async () => {
    const h = await harness({ limits: { sliceSize: 16, maxBlocksPerSecond: 400 } });
    const area = { minX: 0, minY: 64, minZ: 0, maxX: 15, maxY: 80, maxZ: 15 };
    unwrap(h.engine.defineProject({ projectId: "p", ownerId: "bob", area }));
    const bob: RequestContext = { principal: { playerId: "bob", role: "agent" }, projectId: "p" };
    const plan = unwrap(await h.engine.buildPrepare(bob, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 15, y: 64, z: 7 }, STONE) }));
    const op = unwrap(await h.engine.buildApply(bob, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "shrink" }));
    while (unwrap(await h.engine.operationStatus(bob, { operation_id: op.operation_id })).counters.written === 0) await new Promise((r) => setTimeout(r, 5));
    unwrap(h.engine.defineProject({ projectId: "p", ownerId: "bob", area: { ...area, maxZ: 3 } }));
    await h.engine.settle();
    const done = unwrap(await h.engine.operationStatus(bob, { operation_id: op.operation_id }));
    expect(done.status).toBe("failed");
    expect(done.error?.message).toMatch(/area changed/);
    expect(done.counters.written).toBeGreaterThan(0);
    expect(done.counters.written).toBeLessThan(128);
    let stone = 0;
    const read = await h.world.read({ minX: 0, minY: 64, minZ: 0, maxX: 15, maxY: 64, maxZ: 7 });
    for (const i of read.states) if (read.palette[i] === STONE) stone++;
    expect(stone).toBe(done.counters.written);
  });
});

async function builtPart(h: Harness) {
  const op = await h.build(boxRecipe({ x: 0, y: 64, z: 0 }, { x: 3, y: 67, z: 3 }, STONE, true));
  const part = unwrap(await h.engine.partDefine(h.agent, { name: "keep", operation_id: op.operation_id }));
  return { op, part };
}

describe("protected parts", () => {
  it("refuses builds and undos that touch the exact mask, not the bounds, until unprotected", async () => {
    const h = await harness();
    const { op, part } = await builtPart(h);
    unwrap(h.engine.protectPart(h.agent, part.part_id, true));
    expect(h.engine.protectedParts("default")).toEqual([part.part_id]);
    const touching = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 3, y: 64, z: 3 }, { x: 5, y: 64, z: 5 }, GLASS) });
    expect(touching).toMatchObject({
      ok: false,
      error: { code: "permission_denied", details: { reason: "protected_part", part_id: part.part_id, count: 1, sample: [{ x: 3, y: 64, z: 3 }] } },
    });
    // inside the bounds but not the mask (the hollow interior): allowed
    expect(unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 1, y: 65, z: 1 }, { x: 2, y: 66, z: 2 }, GLASS) })).changed_blocks).toBe(8);
    expect(await h.engine.operationUndoPrepare(h.agent, { operation_id: op.operation_id })).toMatchObject({
      ok: false,
      error: { details: { reason: "protected_part" } },
    });
    unwrap(h.engine.protectPart(h.agent, part.part_id, false));
    expect(unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: op.operation_id })).changed_blocks).toBe(op.counters.written);
    expect(h.engine.protectPart(h.agent, "part_nope", true)).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("a plan prepared before the part was protected is refused at apply, and a running one stops", async () => {
    const h = await harness({ limits: { sliceSize: 8, maxBlocksPerSecond: 300 } });
    const { part } = await builtPart(h);
    const early = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 0, y: 64, z: 0 }, GLASS) }));
    unwrap(h.engine.protectPart(h.agent, part.part_id, true));
    expect(await h.engine.buildApply(h.agent, { plan_id: early.plan_id, plan_hash: early.plan_hash, idempotency_key: "late" })).toMatchObject({
      ok: false,
      error: { details: { reason: "protected_part" } },
    });
    unwrap(h.engine.protectPart(h.agent, part.part_id, false));
    // a long build ending inside the part: protected while it runs
    const long = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: -20, y: 64, z: 0 }, { x: 0, y: 64, z: 0 }, GLASS) }));
    const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: long.plan_id, plan_hash: long.plan_hash, idempotency_key: "long" }));
    while (unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id })).counters.written === 0)
      await new Promise((r) => setTimeout(r, 5));
    unwrap(h.engine.protectPart(h.agent, part.part_id, true));
    const done = await waitFor(h, op.operation_id);
    expect(done).toMatchObject({ status: "failed", error: { code: "permission_denied" } });
    expect(done.counters.written).toBeLessThan(21);
    expect((await h.world.read({ minX: 0, minY: 64, minZ: 0, maxX: 0, maxY: 64, maxZ: 0 })).palette[0]).toBe(STONE);
  });
});

describe("write pacing (maxBlocksPerSecond)", () => {
  it("spaces slices to the rate and a cancel still lands between them", async () => {
    const h = await harness({ limits: { sliceSize: 50, maxBlocksPerSecond: 1000 } });
    const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 19, y: 64, z: 9 }, STONE) }));
    const t0 = performance.now();
    const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "paced" }));
    const done = await waitFor(h, op.operation_id);
    const ms = performance.now() - t0;
    expect(done.counters.written).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(145); // 3 paced gaps of 50 ms after the first slice
    const big = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 70, z: 0 }, { x: 49, y: 70, z: 49 }, STONE) }));
    const op2 = unwrap(await h.engine.buildApply(h.agent, { plan_id: big.plan_id, plan_hash: big.plan_hash, idempotency_key: "paced2" }));
    await new Promise((r) => setTimeout(r, 120));
    unwrap(await h.engine.operationCancel(h.agent, { operation_id: op2.operation_id }));
    const cancelled = await waitFor(h, op2.operation_id);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.counters.written).toBeGreaterThan(0);
    expect(cancelled.counters.written).toBeLessThan(2500);
    expect(cancelled.counters.written % 50).toBe(0);
  });

  it("rejects a rate that is not a positive integer", async () => {
    await expect(Harness.create({ limits: { maxBlocksPerSecond: 0 } })).rejects.toThrow(/maxBlocksPerSecond/);
    await expect(Harness.create({ limits: { maxBlocksPerSecond: 1.5 } })).rejects.toThrow(/maxBlocksPerSecond/);
  });

  it("property: a protected mask is never written by any plan, whatever the boxes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(fc.integer({ min: -3, max: 6 }), fc.integer({ min: -3, max: 6 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })),
        async ([x, z, dx, dz]) => {
          const h = await Harness.create();
          try {
            const { part } = await builtPart(h);
            unwrap(h.engine.protectPart(h.agent, part.part_id, true));
            const before = await h.world.read({ minX: 0, minY: 64, minZ: 0, maxX: 3, maxY: 67, maxZ: 3 });
            const p = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x, y: 64, z }, { x: x + dx, y: 67, z: z + dz }, GLASS) });
            if (p.ok) await h.engine.buildApply(h.agent, { plan_id: p.value.plan_id, plan_hash: p.value.plan_hash, idempotency_key: "prop" });
            await h.engine.settle();
            const after = await h.world.read({ minX: 0, minY: 64, minZ: 0, maxX: 3, maxY: 67, maxZ: 3 });
            for (let i = 0; i < before.states.length; i++) {
              if (before.palette[before.states[i]!] === STONE) expect(after.palette[after.states[i]!]).toBe(STONE);
            }
          } finally {
            h.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
