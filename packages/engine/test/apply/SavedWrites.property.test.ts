import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { Harness, boxRecipe } from "@mcb/property-tests";
import { SqlJournal, type SqlDb, type OperationRecord, type SliceRecord } from "../../src/index.js";
import type { SliceResult, UnsavedSlice } from "../../src/store/Journal.js";

/**
 * Crash injection over sequences of operations (docs/DESIGN.md "Saved writes"): the world is a host
 * that saves on its own schedule (`unsavedUntilFlush`); the host or the bridge (engine process) is
 * killed at random points, idle or mid-apply. After every command, with the engine back:
 * - every block of an operation the journal calls saved is in the world;
 * - every other confirmed block is in the world or listed as lost in its operation's review,
 *   and the lost list is exact (each listed block is missing);
 * - an operation with lost blocks waits for recovery (or was abandoned), never reads `applied`;
 * - the restart check writes nothing (no compare-and-set while the engine comes back).
 */

const STONE = "minecraft:stone";

type Cmd =
  | { readonly kind: "build"; readonly height: number }
  | { readonly kind: "flush" }
  | { readonly kind: "killHost"; readonly atSlice: number | null }
  | { readonly kind: "killBridge"; readonly atCommit: number | null }
  | { readonly kind: "abandon" };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("build" as const), height: fc.integer({ min: 1, max: 6 }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: "flush" as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("killHost" as const), atSlice: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("killBridge" as const), atCommit: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "abandon" as const }) },
);

/** A journal whose process dies at a commit (the bridge killed): the commit never lands, nothing after it runs. */
class DyingJournal extends SqlJournal {
  budget = Infinity;
  override commit(op: OperationRecord, results: readonly SliceResult[], intents: readonly SliceRecord[]): number {
    if (this.budget-- <= 0) throw new Error("the bridge process was killed");
    return super.commit(op, results, intents);
  }
}

/** Planted bug: the restart check never sees unsaved slices (writes trusted as saved). */
class TrustingJournal extends DyingJournal {
  override unsavedSlices(): UnsavedSlice[] {
    return [];
  }
}

let open: Harness[] = [];
/** What the runs reached (the property must meet losses, saved operations and both kinds of kill). */
const reached = new Map<string, number>();
const note = (what: string): void => void reached.set(what, (reached.get(what) ?? 0) + 1);
afterEach(() => {
  for (const h of open) h.close();
  open = [];
});

async function waitUp(h: Harness): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const r = await h.engine.projectContext(h.agent);
    if (r.ok || r.error.details?.reason !== "host_down") return;
    await new Promise((res) => setTimeout(res, 2));
  }
  throw new Error("the engine did not reconnect");
}

/** Runs one sequence; returns the first broken invariant, or null. */
async function run(cmds: readonly Cmd[], makeJournal: (db: SqlDb) => DyingJournal): Promise<string | null> {
  let journal!: DyingJournal;
  const h = await Harness.create({
    journalFactory: (db) => (journal = makeJournal(db)),
    world: { unsavedUntilFlush: true },
    limits: { sliceSize: 4 },
    reconnectDelaysMs: [1, 2, 5],
  });
  open.push(h);
  const ops: { id: string; column: number; height: number }[] = [];
  let column = 0;
  for (const c of cmds) {
    if (c.kind === "build") {
      const x = column * 2;
      column++;
      const plan = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x, y: 64, z: 0 }, { x, y: 63 + c.height, z: 1 }, STONE) });
      if (!plan.ok) continue; // e.g. a recovery waits: refused, nothing written
      const op = await h.engine.buildApply(h.agent, { plan_id: plan.value.plan_id, plan_hash: plan.value.plan_hash, idempotency_key: `k${column}` });
      if (op.ok) ops.push({ id: op.value.operation_id, column: x, height: c.height });
      await h.engine.settle();
    } else if (c.kind === "flush") {
      await h.engine.flush(h.agent);
    } else if (c.kind === "killHost") {
      if (c.atSlice === null) h.world.kill();
      else {
        const at = h.crashing.compareAndSetCalls + c.atSlice;
        h.faults.beforeCompareAndSet = (call) => {
          if (call === at) h.world.kill();
        };
      }
      // The next build (if any) meets the dead host mid-apply; then the host comes back.
      const x = column * 2;
      column++;
      const plan = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x, y: 64, z: 0 }, { x, y: 70, z: 1 }, STONE) });
      if (plan.ok) {
        const op = await h.engine.buildApply(h.agent, { plan_id: plan.value.plan_id, plan_hash: plan.value.plan_hash, idempotency_key: `k${column}` });
        if (op.ok) ops.push({ id: op.value.operation_id, column: x, height: 7 });
        await h.engine.settle();
      }
      h.faults.beforeCompareAndSet = null;
      if (!h.faults.pending) h.world.kill();
      const before = h.crashing.compareAndSetCalls;
      note(`host killed (${c.atSlice === null ? "idle" : "mid-apply"})`);
      h.world.restart();
      await waitUp(h);
      if (h.crashing.compareAndSetCalls !== before) return "the restart check wrote to the world";
    } else if (c.kind === "killBridge") {
      if (c.atCommit !== null) {
        journal.budget = c.atCommit;
        const x = column * 2;
        column++;
        const plan = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x, y: 64, z: 0 }, { x, y: 70, z: 1 }, STONE) });
        if (plan.ok) {
          const op = await h.engine.buildApply(h.agent, { plan_id: plan.value.plan_id, plan_hash: plan.value.plan_hash, idempotency_key: `k${column}` });
          if (op.ok) ops.push({ id: op.value.operation_id, column: x, height: 7 });
          await h.engine.settle();
        }
      }
      journal.budget = Infinity;
      const before = h.crashing.compareAndSetCalls;
      note(`bridge killed (${c.atCommit === null ? "idle" : "at a commit"})`);
      await h.reopen();
      if (h.crashing.compareAndSetCalls !== before) return "reopening the engine wrote to the world";
    } else {
      for (const o of ops) {
        const review = await h.engine.recoveryReview(h.admin, { operation_id: o.id });
        if (review.ok) await h.engine.recoveryAbandon(h.admin, { operation_id: o.id, expected_digest: review.value.currentDigest });
      }
    }
    const broken = await check(h, journal, ops);
    if (broken !== null) return `${broken} (after ${c.kind})`;
  }
  return null;
}

async function check(h: Harness, journal: SqlJournal, ops: readonly { id: string }[]): Promise<string | null> {
  for (const o of ops) {
    const record = journal.getOperation(o.id);
    if (record === null) continue; // never created (the bridge died first)
    const plan = journal.getPlan(record.planId)!;
    const lost = new Set(journal.lostWrites(o.id));
    const missing: number[] = [];
    for (const s of journal.slices(o.id)) {
      if (s.written === null) continue;
      for (let off = 0; off < s.end - s.start; off++) {
        if (((s.written[off >> 3]! >> (off & 7)) & 1) === 0) continue;
        const i = s.start + off;
        if (h.world.stateAt(plan.pos[i * 3]!, plan.pos[i * 3 + 1]!, plan.pos[i * 3 + 2]!) !== plan.states[plan.after[i]!]) missing.push(i);
      }
    }
    const view = await h.engine.operationStatus(h.agent, { operation_id: o.id });
    if (!view.ok) return `operation_status failed: ${view.error.message}`;
    if (view.value.saved === true && missing.length > 0) return `${o.id} says saved but ${missing.length} of its blocks are missing`;
    if (view.value.saved === true && view.value.counters.written > 0) note("saved operation");
    if (lost.size > 0) note("lost blocks listed");
    if (view.value.saved === false && lost.size === 0 && missing.length === 0) note("unsaved operation, all in the world");
    for (const i of missing) if (!lost.has(i)) return `${o.id}: block ${i} is missing but not listed as lost (silent loss)`;
    for (const i of lost) if (!missing.includes(i)) return `${o.id}: block ${i} is listed as lost but is in the world`;
    if (lost.size > 0 && view.value.status !== "recovery_required" && !(view.value.status === "failed" && view.value.error?.code === "abandoned"))
      return `${o.id} lost ${lost.size} blocks but is ${view.value.status}`;
  }
  return null;
}

describe("saved writes under crash injection (property)", () => {
  it("after any kill of the host or the bridge: saved blocks are in the world, every other missing block is listed for review, nothing is written twice", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 1, maxLength: 10 }), async (cmds) => {
        const broken = await run(cmds, (db) => new DyingJournal(db));
        for (const hh of open) hh.close();
        open = [];
        expect(broken).toBeNull();
      }),
      { numRuns: 150 },
    );
    for (const what of [
      "saved operation",
      "lost blocks listed",
      "unsaved operation, all in the world",
      "host killed (idle)",
      "host killed (mid-apply)",
      "bridge killed (idle)",
      "bridge killed (at a commit)",
    ])
      expect(reached.get(what) ?? 0, what).toBeGreaterThan(0);
  }, 120_000);

  it("catches the planted bug: a restart check that trusts unsaved writes", async () => {
    let caught: string | null = null;
    await fc
      .assert(
        fc.asyncProperty(fc.array(cmd, { minLength: 1, maxLength: 10 }), async (cmds) => {
          const broken = await run(cmds, (db) => new TrustingJournal(db));
          for (const hh of open) hh.close();
          open = [];
          if (broken !== null) caught = broken;
          return broken === null;
        }),
        { numRuns: 300 },
      )
      .catch(() => undefined);
    expect(caught).toMatch(/missing but not listed as lost \(silent loss\)/);
  }, 120_000);
});
