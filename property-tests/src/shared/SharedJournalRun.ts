import { MemoryWorld } from "@mcb/adapter-memory";
import { blockEntityPredicate } from "@mcb/blocks";
import { Engine, SqlJournal, openSqlDb, type Journal, type RequestContext, type SqlDb } from "@mcb/engine";
import fc from "fast-check";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { OWNER, PROJECT, boxRecipe, sharedRegistry } from "../Harness.js";
import { freshPostgresJournal } from "../postgres/TestPostgres.js";
import { BridgeWorld, type SliceSent } from "./BridgeWorld.js";

/** How long a bridge's claims last without renewal in these runs (short: dead bridges are recovered quickly). */
export const SHARED_TTL_MS = 500;
/**
 * The longest the bridges' event loop may stall before their claims can lapse: a claim is renewed
 * every third of its expiry (`BridgeClaims`), so a stall of two thirds lets another bridge take it.
 */
const RENEWAL_SLACK_MS = (SHARED_TTL_MS * 2) / 3;

/** One step of a schedule run by bridges sharing one PostgreSQL journal and one world. */
export type SharedCmd =
  | { readonly kind: "build"; readonly bridge: number; readonly key: number; readonly far: boolean; readonly block: number }
  | { readonly kind: "retry"; readonly bridge: number; readonly of: number }
  | { readonly kind: "kill"; readonly bridge: number }
  | { readonly kind: "join" }
  | { readonly kind: "edit" }
  | { readonly kind: "wait"; readonly ms: number };

export const sharedCmd: fc.Arbitrary<SharedCmd> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("build" as const), bridge: fc.nat(2), key: fc.nat(4), far: fc.boolean(), block: fc.nat(2) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("retry" as const), bridge: fc.nat(2), of: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("kill" as const), bridge: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "join" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "edit" as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 40 }) }) },
);

/** Two lease regions wide (x 0..15 and 512..527 rows), with room for the person's edits. */
const AREA = { minX: -64, minY: -64, minZ: -64, maxX: 600, maxY: 319, maxZ: 200 };
const BLOCKS = ["minecraft:stone", "minecraft:oak_planks", "minecraft:glass"];
const ctx: RequestContext = { principal: { playerId: OWNER, role: "agent" }, projectId: PROJECT };

interface Bridge {
  readonly name: string;
  readonly world: BridgeWorld;
  readonly journal: Journal;
  readonly engine: Engine;
  dead: boolean;
}

/** A build as launched: its row (each build its own), and what build_apply answered (if it did). */
interface Launched {
  readonly row: number;
  readonly x: number;
  readonly key: string;
  readonly block: string;
  readonly bridge: Bridge;
  plan?: { readonly plan_id: string; readonly plan_hash: string };
  /** The operation build_apply gave. */
  operationId?: string;
  /** Why build_apply refused (a key used for another plan, a recovery pending), and the operation it named. */
  refused?: { readonly reason: string; readonly operationId: string | null };
  done: Promise<void>;
}

/** A retry of a launched build's apply (same plan, same key) through another bridge, as a client would after losing its bridge. */
interface Retry {
  readonly of: Launched;
  readonly bridge: Bridge;
  operationId?: string;
  done: Promise<void>;
}

/** build_apply's answer: the operation, or a refusal the schedule allows; anything else throws. */
async function apply(
  b: Bridge,
  plan: { plan_id: string; plan_hash: string },
  key: string,
): Promise<{ operationId?: string; refused?: { reason: string; operationId: string | null } }> {
  const op = await b.engine.buildApply(ctx, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: key });
  if (op.ok) return { operationId: op.value.operation_id };
  const details = (op.error.details ?? {}) as { reason?: string; operation_id?: string | null };
  if (op.error.code === "recovery_required") return { refused: { reason: "recovery_required", operationId: null } };
  if (details.reason === "idempotency_key_reused") return { refused: { reason: details.reason, operationId: details.operation_id ?? null } };
  throw new Error(`apply on ${b.name}: ${op.error.code} ${op.error.message}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs a schedule: bridges open engines on one world and one fresh PostgreSQL journal (shared
 * mode), launch builds without waiting (each on its own row; idempotency keys drawn from a small
 * set, so bridges collide on them; "far" rows in another lease region), die (`kill`), join
 * later, and a person edits the world meanwhile. Returns the first broken promise, or null:
 * one operation per key, however many bridges asked; no live bridge's operation taken from it;
 * no two operations' slices interleaved in a lease region; a dead bridge's operations settled by
 * a live one; every applied build in the world, and only those; each person's edit on record once.
 */
export async function runShared(cmds: readonly SharedCmd[], makeJournal: (db: SqlDb) => Journal = (db) => new SqlJournal(db)): Promise<string | null> {
  const run = new SharedRun(makeJournal);
  // Every bridge of a run shares this process's event loop: a synchronous stretch of one (opening
  // a journal on a loaded machine) delays every other bridge's renewals. Measured, so that a run
  // where renewals could not keep up is not judged on what only timely renewals promise.
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  try {
    for (let i = 0; i < 3; i++) await run.open();
    for (const c of cmds) await run.step(c);
    const live = run.bridges.filter((b) => !b.dead);
    const failed = await run.waitLaunched();
    if (failed !== null) return failed;
    for (const b of live) await b.engine.settle();
    const judge = live[0]!;
    const stuck = await run.orphansSettled(judge);
    if (stuck !== null) return stuck;
    for (const b of live) await b.engine.settle();
    const stalledMs = stalls.max / 1e6;
    return await judgeRun(judge, live, run.launched, run.retries, run.sent, run.edits, run.world, stalledMs >= RENEWAL_SLACK_MS ? stalledMs : null);
  } finally {
    stalls.disable();
    run.close();
  }
}

/** One run's bridges (engines on one fresh PostgreSQL journal and one world) and what they were asked to do. */
class SharedRun {
  private readonly url = freshPostgresJournal();
  private readonly registry = sharedRegistry();
  readonly world: MemoryWorld;
  readonly sent: SliceSent[] = [];
  readonly bridges: Bridge[] = [];
  readonly launched: Launched[] = [];
  readonly retries: Retry[] = [];
  readonly edits: number[] = [];

  constructor(private readonly makeJournal: (db: SqlDb) => Journal) {
    this.world = new MemoryWorld({ hasBlockEntity: blockEntityPredicate(this.registry) });
  }

  async open(): Promise<Bridge> {
    const name = `bridge-${this.bridges.length}`;
    const bw = new BridgeWorld(this.world, name, this.sent, 3);
    const journal = this.makeJournal(openSqlDb(this.url));
    const engine = await Engine.open({
      adapter: bw,
      journal,
      registry: this.registry,
      projects: [{ projectId: PROJECT, ownerId: OWNER, area: AREA }],
      limits: { sliceSize: 4 },
      shared: { holder: name, claimTtlMs: SHARED_TTL_MS },
    });
    const b = { name, world: bw, journal, engine, dead: false };
    this.bridges.push(b);
    return b;
  }

  /** Runs one step: builds and retries start and run on (awaited later), the rest happen now. */
  async step(c: SharedCmd): Promise<void> {
    const alive = this.bridges.filter((b) => !b.dead);
    if (c.kind === "build") this.build(alive[c.bridge % alive.length]!, c);
    else if (c.kind === "retry") this.retry(alive[c.bridge % alive.length]!, c.of);
    else if (c.kind === "kill") {
      if (alive.length < 2) return;
      const b = alive[c.bridge % alive.length]!;
      b.dead = true;
      b.world.kill();
      b.engine.close(); // no more renewals: its claims expire
    } else if (c.kind === "join") {
      if (this.bridges.length < 5) await this.open();
    } else if (c.kind === "edit") {
      const x = 100 + this.edits.length;
      this.world.externalEdit(x, 70, 100, "minecraft:glass");
      this.edits.push(x);
    } else await sleep(c.ms);
  }

  private build(b: Bridge, c: SharedCmd & { kind: "build" }): void {
    const row = this.launched.length;
    const x = c.far ? 512 : 0;
    const l: Launched = { row, x, key: `k${c.key}`, block: BLOCKS[c.block]!, bridge: b, done: Promise.resolve() };
    l.done = (async () => {
      const plan = await b.engine.buildPrepare(ctx, { recipe: boxRecipe({ x, y: 64, z: row }, { x: x + 15, y: 64, z: row }, l.block) });
      if (!plan.ok) throw new Error(`prepare on ${b.name}: ${plan.error.message}`);
      l.plan = plan.value;
      Object.assign(l, await apply(b, plan.value, l.key));
    })();
    l.done.catch(() => undefined);
    this.launched.push(l);
  }

  private retry(b: Bridge, ofIndex: number): void {
    const of = this.launched[ofIndex % Math.max(1, this.launched.length)];
    if (of === undefined) return;
    const r: Retry = { of, bridge: b, done: Promise.resolve() };
    r.done = (async () => {
      await of.done.catch(() => undefined);
      if (of.plan === undefined) return;
      const got = await apply(b, of.plan, of.key);
      r.operationId = got.operationId;
    })();
    r.done.catch(() => undefined);
    this.retries.push(r);
  }

  /** Waits for the builds and retries of live bridges; the first failure's message, else null. */
  async waitLaunched(): Promise<string | null> {
    for (const l of [...this.launched, ...this.retries]) {
      if (l.bridge.dead || ("of" in l && l.of.bridge.dead)) continue;
      try {
        await l.done;
      } catch (e) {
        return (e as Error).message;
      }
    }
    return null;
  }

  /** A dead bridge's operations: settled by whichever live bridge claims them once its claims expired (null), or what stayed stuck. */
  async orphansSettled(judge: Bridge): Promise<string | null> {
    const deadline = Date.now() + SHARED_TTL_MS * 20;
    for (;;) {
      const stuck = judge.journal.unfinishedOperations().filter((o) => o.status === "queued" || o.status === "applying");
      if (stuck.length === 0) return null;
      if (Date.now() > deadline) return `operations never settled after their bridge died: ${stuck.map((o) => `${o.operationId} ${o.status}`).join(", ")}`;
      await sleep(20);
    }
  }

  close(): void {
    for (const b of this.bridges) {
      b.engine.close();
      if (!b.dead) b.journal.close();
    }
  }
}

/**
 * `stalledMs`: the event loop stalled this long (past the renewal slack), else null. Then a live
 * bridge's claims may have lapsed for real, and the one promise that rests on timely renewals (no
 * live bridge's operation is taken from it) is not judged; every other promise still is.
 */
async function judgeRun(
  judge: Bridge,
  live: readonly Bridge[],
  launched: readonly Launched[],
  retries: readonly Retry[],
  sent: readonly SliceSent[],
  edits: readonly number[],
  world: MemoryWorld,
  stalledMs: number | null,
): Promise<string | null> {
  const j = judge.journal;
  // One operation per key, whichever bridge asked and however concurrently.
  const byKey = new Map<string, string>();
  for (const l of launched) {
    if (l.operationId === undefined) continue;
    const first = byKey.get(l.key);
    if (first !== undefined && first !== l.operationId) return `key ${l.key} gave two operations: ${first} and ${l.operationId}`;
    byKey.set(l.key, l.operationId);
  }
  for (const l of launched) {
    if (l.refused?.reason !== "idempotency_key_reused") continue;
    const owner = j.findOperationByKey(PROJECT, l.key)?.operationId ?? null;
    if (l.refused.operationId !== owner) return `key ${l.key} refused as used by ${l.refused.operationId}, but it belongs to ${owner}`;
  }
  // A retry through another bridge (same plan, same key) is the same operation, never a second one.
  for (const r of retries) {
    if (r.operationId !== undefined && r.of.operationId !== undefined && r.operationId !== r.of.operationId)
      return `retry of key ${r.of.key} on ${r.bridge.name} gave ${r.operationId}, first ${r.of.operationId}`;
  }
  const ops = j.listOperations(PROJECT, {}, 1000);
  const keys = new Set(ops.map((o) => o.idempotencyKey));
  if (keys.size !== ops.length) return `${ops.length} operations for ${keys.size} keys: a key was applied twice`;
  const opOfRow = new Map<number, string>();
  for (const o of ops) {
    const plan = j.getPlan(o.planId)!;
    opOfRow.set(plan.pos[2]!, o.operationId);
  }
  // No live bridge's operation was taken from it: each ends applied (rows never overlap, no edits there).
  const liveNames = new Set(live.map((b) => b.name));
  for (const l of launched) {
    if (stalledMs !== null) break;
    if (l.operationId === undefined || !liveNames.has(l.bridge.name) || opOfRow.get(l.row) !== l.operationId) continue;
    const op = j.getOperation(l.operationId)!;
    if (op.status !== "applied") return `operation ${l.operationId} of live ${l.bridge.name} ended ${op.status} (${op.error?.message ?? ""})`;
  }
  // Slices of two operations never interleave in one lease region.
  const runs = new Map<string, { current: string | null; done: Set<string> }>();
  for (const s of sent) {
    for (const region of s.regions) {
      const r = runs.get(region) ?? { current: null, done: new Set<string>() };
      runs.set(region, r);
      for (const row of s.rows) {
        const op = opOfRow.get(row) ?? `row ${row}`;
        if (op === r.current) continue;
        if (r.done.has(op)) return `slices of ${op} and another operation interleaved in region ${region}`;
        if (r.current !== null) r.done.add(r.current);
        r.current = op;
      }
    }
  }
  // Every applied build is in the world, and nothing else was written.
  for (const l of launched) {
    const opId = opOfRow.get(l.row);
    const op = opId === undefined ? null : j.getOperation(opId);
    for (let x = l.x; x < l.x + 16; x++) {
      const state = world.stateAt(x, 64, l.row);
      if (op?.status === "applied" && state !== l.block) return `row ${l.row} (applied by ${opId}) holds ${state} at x ${x}`;
      if (op === null && state !== "minecraft:air") return `row ${l.row} has no operation but holds ${state}`;
    }
  }
  // Each person's edit is on record once, whichever bridges pulled the world's events.
  for (const b of live) {
    const r = await b.engine.sync();
    if (!r.ok) return `sync on ${b.name}: ${r.error.message}`;
  }
  const touches = j.touchesAfter(0, { minX: 100, minY: 70, minZ: 100, maxX: 100 + edits.length, maxY: 70, maxZ: 100 });
  if (touches.kinds.length !== edits.length) return `${edits.length} edits by a person, ${touches.kinds.length} on record`;
  return null;
}
