import { describe, expect, it } from "vitest";
import { boxRecipe, unwrap, type Harness } from "@mcb/property-tests";
import { harnessPool } from "../harnesses.js";

/** part_diff over several parts or a box: what people changed since we built, in one call. */
const harness = harnessPool();
const v = (x: number, y: number, z: number) => ({ x, y, z });

async function part(h: Harness, name: string, min: ReturnType<typeof v>, max: ReturnType<typeof v>, block: string) {
  const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe(min, max, block) }));
  const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: `k-${name}`, part_name: name }));
  await h.engine.settle();
  return unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id })).part!.part_id!;
}

describe("part_diff over several parts or a box", () => {
  it("counts each part's share of people's edits, observed or found by content", async () => {
    const h = await harness();
    const walls = await part(h, "walls", v(0, 64, 0), v(4, 66, 0), "minecraft:bricks");
    const roof = await part(h, "roof", v(0, 67, 0), v(4, 67, 0), "minecraft:oak_planks");
    const door = await part(h, "door", v(2, 64, 1), v(2, 64, 1), "minecraft:stone");
    h.world.externalEdit(1, 65, 0, "minecraft:glass");
    h.world.externalEdit(3, 65, 0, "minecraft:glass", { emitEvent: false }); // found by content
    h.world.externalEdit(4, 67, 0, "minecraft:air");
    const many = unwrap(await h.engine.partDiff(h.agent, { part_ids: [walls, roof] }));
    expect(many).toMatchObject({ part_id: null, positions: 20, changed: 3, observed: 2 });
    expect(many.parts).toEqual([
      { part_id: walls, name: "walls", positions: 15, changed: 2, observed: 1 },
      { part_id: roof, name: "roof", positions: 5, changed: 1, observed: 1 },
    ]);
    expect(many.sample.map((s) => [s.pos.x, s.pos.y, s.actual])).toEqual(
      expect.arrayContaining([
        [1, 65, "minecraft:glass"],
        [3, 65, "minecraft:glass"],
        [4, 67, "minecraft:air"],
      ]),
    );
    const box = unwrap(await h.engine.partDiff(h.agent, { min: v(-2, 60, -2), max: v(6, 70, 3) }));
    expect(box).toMatchObject({ positions: 21, changed: 3, observed: 2 });
    expect(box.parts!.map((p) => [p.name, p.positions, p.changed])).toEqual([
      ["walls", 15, 2],
      ["roof", 5, 1],
      ["door", 1, 0],
    ]);
    const part1 = unwrap(await h.engine.partDiff(h.agent, { min: v(0, 64, 0), max: v(2, 64, 1) }));
    expect(part1.parts!.map((p) => [p.name, p.positions])).toEqual([
      ["walls", 3],
      ["door", 1],
    ]);
    expect(unwrap(await h.engine.partDiff(h.agent, { min: v(50, 64, 50), max: v(52, 64, 52) }))).toMatchObject({ positions: 0, changed: 0, parts: [] });
    expect(door).toMatch(/^part_/);
  });

  it("refuses an unclear or oversized target", async () => {
    const h = await harness();
    const a = await part(h, "a", v(0, 64, 0), v(1, 64, 0), "minecraft:stone");
    expect(await h.engine.partDiff(h.agent, { part_id: a, part_ids: [a] })).toMatchObject({ ok: false, error: { details: { reason: "target" } } });
    expect(await h.engine.partDiff(h.agent, { part_ids: [a, a] })).toMatchObject({ ok: false, error: { details: { reason: "part_ids" } } });
    expect(await h.engine.partDiff(h.agent, { part_ids: Array.from({ length: 33 }, (_, i) => `p${i}`) })).toMatchObject({
      ok: false,
      error: { details: { reason: "part_ids" } },
    });
    expect(await h.engine.partDiff(h.agent, { part_ids: ["part_nope"] })).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(await h.engine.partDiff(h.agent, { min: v(-1000, 0, -1000), max: v(1000, 200, 1000) })).toMatchObject({
      ok: false,
      error: { code: "budget_exceeded" },
    });
    expect(await h.engine.partDiff(h.agent, { min: v(0, 64, 0) })).toMatchObject({ ok: false, error: { code: "invalid_request" } });
  });
});
