import { afterEach, describe, expect, it } from "vitest";
import { type MemoryWorld } from "@mcb/adapter-memory";
import { CRASH_POINTS, Harness, boxRecipe, unwrap, type CrashPoint, type HarnessOptions } from "@mcb/property-tests";

/** docs/DESIGN.md "Acceptance scenarios" 1–7, 10 and 11, on the real engine, memory world and journals. */

const STONE = "minecraft:stone";
const BRICKS = "minecraft:stone_bricks";
const GLASS = "minecraft:glass";
const AIR = "minecraft:air";

let harnesses: Harness[] = [];
afterEach(() => {
  for (const h of harnesses) h.close();
  harnesses = [];
});

async function harness(options: HarnessOptions & { readonly anvil?: false } = {}): Promise<Harness<MemoryWorld>> {
  const h = await Harness.create(options);
  harnesses.push(h);
  return h;
}

/** A 4×1×16 slab at y=64: 64 positions, plan order (y, z, x) → slice k holds z = 2k..2k+1 at size 8. */
const ROW = boxRecipe({ x: 0, y: 64, z: 0 }, { x: 3, y: 64, z: 15 }, STONE);

async function prepareApply(h: Harness, recipe: unknown, key: string, extra: Record<string, unknown> = {}) {
  const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe, ...extra }));
  const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: key }));
  return { plan, op };
}

async function status(h: Harness, id: string) {
  return unwrap(await h.engine.operationStatus(h.agent, { operation_id: id }));
}

function countState(h: Harness, state: string): number {
  let n = 0;
  for (let z = 0; z < 16; z++) for (let x = 0; x < 4; x++) if (h.world.stateAt(x, 64, z) === state) n++;
  return n;
}

describe("acceptance scenarios (docs/DESIGN.md)", () => {
  for (const journal of ["memory", "sqlite"] as const) {
    describe(`${journal} journal`, () => {
      it("1. manual edit after preparation: conflict, the manual value is kept, nothing is written", async () => {
        const h = await harness({ journal, limits: { sliceSize: 8 } });
        const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: ROW }));
        h.world.externalEdit(2, 64, 13, GLASS);
        const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "s1" }));
        await h.engine.settle();
        const st = await status(h, op.operation_id);
        expect(st.status).toBe("conflict");
        expect(st.counters.written).toBe(0);
        expect(st.counters.conflicts).toBe(1);
        expect(st.conflicts).toEqual([
          { pos: { x: 2, y: 64, z: 13 }, kind: "write", expected: AIR, actual: GLASS, data_changed: false, changed_since_prepare: true },
        ]);
        expect(h.world.stateAt(2, 64, 13)).toBe(GLASS);
        expect(countState(h, STONE)).toBe(0);
      });

      it("2. edit between slices: stops at the intersection with an exact count of completed work", async () => {
        const h = await harness({ journal, limits: { sliceSize: 8 } });
        const { op } = await prepareApply(h, ROW, "s2", {});
        // Before the third slice is sent, a player edits a block of the fifth slice (z = 8..9).
        h.faults.beforeCompareAndSet = (call) => {
          if (call === 2) h.world.externalEdit(1, 64, 9, GLASS);
        };
        await h.engine.settle();
        const st = await status(h, op.operation_id);
        expect(st.status).toBe("conflict");
        expect(st.counters.written).toBe(32); // slices 0–3 (the third was in flight when the edit happened)
        expect(countState(h, STONE)).toBe(32);
        for (let z = 0; z < 8; z++) expect(h.world.stateAt(0, 64, z)).toBe(STONE);
        for (let z = 8; z < 16; z++) expect(h.world.stateAt(0, 64, z)).toBe(AIR);
        expect(h.world.stateAt(1, 64, 9)).toBe(GLASS);
        expect(st.conflicts[0]).toMatchObject({ pos: { x: 1, y: 64, z: 9 }, actual: GLASS });
        expect(st.counters.slices_done).toBe(4);
      });

      it("3. support change: a removed dependency stops the plan instead of building on it", async () => {
        const h = await harness({ journal });
        h.world.externalEdit(5, 63, 5, STONE); // the support
        const tower = boxRecipe({ x: 5, y: 64, z: 5 }, { x: 5, y: 67, z: 5 }, "minecraft:sand");
        const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: tower, dependencies: [{ x: 5, y: 63, z: 5 }] }));
        expect(plan.dependencies).toBe(1);
        h.world.externalEdit(5, 63, 5, AIR);
        const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "s3" }));
        await h.engine.settle();
        const st = await status(h, op.operation_id);
        expect(st.status).toBe("conflict");
        expect(st.counters.written).toBe(0);
        expect(st.conflicts).toEqual([
          { pos: { x: 5, y: 63, z: 5 }, kind: "dependency", expected: STONE, actual: AIR, data_changed: false, changed_since_prepare: true },
        ]);
        expect(h.world.stateAt(5, 64, 5)).toBe(AIR);
        // Replanning from fresh state sees the missing support as the new base.
        const again = unwrap(await h.engine.buildPrepare(h.agent, { recipe: tower, dependencies: [{ x: 5, y: 63, z: 5 }] }));
        expect(again.plan_hash).not.toBe(plan.plan_hash);
      });

      it("3b. support removed between slices stops the remaining slices", async () => {
        const h = await harness({ journal, limits: { sliceSize: 8 } });
        h.world.externalEdit(0, 63, 0, STONE);
        const { op } = await prepareApply(h, ROW, "s3b", { dependencies: [{ x: 0, y: 63, z: 0 }] });
        h.faults.beforeCompareAndSet = (call) => {
          if (call === 1) h.world.externalEdit(0, 63, 0, AIR);
        };
        await h.engine.settle();
        const st = await status(h, op.operation_id);
        expect(st.status).toBe("conflict");
        expect(st.counters.written).toBe(8);
        expect(countState(h, STONE)).toBe(8);
        expect(st.conflicts[0]).toMatchObject({ kind: "dependency", pos: { x: 0, y: 63, z: 0 } });
      });

      it("4. undo after a manual edit: conflict for that block, everything else restored", async () => {
        const h = await harness({ journal });
        const base = await h.build(boxRecipe({ x: 0, y: 64, z: 0 }, { x: 3, y: 64, z: 3 }, BRICKS));
        expect(base.counters.written).toBe(16);
        const built = await h.build(boxRecipe({ x: 0, y: 64, z: 0 }, { x: 3, y: 65, z: 3 }, STONE));
        h.world.externalEdit(1, 65, 1, GLASS); // a different value
        h.world.externalEdit(2, 65, 2, GLASS); // ABA: changed and restored to our value
        h.world.externalEdit(2, 65, 2, STONE);
        const undo = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: built.operation_id }));
        expect(undo.conflicts.count).toBe(2);
        expect(undo.changed_blocks).toBe(30);
        const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "s4-undo" }));
        await h.engine.settle();
        expect((await status(h, op.operation_id)).status).toBe("applied");
        expect(h.world.stateAt(1, 65, 1)).toBe(GLASS);
        expect(h.world.stateAt(2, 65, 2)).toBe(STONE);
        expect(h.world.stateAt(3, 65, 3)).toBe(AIR);
        expect(h.world.stateAt(0, 64, 0)).toBe(BRICKS); // restored to the earlier operation's result
        expect((await status(h, built.operation_id)).undone_by).toBe(op.operation_id);
        // Undoing again says so (instead of 32 conflicts): the undo operation owns those blocks now.
        const twice = await h.engine.operationUndoPrepare(h.agent, { operation_id: built.operation_id });
        expect(twice).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "already_undone", undone_by: op.operation_id } } });
      });

      it("5. request retry: the same key returns the same operation and writes once", async () => {
        const h = await harness({ journal, limits: { sliceSize: 8 } });
        const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: ROW }));
        const apply = { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "s5" };
        const first = unwrap(await h.engine.buildApply(h.agent, apply));
        const retryDuring = unwrap(await h.engine.buildApply(h.agent, apply));
        await h.engine.settle();
        const calls = h.crashing.compareAndSetCalls;
        const retryAfter = unwrap(await h.engine.buildApply(h.agent, apply));
        await h.engine.settle();
        expect(retryDuring.operation_id).toBe(first.operation_id);
        expect(retryAfter.operation_id).toBe(first.operation_id);
        expect(retryAfter.status).toBe("applied");
        expect(retryAfter.counters.written).toBe(64);
        expect(h.crashing.compareAndSetCalls).toBe(calls);
        expect(calls).toBe(8);
        // After a restart too.
        await h.restart();
        expect(unwrap(await h.engine.buildApply(h.agent, apply)).operation_id).toBe(first.operation_id);
        // Same key, different plan: refused. Same plan, different key: refused.
        const other = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 9, y: 64, z: 9 }, { x: 9, y: 64, z: 9 }, STONE) }));
        const reused = await h.engine.buildApply(h.agent, { plan_id: other.plan_id, plan_hash: other.plan_hash, idempotency_key: "s5" });
        expect(reused.ok || reused.error).toMatchObject({ code: "invalid_request", details: { reason: "idempotency_key_reused" } });
        const again = await h.engine.buildApply(h.agent, { ...apply, idempotency_key: "s5-other" });
        expect(again.ok || again.error).toMatchObject({ code: "invalid_request", details: { reason: "plan_already_applied" } });
      });

      for (const point of CRASH_POINTS) {
        it(`6. process crash (${point}): recovery_required, review, abandon, nothing unrelated destroyed`, async () => {
          const h = await harness({ journal, limits: { sliceSize: 8 } });
          h.world.externalEdit(10, 64, 10, GLASS); // unrelated block
          const { op } = await prepareApply(h, ROW, `s6-${point}`);
          // Crash on the second slice (for reads: the precheck and first slice use 1 read each here).
          h.faults.crashAt(point as CrashPoint, point === "read" ? 2 : 1);
          await h.engine.settle();
          expect(h.engine.stopped).toBe(true);
          const stones = countState(h, STONE);
          await h.restart();

          const ctx = unwrap(await h.engine.projectContext(h.agent));
          expect(ctx.recovery_required).toEqual([op.operation_id]);
          const stopped = await status(h, op.operation_id);
          expect(stopped.status).toBe("recovery_required");
          // Every block of the slice in flight is counted as unconfirmed until the review says more
          // (read: the crash came while the first slice's result was not yet journalled).
          expect([stopped.counters.written, stopped.counters.unconfirmed]).toEqual(
            { read: [0, 8], before_write: [8, 8], mid_slice: [8, 8], after_write: [8, 8] }[point],
          );
          const blocked = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 20, y: 64, z: 20 }, { x: 20, y: 64, z: 20 }, STONE) });
          const tryApply = await h.engine.buildApply(h.agent, {
            plan_id: unwrap(blocked).plan_id,
            plan_hash: unwrap(blocked).plan_hash,
            idempotency_key: "s6-new",
          });
          expect(tryApply.ok || tryApply.error.code).toBe("recovery_required");
          expect((await h.engine.recoveryReview(h.agent, { operation_id: op.operation_id })).ok).toBe(false); // admin only

          const review = unwrap(await h.engine.recoveryReview(h.admin, { operation_id: op.operation_id }));
          const expected = { read: [8, 8, 0], before_write: [16, 8, 8], mid_slice: [16, 12, 4], after_write: [16, 16, 0] }[point];
          expect([review.positions, review.matchesAfter, review.matchesBefore]).toEqual(expected);
          expect(review.foreignStates).toBe(0);
          expect(review.matchesAfter).toBe(stones);
          const wrong = await h.engine.recoveryAbandon(h.admin, { operation_id: op.operation_id, expected_digest: "0".repeat(64) });
          expect(wrong.ok || wrong.error).toMatchObject({ code: "invalid_request", details: { reason: "stale_digest" } });
          const abandoned = unwrap(await h.engine.recoveryAbandon(h.admin, { operation_id: op.operation_id, expected_digest: review.currentDigest }));
          // Undoable only where confirmed writes exist: a crash before anything was confirmed leaves nothing to undo.
          expect(abandoned).toMatchObject({ status: "failed", undoable: point !== "read" });
          // The counters account for every block of ours in the world: the unfinished slice's too.
          expect(abandoned.counters.unconfirmed).toBe({ read: 8, before_write: 0, mid_slice: 4, after_write: 8 }[point]);
          expect(abandoned.counters.written + abandoned.counters.unconfirmed).toBe(stones);
          // World untouched by recovery; the unrelated block kept; writes resume.
          expect(countState(h, STONE)).toBe(stones);
          expect(h.world.stateAt(10, 64, 10)).toBe(GLASS);
          // Checked undo still restores every confirmed write; the unfinished slice is reported, never written.
          const undo = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: op.operation_id }));
          expect([undo.changed_blocks, undo.conflicts.count, undo.uncertain_blocks]).toEqual([
            abandoned.counters.written,
            0,
            review.positions - abandoned.counters.written,
          ]);
          if (undo.changed_blocks > 0) {
            unwrap(await h.engine.buildApply(h.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: `s6-undo-${point}` }));
            await h.engine.settle();
          }
          expect(countState(h, STONE)).toBe(abandoned.counters.unconfirmed);
          const resumed = await h.build(boxRecipe({ x: 20, y: 64, z: 20 }, { x: 20, y: 64, z: 20 }, STONE));
          expect(resumed.status).toBe("applied");
        });
      }

      it("6b. a changed mask after review makes abandon refuse the stale digest", async () => {
        const h = await harness({ journal, limits: { sliceSize: 8 } });
        const { op } = await prepareApply(h, ROW, "s6b");
        h.faults.crashAt("before_write", 1);
        await h.engine.settle();
        await h.restart();
        const review = unwrap(await h.engine.recoveryReview(h.admin, { operation_id: op.operation_id }));
        h.world.externalEdit(0, 64, 0, GLASS);
        const stale = await h.engine.recoveryAbandon(h.admin, { operation_id: op.operation_id, expected_digest: review.currentDigest });
        expect(stale.ok || stale.error).toMatchObject({ code: "invalid_request", details: { reason: "stale_digest" } });
        const again = unwrap(await h.engine.recoveryReview(h.admin, { operation_id: op.operation_id }));
        expect(again.foreignStates).toBe(1);
        expect(unwrap(await h.engine.recoveryAbandon(h.admin, { operation_id: op.operation_id, expected_digest: again.currentDigest })).status).toBe("failed");
      });
    });
  }

  describe("7. lost change journal", () => {
    const region = { min: { x: 0, y: 60, z: 0 }, max: { x: 15, y: 70, z: 15 } };

    it("a cursor from before a host restart (events lost) needs a resync; a fresh summary and cursor work", async () => {
      const h = await harness({ journal: "sqlite" });
      const start = unwrap(await h.engine.regionChanges(h.agent, region)).next_cursor;
      await h.build(boxRecipe({ x: 1, y: 64, z: 1 }, { x: 2, y: 64, z: 1 }, STONE));
      h.world.externalEdit(3, 64, 3, GLASS);
      const page = unwrap(await h.engine.regionChanges(h.agent, { ...region, since_cursor: start }));
      expect(page.changes.map((c) => [c.pos.x, c.after, c.source])).toEqual([
        [1, STONE, "operation"],
        [2, STONE, "operation"],
        [3, GLASS, "external"],
      ]);
      await h.restart();
      const stale = await h.engine.regionChanges(h.agent, { ...region, since_cursor: page.next_cursor });
      expect(stale.ok || stale.error.code).toBe("resync_required");
      const summary = unwrap(await h.engine.regionInspect(h.agent, { ...region, max: { x: 15, y: 64, z: 15 }, detail: "summary" }));
      expect(summary.palette.find((p) => p.state === STONE)?.count).toBe(2);
      const fresh = unwrap(await h.engine.regionChanges(h.agent, region)).next_cursor;
      h.world.externalEdit(4, 64, 4, GLASS);
      expect(unwrap(await h.engine.regionChanges(h.agent, { ...region, since_cursor: fresh })).changes).toHaveLength(1);
    });

    it("a gap in the world's event log requires a resync; a cursor from another journal too", async () => {
      const h = await harness({ world: { eventRetention: 4 } });
      const cursor = unwrap(await h.engine.regionChanges(h.agent, region)).next_cursor;
      for (let i = 0; i < 6; i++) h.world.externalEdit(i, 64, 0, GLASS); // 6 events, only 4 retained
      const gap = await h.engine.regionChanges(h.agent, { ...region, since_cursor: cursor });
      expect(gap.ok || gap.error).toMatchObject({ code: "resync_required", details: { reason: "world event log lost continuity" } });
      const c2 = unwrap(await h.engine.regionChanges(h.agent, region)).next_cursor;
      await h.build(boxRecipe({ x: 0, y: 65, z: 0 }, { x: 9, y: 65, z: 9 }, STONE)); // 100 changes: all kept by the journal
      const pages: number[] = [];
      for (let c = c2, complete = false; !complete;) {
        const page = unwrap(await h.engine.regionChanges(h.agent, { ...region, since_cursor: c, limit: 30 }));
        pages.push(page.changes.length);
        ({ next_cursor: c, complete } = page);
      }
      expect(pages).toEqual([30, 30, 30, 10]);
      const other = await harness();
      const foreign = await other.engine.regionChanges(other.agent, { ...region, since_cursor: c2 });
      expect(foreign.ok || foreign.error).toMatchObject({ code: "resync_required", details: { reason: "issued by another journal" } });
    });

    it("a cursor survives a restart of the process when the world kept its event log (edits made meanwhile are reported)", async () => {
      const h = await harness({ journal: "sqlite" });
      const start = unwrap(await h.engine.regionChanges(h.agent, region)).next_cursor;
      await h.build(boxRecipe({ x: 1, y: 64, z: 1 }, { x: 2, y: 64, z: 1 }, STONE));
      await h.reopen(); // the engine process restarts; the world (and its event log) keeps running
      h.world.externalEdit(3, 64, 3, GLASS); // while the new engine has not pulled events yet
      const page = unwrap(await h.engine.regionChanges(h.agent, { ...region, since_cursor: start }));
      expect(page.changes.map((c) => [c.pos.x, c.after, c.source])).toEqual([
        [1, STONE, "operation"],
        [2, STONE, "operation"],
        [3, GLASS, "external"],
      ]);
    });
  });

  describe("10. unsupported data is rejected before writing", () => {
    it("replacing a chest (block-entity data) is refused; a same-material state edit keeps its data", async () => {
      const h = await harness();
      // A chest that was there before the project (no edit the engine observed).
      h.world.externalEdit(0, 64, 0, "minecraft:chest[facing=north,type=single,waterlogged=false]", { emitEvent: false });
      h.world.setBlockEntityData(0, 64, 0, new TextEncoder().encode('{"Items":[{"id":"minecraft:diamond"}]}'), false);
      const digest = h.world.digestAt(0, 64, 0);
      const r = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 1, y: 64, z: 0 }, STONE) });
      expect(r.ok || r.error).toMatchObject({ code: "unsupported_block", details: { reason: "block_entity_data", count: 1 } });
      expect(h.world.stateAt(1, 64, 0)).toBe(AIR);
      const turned = await h.build(boxRecipe({ x: 0, y: 64, z: 0 }, { x: 0, y: 64, z: 0 }, "minecraft:chest[facing=east]"));
      expect(turned.status).toBe("applied");
      expect(h.world.stateAt(0, 64, 0)).toBe("minecraft:chest[facing=east,type=single,waterlogged=false]");
      expect(h.world.digestAt(0, 64, 0)).toBe(digest);
    });

    it("entities, raw NBT and oversized recipes are rejected with nothing written", async () => {
      const h = await harness();
      const entity = await h.engine.buildPrepare(h.agent, {
        recipe: { version: 1, operations: [{ type: "entity", id: "minecraft:pig", pos: { x: 0, y: 64, z: 0 } }] },
      });
      expect(entity.ok || entity.error.code).toBe("invalid_request");
      const nbt = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 0, y: 64, z: 0 }, "minecraft:chest{Items:[]}") });
      expect(nbt.ok || nbt.error).toMatchObject({ code: "invalid_request", details: { reason: "malformed_state" } });
      const itemOnly = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 0, y: 64, z: 0 }, "minecraft:diamond") });
      expect(itemOnly.ok || itemOnly.error).toMatchObject({ code: "unsupported_block", details: { reason: "item_only" } });
      const big = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: -200, y: 0, z: -200 }, { x: 200, y: 100, z: 200 }, STONE) });
      expect(big.ok || big.error.code).toBe("budget_exceeded");
      const ctx = unwrap(await h.engine.projectContext(h.agent));
      expect(ctx.recent_operations).toEqual([]);
      expect(h.crashing.compareAndSetCalls).toBe(0);
    });
  });

  describe("11. bounds and permissions", () => {
    it("an out-of-region plan or dependency is rejected server-side", async () => {
      const h = await harness({ area: { minX: 0, minY: 0, minZ: 0, maxX: 31, maxY: 127, maxZ: 31 } });
      const out = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 30, y: 64, z: 30 }, { x: 32, y: 64, z: 30 }, STONE) });
      expect(out.ok || out.error.code).toBe("out_of_bounds");
      const dep = await h.engine.buildPrepare(h.agent, {
        recipe: boxRecipe({ x: 1, y: 64, z: 1 }, { x: 1, y: 64, z: 1 }, STONE),
        dependencies: [{ x: -1, y: 64, z: 1 }],
      });
      expect(dep.ok || dep.error.code).toBe("out_of_bounds");
      const inspect = await h.engine.regionInspect(h.agent, { min: { x: 30, y: 64, z: 30 }, max: { x: 33, y: 64, z: 30 }, detail: "summary" });
      expect(inspect.ok || inspect.error.code).toBe("out_of_bounds");
    });

    it("a substituted project id or another player is denied", async () => {
      const h = await harness();
      for (const ctx of [
        { ...h.agent, projectId: "someone-elses" },
        { ...h.agent, principal: { playerId: "intruder", role: "agent" as const } },
      ]) {
        const r = await h.engine.buildPrepare(ctx, { recipe: ROW });
        expect(r.ok || r.error.code).toBe("permission_denied");
        const s = await h.engine.projectContext(ctx);
        expect(s.ok || s.error.code).toBe("permission_denied");
      }
    });

    it("revoking access during writing stops the following slices", async () => {
      const h = await harness({ limits: { sliceSize: 8 } });
      const { op } = await prepareApply(h, ROW, "s11");
      h.faults.beforeCompareAndSet = (call) => {
        if (call === 2) h.engine.setAccess("default", h.agent.principal.playerId, false);
      };
      await h.engine.settle();
      h.engine.setAccess("default", h.agent.principal.playerId, true);
      const st = await status(h, op.operation_id);
      expect(st.status).toBe("failed");
      expect(st.error?.code).toBe("permission_denied");
      expect(st.counters.written).toBe(24);
      expect(countState(h, STONE)).toBe(24);
    });
  });
});
