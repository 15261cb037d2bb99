import { afterEach, describe, expect, it } from "vitest";
import { Harness, boxRecipe, unwrap } from "@mcb/property-tests";

const STONE = "minecraft:stone";
const GLASS = "minecraft:glass";
const AIR = "minecraft:air";

let harnesses: Harness[] = [];
afterEach(() => {
  for (const h of harnesses) h.close();
  harnesses = [];
});

/**
 * region_changes' `before` of a person's edit: what the journal last knew there, a plan's base
 * included, so that air is always spelled "minecraft:air" (null only where the journal never knew
 * the position).
 */
describe.each(["memory", "sqlite"] as const)("%s journal: the state before a person's edit", (journal) => {
  it("is the plan's base where a plan read the position, our write where we wrote, null where nothing was known", async () => {
    const h = await Harness.create({ journal, limits: { sliceSize: 2 } });
    harnesses.push(h);
    const area = { min: { x: -8, y: 60, z: -8 }, max: { x: 8, y: 70, z: 8 } };
    const cursor = unwrap(await h.engine.regionChanges(h.agent, area)).next_cursor;
    const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 3, y: 64, z: 0 }, STONE) }));
    // While the plan is applied, a person puts glass where its second slice builds: the plan stops there.
    h.faults.beforeCompareAndSet = (call) => {
      if (call === 1) h.world.externalEdit(2, 64, 0, GLASS, { emitEvent: true });
    };
    unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "a" }));
    await h.engine.settle();
    h.faults.beforeCompareAndSet = null;
    // A second plan writes one block, which the person then breaks; and an edit where no plan ever looked
    // (null: not known, never a spelling of air).
    await h.build(boxRecipe({ x: 5, y: 64, z: 0 }, { x: 5, y: 64, z: 0 }, STONE));
    h.world.externalEdit(5, 64, 0, AIR, { emitEvent: true });
    h.world.externalEdit(-5, 64, -5, GLASS, { emitEvent: true });
    const page = unwrap(await h.engine.regionChanges(h.agent, { ...area, since_cursor: cursor, source: "person" }));
    const by = (x: number, z: number) => page.changes.find((c) => c.pos.x === x && c.pos.z === z && c.pos.y === 64);
    expect(by(2, 0)).toMatchObject({ before: AIR, after: GLASS, source: "external" });
    expect(by(5, 0)).toMatchObject({ before: STONE, after: AIR, source: "external" });
    expect(by(-5, -5)).toMatchObject({ before: null, after: GLASS, source: "external" });
  });
});
