import { afterAll, describe, expect, it } from "vitest";
import { LiveEngine, boxRecipe, startMinestomHost, unwrap, type MinestomHost } from "../src/index.js";

const STONE = "minecraft:stone";
const BOX = { minX: -40, minY: 64, minZ: -40, maxX: -9, maxY: 67, maxZ: -25 }; // 32 × 4 × 16 = 2048 blocks of air

async function countStone(live: LiveEngine): Promise<number> {
  const r = await live.port.read(BOX);
  return [...r.states].filter((i) => r.palette[i] === STONE).length;
}

async function blocksWritten(live: LiveEngine): Promise<number> {
  return Number((await live.port.port.call("stats", {}, true)).blocks_written);
}

describe("live: the Minestom server is killed (kill -9) mid-apply", () => {
  const hosts: MinestomHost[] = [];
  let live: LiveEngine | undefined;

  afterAll(async () => {
    await live?.close();
    for (const h of hosts) await h.stop();
    for (const h of hosts) h.dispose();
  });

  it("after a restart of both, the operation is recovery_required, the review shows the exact mask, and nothing is written twice", async () => {
    const first = await startMinestomHost({ autosaveMs: 100 });
    hosts.push(first);
    live = await LiveEngine.open(first, { sliceSize: 128, sliceWindow: 1 });
    const prepared = unwrap(
      await live.engine.buildPrepare(live.agent, {
        recipe: boxRecipe({ x: BOX.minX, y: BOX.minY, z: BOX.minZ }, { x: BOX.maxX, y: BOX.maxY, z: BOX.maxZ }, STONE),
      }),
    );
    expect(prepared.changed_blocks).toBe(2048);
    // Slice 6's intent is durable when its compare-and-set is called: the server dies right then,
    // after its autosave has stored the six finished slices.
    live.world.beforeCompareAndSet = async (call) => {
      if (call !== 6) return;
      await new Promise((r) => setTimeout(r, 1000));
      await first.kill();
    };
    const cursor = (await live.port.events(null)).cursor;
    const op = unwrap(await live.engine.buildApply(live.agent, { plan_id: prepared.plan_id, plan_hash: prepared.plan_hash, idempotency_key: "crash" }));
    await live.engine.settle();
    expect(live.engine.stopped).toBe(true); // the vanished server is a host crash: the queue stops for good

    const second = await startMinestomHost({
      worldDir: first.worldDir,
      gamePort: first.gamePort,
      httpPort: first.httpPort,
      token: first.token,
      autosaveMs: 100,
    });
    hosts.push(second);
    await live.reopen(second);
    // The restarted server's event log cannot vouch for what happened in between.
    expect((await live.port.events(cursor)).gap).toBe(true);
    expect(unwrap(await live.engine.projectContext(live.agent)).recovery_required).toEqual([op.operation_id]);
    expect(unwrap(await live.engine.operationStatus(live.agent, { operation_id: op.operation_id })).status).toBe("recovery_required");
    const stones = await countStone(live);
    expect(stones).toBe(6 * 128); // what the server had saved: the six confirmed slices

    const review = unwrap(await live.engine.recoveryReview(live.admin, { operation_id: op.operation_id }));
    // The mask: 6 confirmed slices + the unfinished slice's intent, exactly.
    expect(review.positions).toBe(7 * 128);
    expect(review.matchesAfter).toBe(stones);
    expect(review.matchesBefore).toBe(128);
    expect(review.foreignStates).toBe(0);
    // New writes wait for the administrator's decision.
    const blocked = unwrap(await live.engine.buildPrepare(live.agent, { recipe: boxRecipe({ x: 20, y: 64, z: 20 }, { x: 20, y: 64, z: 20 }, STONE) }));
    const refused = await live.engine.buildApply(live.agent, { plan_id: blocked.plan_id, plan_hash: blocked.plan_hash, idempotency_key: "blocked" });
    expect(refused.ok || refused.error.code).toBe("recovery_required");

    const abandoned = unwrap(await live.engine.recoveryAbandon(live.admin, { operation_id: op.operation_id, expected_digest: review.currentDigest }));
    expect(abandoned).toMatchObject({ status: "failed", undoable: true });
    expect(abandoned.counters.written + abandoned.counters.unconfirmed).toBe(stones);
    // Nothing was replayed or rolled back: the restarted server received no write at all.
    expect(await blocksWritten(live)).toBe(0);
    expect(await countStone(live)).toBe(stones);
    // Writes resume.
    const resumed = unwrap(await live.engine.buildPrepare(live.agent, { recipe: boxRecipe({ x: 20, y: 64, z: 20 }, { x: 20, y: 64, z: 20 }, STONE) }));
    unwrap(await live.engine.buildApply(live.agent, { plan_id: resumed.plan_id, plan_hash: resumed.plan_hash, idempotency_key: "resumed" }));
    await live.engine.settle();
    expect(await blocksWritten(live)).toBe(1);
    // Checked undo still restores every confirmed write; the unfinished slice is reported, never written.
    const undo = unwrap(await live.engine.operationUndoPrepare(live.agent, { operation_id: op.operation_id }));
    expect([undo.changed_blocks, undo.conflicts.count, undo.uncertain_blocks]).toEqual([abandoned.counters.written, 0, 128]);
    unwrap(await live.engine.buildApply(live.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "undo-abandoned" }));
    await live.engine.settle();
    expect(await blocksWritten(live)).toBe(1 + abandoned.counters.written);
    expect(await countStone(live)).toBe(stones - abandoned.counters.written); // the unconfirmed ones stay
  }, 180_000);

  it("in batches: killed while the third batch is on its way, with the fourth's intents journalled; the review covers both, exactly, and nothing is written twice", async () => {
    await live?.close();
    const first = await startMinestomHost({ autosaveMs: 100 });
    hosts.push(first);
    // 16 slices of 128 in batches of 4: the server dies as batch 2 (slices 8-11) is sent, after its
    // autosave stored batches 0 and 1; batch 3 was prepared meanwhile and its intents journalled.
    live = await LiveEngine.open(first, { sliceSize: 128, sliceWindow: 4 });
    const prepared = unwrap(
      await live.engine.buildPrepare(live.agent, {
        recipe: boxRecipe({ x: BOX.minX, y: BOX.minY, z: BOX.minZ }, { x: BOX.maxX, y: BOX.maxY, z: BOX.maxZ }, STONE),
      }),
    );
    live.world.beforeCompareAndSet = async (call) => {
      if (call !== 8) return;
      await new Promise((r) => setTimeout(r, 1000));
      await first.kill();
    };
    const op = unwrap(await live.engine.buildApply(live.agent, { plan_id: prepared.plan_id, plan_hash: prepared.plan_hash, idempotency_key: "crash-batches" }));
    await live.engine.settle();
    expect(live.engine.stopped).toBe(true);
    const open = live.journal
      .slices(op.operation_id)
      .filter((s) => s.written === null)
      .map((s) => s.sliceNo);
    expect(open).toEqual([8, 9, 10, 11, 12, 13, 14, 15]);

    const second = await startMinestomHost({
      worldDir: first.worldDir,
      gamePort: first.gamePort,
      httpPort: first.httpPort,
      token: first.token,
      autosaveMs: 100,
    });
    hosts.push(second);
    await live.reopen(second);
    expect(unwrap(await live.engine.operationStatus(live.agent, { operation_id: op.operation_id })).status).toBe("recovery_required");
    const stones = await countStone(live);
    expect(stones).toBe(8 * 128);
    const review = unwrap(await live.engine.recoveryReview(live.admin, { operation_id: op.operation_id }));
    expect([review.positions, review.matchesAfter, review.matchesBefore, review.foreignStates]).toEqual([16 * 128, stones, 8 * 128, 0]);
    const abandoned = unwrap(await live.engine.recoveryAbandon(live.admin, { operation_id: op.operation_id, expected_digest: review.currentDigest }));
    expect(abandoned.counters.written + abandoned.counters.unconfirmed).toBe(stones);
    expect(await blocksWritten(live)).toBe(0); // nothing replayed
  }, 180_000);
});
