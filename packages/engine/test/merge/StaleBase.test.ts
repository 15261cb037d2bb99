import { afterEach, describe, expect, it } from "vitest";
import { Harness, boxRecipe, unwrap } from "@mcb/property-tests";

/**
 * Regressions for the manual-edit overwrites found from outside: a plan applied twice at once under
 * different keys, and plans whose base went stale (a block changed and changed back) between their
 * preparation and their application.
 */

const STONE = "minecraft:stone";
const AIR = "minecraft:air";
const TOWER = boxRecipe({ x: 0, y: 64, z: 0 }, { x: 3, y: 67, z: 3 }, STONE, true);

let harnesses: Harness[] = [];
afterEach(() => {
  for (const h of harnesses) h.close();
  harnesses = [];
});

describe.each(["memory", "sqlite"] as const)("%s journal", (journal) => {
  async function harness(): Promise<Harness> {
    const h = await Harness.create({ journal, limits: { sliceSize: 8 } });
    harnesses.push(h);
    return h;
  }

  it("twenty concurrent applies of one plan under twenty keys create one operation; a later player edit is kept", async () => {
    const h = await harness();
    const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: TOWER }));
    expect(plan.changed_blocks).toBe(56); // 7 slices of 8: compare-and-set calls 0..6
    // While the first operation writes its last slice, the player breaks a block of its first slice.
    h.faults.beforeCompareAndSet = (call) => {
      if (call === 6) h.world.externalEdit(0, 64, 0, AIR);
    };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: `dup-${i}` })),
    );
    const accepted = results.filter((r) => r.ok);
    expect(accepted).toHaveLength(1);
    for (const r of results) if (!r.ok) expect(r.error).toMatchObject({ code: "invalid_request", details: { reason: "plan_already_applied" } });
    await h.engine.settle();
    h.faults.beforeCompareAndSet = null;
    expect(h.journal.listOperations("default", {}, 50)).toHaveLength(1);
    expect(h.crashing.compareAndSetCalls).toBe(7);
    // Nothing queued behind the first operation put the block back.
    expect(h.world.stateAt(0, 64, 0)).toBe(AIR);
    // A retry under one of the refused keys is refused the same way, and writes nothing.
    const retry = await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "dup-19-retry" });
    expect(retry).toMatchObject({ ok: false, error: { details: { reason: "plan_already_applied" } } });
    expect(h.world.stateAt(0, 64, 0)).toBe(AIR);
  });

  it("a second plan prepared before the first was built does not write back a block the player broke", async () => {
    const h = await harness();
    const first = unwrap(await h.engine.buildPrepare(h.agent, { recipe: TOWER }));
    const second = unwrap(await h.engine.buildPrepare(h.agent, { recipe: TOWER })); // e.g. a retried prepare
    expect(second.plan_hash).toBe(first.plan_hash);
    unwrap(await h.engine.buildApply(h.agent, { plan_id: first.plan_id, plan_hash: first.plan_hash, idempotency_key: "first" }));
    await h.engine.settle();
    h.world.externalEdit(1, 66, 0, AIR); // the player breaks one block: back at the second plan's base
    const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: second.plan_id, plan_hash: second.plan_hash, idempotency_key: "second" }));
    await h.engine.settle();
    const st = unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id }));
    expect(st.status).toBe("conflict");
    expect(st.counters.written).toBe(0);
    expect(st.conflicts).toEqual([{ pos: { x: 1, y: 66, z: 0 }, kind: "write", expected: AIR, actual: AIR, data_changed: false, changed_since_prepare: true }]);
    expect(h.world.stateAt(1, 66, 0)).toBe(AIR);
  });

  it("the same holds without an event for the player's edit: our own confirmed write marks the base stale", async () => {
    const h = await harness();
    const first = unwrap(await h.engine.buildPrepare(h.agent, { recipe: TOWER }));
    const second = unwrap(await h.engine.buildPrepare(h.agent, { recipe: TOWER }));
    unwrap(await h.engine.buildApply(h.agent, { plan_id: first.plan_id, plan_hash: first.plan_hash, idempotency_key: "first" }));
    await h.engine.settle();
    h.world.externalEdit(2, 64, 0, AIR, { emitEvent: false });
    const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: second.plan_id, plan_hash: second.plan_hash, idempotency_key: "second" }));
    await h.engine.settle();
    expect(unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id })).status).toBe("conflict");
    expect(h.world.stateAt(2, 64, 0)).toBe(AIR);
  });

  it("two undo plans of one operation: after the first, the second cannot remove a block the player placed again", async () => {
    const h = await harness();
    const built = await h.build(TOWER, "tower");
    const u1 = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: built.operation_id }));
    const u2 = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: built.operation_id }));
    unwrap(await h.engine.buildApply(h.agent, { plan_id: u1.plan_id, plan_hash: u1.plan_hash, idempotency_key: "u1" }));
    await h.engine.settle();
    h.world.externalEdit(0, 64, 0, STONE); // the player puts one block back by hand
    const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: u2.plan_id, plan_hash: u2.plan_hash, idempotency_key: "u2" }));
    await h.engine.settle();
    const st = unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id }));
    expect(st.status).toBe("conflict");
    expect(st.counters.written).toBe(0);
    expect(h.world.stateAt(0, 64, 0)).toBe(STONE);
    // And a third undo is refused outright: the operation was already undone.
    const again = await h.engine.operationUndoPrepare(h.agent, { operation_id: built.operation_id });
    expect(again).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "already_undone" } } });
  });

  it("plans with multi-block pairs (doors) detect a stale base too, though pairing reorders their write set", async () => {
    const h = await harness();
    const door = (half: string) => `minecraft:oak_door[facing=east,half=${half},hinge=left,open=false,powered=false]`;
    const recipe = {
      version: 1,
      operations: [
        { type: "box", min: { x: 0, y: 64, z: 0 }, max: { x: 6, y: 66, z: 6 }, block: STONE },
        { type: "box", min: { x: 3, y: 64, z: 3 }, max: { x: 3, y: 64, z: 3 }, block: door("lower") },
        { type: "box", min: { x: 3, y: 65, z: 3 }, max: { x: 3, y: 65, z: 3 }, block: door("upper") },
      ],
    };
    const first = unwrap(await h.engine.buildPrepare(h.agent, { recipe }));
    const second = unwrap(await h.engine.buildPrepare(h.agent, { recipe }));
    expect(h.journal.getPlan(second.plan_id)!.pairs.length).toBe(1);
    unwrap(await h.engine.buildApply(h.agent, { plan_id: first.plan_id, plan_hash: first.plan_hash, idempotency_key: "first" }));
    await h.engine.settle();
    h.world.externalEdit(3, 65, 3, AIR); // the player breaks the upper half (and the game the lower)
    h.world.externalEdit(3, 64, 3, AIR);
    h.world.externalEdit(5, 66, 5, AIR); // and a stone block
    const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: second.plan_id, plan_hash: second.plan_hash, idempotency_key: "second" }));
    await h.engine.settle();
    const st = unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id }));
    expect([st.status, st.counters.conflicts, st.counters.written]).toEqual(["conflict", 3, 0]);
    expect(st.conflicts.every((c) => c.changed_since_prepare)).toBe(true);
    expect([h.world.stateAt(3, 65, 3), h.world.stateAt(3, 64, 3), h.world.stateAt(5, 66, 5)]).toEqual([AIR, AIR, AIR]);
  });

  it("a change the base already shows is not stale: a plan prepared after an edit applies normally", async () => {
    const h = await harness();
    await h.build(TOWER, "tower");
    h.world.externalEdit(0, 64, 0, AIR);
    // Our design there is unchanged, so the person's edit is kept unless the owner names it in replace.
    const kept = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 0, y: 64, z: 0 }, STONE) }));
    expect([kept.changed_blocks, kept.manual_edits.kept]).toEqual([0, 1]);
    const fix = unwrap(
      await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 0, y: 64, z: 0 }, STONE), replace: [{ x: 0, y: 64, z: 0 }] }),
    );
    expect([fix.changed_blocks, fix.manual_edits.replaced, fix.manual_edits.conflicts]).toEqual([1, 1, 0]);
    const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: fix.plan_id, plan_hash: fix.plan_hash, idempotency_key: "fix" }));
    await h.engine.settle();
    expect(unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id })).status).toBe("applied");
  });

  it("a plan with nothing to change creates no operation", async () => {
    const h = await harness();
    await h.build(TOWER, "tower");
    const again = unwrap(await h.engine.buildPrepare(h.agent, { recipe: TOWER }));
    expect(again.changed_blocks).toBe(0);
    const r = await h.engine.buildApply(h.agent, { plan_id: again.plan_id, plan_hash: again.plan_hash, idempotency_key: "nothing" });
    expect(r).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "empty_plan" } } });
    expect(h.journal.listOperations("default", {}, 50)).toHaveLength(1);
  });
});
