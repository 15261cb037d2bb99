import { setImmediate as yieldToLoop, setTimeout as sleep } from "node:timers/promises";
import { boundsOf, type McbError } from "@mcb/blocks";
import { ChangedSincePrepare } from "./ChangedSincePrepare.js";
import { sliceBounds } from "./Multipart.js";
import type { ConflictSample, Journal, OperationCounters, OperationRecord, SliceResult } from "./Journal.js";
import { writeCount, type PreparedPlan } from "./PreparedPlan.js";
import type { EngineLimits } from "./Project.js";
import { isHostCrash, isSliceRefused, type CasCheck, type CasWrite, type WorldAdapter, type WorldInfo } from "./WorldAdapter.js";
import { readPositions } from "./WorldReader.js";
import { setBit } from "./BitMask.js";
import type { OperationStatus } from "./OperationStatus.js";

export interface ApplierDeps {
  readonly adapter: WorldAdapter;
  readonly journal: Journal;
  readonly limits: EngineLimits;
  readonly clock: () => number;
  /** Prepared plans by id (cached; throws for a plan missing from the journal). */
  plans(planId: string): PreparedPlan;
  /** Pulls external events from the world into the journal and feed (before each slice). */
  /** The world now, from the host the engine knows (HostCrash when gone or restarted), with its events pulled in. */
  syncEvents(): Promise<WorldInfo>;
  /** Null when the operation may still write; otherwise why not (access revoked, …). */
  mayWrite(op: OperationRecord): McbError | null;
  /** Cancel flags, held in process memory (a restart ends the operation anyway). */
  cancelRequested(operationId: string): boolean;
}

/**
 * Waits until writing from position `at` keeps the operation at or under `rate` blocks per second
 * since `pace.since`, in steps of at most 50 ms so a cancel is seen promptly. True when cancelled.
 */
async function paced(rate: number, pace: { since: number; from: number }, at: number, cancelled: () => boolean): Promise<boolean> {
  if (rate !== Infinity) {
    const due = pace.since + ((at - pace.from) / rate) * 1000;
    for (let now = performance.now(); now < due && !cancelled(); now = performance.now()) await sleep(Math.min(50, due - now));
  }
  return cancelled();
}

/**
 * Runs one operation slice by slice (docs/DESIGN.md "Slices and the journal"): before each slice it checks cancellation,
 * access and the world epoch, syncs external events, reads the slice's targets and the plan's
 * dependencies and classifies each target (current = base: write; current = desired: skip, not
 * ours; else conflict, stop before writing; a base position that held something else since the
 * plan was prepared is a conflict too, see `ChangedSincePrepare`). It then durably commits the intent (together with the
 * previous slice's result), sends one compare-and-set, and records exactly what was written.
 * `HostCrash` propagates untouched: a dead process writes nothing more.
 */
export async function runOperation(deps: ApplierDeps, operationId: string): Promise<OperationRecord> {
  const { adapter, journal, limits } = deps;
  let op = journal.getOperation(operationId);
  if (op === null) throw new Error(`operation ${operationId} vanished from the journal`);
  const plan = deps.plans(op.planId);
  const n = writeCount(plan);
  const size = limits.sliceSize;
  let counters: OperationCounters = { ...op.counters };
  const sample: ConflictSample[] = [...op.conflictSample];
  let pending: SliceResult | null = null;
  let intentOpen = false;

  const finish = (status: OperationStatus, error: { code: string; message: string } | null = null): OperationRecord => {
    op = { ...op!, status, counters, conflictSample: sample, updatedAt: deps.clock(), error };
    journal.commit(op, pending, null);
    pending = null;
    return op;
  };
  const addConflict = (c: ConflictSample): void => {
    counters = { ...counters, conflicts: counters.conflicts + 1 };
    if (sample.length < limits.conflictSampleSize) sample.push(c);
  };

  const checks = dependencyChecks(plan); // the same read set guards the precheck and every slice
  const changed = new ChangedSincePrepare(journal, deps.plans, plan, operationId);

  // A conflict found in advance means the plan does not begin writing (docs/DESIGN.md "Write rule").
  if (counters.slicesDone === 0) {
    try {
      await deps.syncEvents();
      changed.refresh();
      await precheck(adapter, plan, checks, changed, addConflict);
    } catch (error) {
      if (isHostCrash(error)) throw error;
      return finish("failed", { code: "failed", message: `world read failed before writing: ${error instanceof Error ? error.message : String(error)}` });
    }
    if (counters.conflicts > 0) return finish("conflict");
  }

  const bounds = sliceBounds(n, plan.pairs, size);
  const pairStart = new Set<number>(plan.pairs);
  const pace = { since: performance.now(), from: bounds[counters.slicesDone] ?? 0 };
  for (let s = counters.slicesDone; s < counters.slicesTotal; s++) {
    try {
      await yieldToLoop();
      if (await paced(limits.maxBlocksPerSecond, pace, bounds[s]!, () => deps.cancelRequested(operationId))) return finish("cancelled");
      const denied = deps.mayWrite(op);
      if (denied !== null) return finish("failed", { code: denied.code, message: denied.message });
      const info = await deps.syncEvents();
      if (info.worldId !== plan.worldId || info.epoch !== plan.epoch)
        return finish("failed", { code: "stale_snapshot", message: "the world was restored or replaced (epoch changed) during the operation" });
      changed.refresh();

      const start = bounds[s]!;
      const end = bounds[s + 1]!;
      const cur = await readPositions(adapter, plan.pos, start, end);
      await checkDependencies(adapter, plan, checks, addConflict);
      const intent = new Uint8Array(Math.ceil((end - start) / 8));
      const writes: CasWrite[] = [];
      const offsets: number[] = [];
      // A pair whose two members are both written is one indivisible compare-and-set group.
      const groupEnds: number[] = [];
      let skipped = 0;
      for (let i = start; i < end; i++) {
        const verdict = classify(plan, i, cur.states[i - start]!, cur.digests[i - start]!, changed);
        if (verdict === "skip") skipped++;
        else if (verdict === "write") {
          setBit(intent, i - start);
          const joinsPrevious = pairStart.has(i - 1) && offsets[offsets.length - 1] === i - 1 - start;
          if (joinsPrevious) groupEnds.pop();
          const p = i * 3;
          const data = plan.afterData[i]!;
          writes.push({
            x: plan.pos[p]!, y: plan.pos[p + 1]!, z: plan.pos[p + 2]!,
            before: plan.states[plan.before[i]!]!, beforeDigest: digestOf(plan, plan.beforeDigest[i]!), after: plan.states[plan.after[i]!]!,
            ...(data < 0 ? {} : { afterData: plan.data[data]! }),
          });
          offsets.push(i - start);
          groupEnds.push(writes.length);
        } else addConflict(targetConflict(plan, i, cur.states[i - start]!, verdict === "changed"));
      }
      if (counters.conflicts > op.counters.conflicts) return finish("conflict");

      counters = { ...counters, skipped: counters.skipped + skipped };
      op = { ...op, status: "applying", counters, updatedAt: deps.clock() };
      journal.commit(op, pending, { operationId, sliceNo: s, start, end, intent, written: null, seq: 0, bounds: boundsOf(plan.pos, start, end)!, entityDigests: [] });
      pending = null;
      intentOpen = true;
      let res;
      try {
        res = await adapter.compareAndSet({ checks, writes, groupEnds });
      } catch (error) {
        if (!isSliceRefused(error)) throw error;
        // The world refused the slice before writing any of it: the intent resolves to nothing written.
        intentOpen = false;
        pending = { operationId, sliceNo: s, written: new Uint8Array(intent.length), entityDigests: [] };
        counters = { ...counters, slicesDone: s + 1 };
        return finish("failed", { code: error.code, message: `the world refused slice ${s} before writing: ${error.message}` });
      }
      intentOpen = false;
      const written = new Uint8Array(intent.length);
      const entityDigests: [number, string][] = [];
      for (let w = 0; w < res.written; w++) {
        const off = offsets[w]!;
        setBit(written, off);
        const d = res.entityDigests.get(w);
        if (d !== undefined) entityDigests.push([off, d]);
      }
      counters = { ...counters, written: counters.written + res.written, slicesDone: s + 1 };
      // The world's number for these writes (when it numbers them): the journal learns when they are saved.
      pending = { operationId, sliceNo: s, written, entityDigests, ...(res.saved === undefined ? {} : { saved: res.saved }) };
      if (res.mismatches.length > 0) {
        for (const m of res.mismatches) {
          addConflict({ pos: { x: m.x, y: m.y, z: m.z }, kind: m.kind === "check" ? "dependency" : "write", expected: m.expected, actual: m.actual, dataChanged: m.expected === m.actual });
        }
        return finish("conflict");
      }
    } catch (error) {
      if (isHostCrash(error)) throw error;
      // The world may or may not hold this slice: leave the intent open for recovery review.
      const message = error instanceof Error ? error.message : String(error);
      if (intentOpen) return finish("recovery_required", { code: "recovery_required", message: `world call failed during a write: ${message}` });
      return finish("failed", { code: "failed", message: `world call failed before writing: ${message}` });
    }
  }
  return finish("applied");
}

/** Whole-plan comparison before the first slice: every target at base or desired, every dependency intact. */
async function precheck(
  adapter: WorldAdapter,
  plan: PreparedPlan,
  checks: readonly CasCheck[],
  changed: ChangedSincePrepare,
  addConflict: (c: ConflictSample) => void,
): Promise<void> {
  const cur = await readPositions(adapter, plan.pos);
  for (let i = 0; i < plan.pos.length / 3; i++) {
    const verdict = classify(plan, i, cur.states[i]!, cur.digests[i]!, changed);
    if (verdict === "conflict" || verdict === "changed") addConflict(targetConflict(plan, i, cur.states[i]!, verdict === "changed"));
  }
  await checkDependencies(adapter, plan, checks, addConflict);
}

/**
 * docs/DESIGN.md "Write rule" for write-set position i: at base (state and digest) → write, unless the block held
 * something else since preparation (`changed`: the base is stale); at desired → skip; else conflict.
 */
function classify(plan: PreparedPlan, i: number, current: string, digest: string | null, changed: ChangedSincePrepare): "write" | "skip" | "conflict" | "changed" {
  if (current === plan.states[plan.before[i]!] && digest === digestOf(plan, plan.beforeDigest[i]!)) return changed.has(i) ? "changed" : "write";
  return current === plan.states[plan.after[i]!] ? "skip" : "conflict";
}

function targetConflict(plan: PreparedPlan, i: number, actual: string, changedSincePrepare: boolean): ConflictSample {
  const expected = plan.states[plan.before[i]!]!;
  const pos = { x: plan.pos[i * 3]!, y: plan.pos[i * 3 + 1]!, z: plan.pos[i * 3 + 2]! };
  if (changedSincePrepare) return { pos, kind: "write", expected, actual, dataChanged: false, changedSincePrepare: true };
  return { pos, kind: "write", expected, actual, dataChanged: actual === expected };
}

function dependencyChecks(plan: PreparedPlan): CasCheck[] {
  const checks: CasCheck[] = [];
  for (let d = 0; d < plan.depPos.length / 3; d++) {
    checks.push({ x: plan.depPos[d * 3]!, y: plan.depPos[d * 3 + 1]!, z: plan.depPos[d * 3 + 2]!, state: plan.states[plan.depState[d]!]!, digest: digestOf(plan, plan.depDigest[d]!) });
  }
  return checks;
}

/** Reads the plan's dependencies and reports each one no longer at its expected state and digest. */
async function checkDependencies(adapter: WorldAdapter, plan: PreparedPlan, checks: readonly CasCheck[], addConflict: (c: ConflictSample) => void): Promise<void> {
  if (checks.length === 0) return;
  const now = await readPositions(adapter, plan.depPos);
  checks.forEach((c, d) => {
    if (now.states[d] !== c.state || now.digests[d] !== c.digest)
      addConflict({ pos: { x: c.x, y: c.y, z: c.z }, kind: "dependency", expected: c.state, actual: now.states[d]!, dataChanged: now.states[d] === c.state });
  });
}

function digestOf(plan: PreparedPlan, i: number): string | null {
  return i < 0 ? null : plan.digests[i]!;
}

export function emptyCounters(plan: PreparedPlan, sliceSize: number): OperationCounters {
  const total = writeCount(plan);
  return { total, written: 0, skipped: 0, conflicts: 0, slicesDone: 0, slicesTotal: sliceBounds(total, plan.pairs, sliceSize).length - 1 };
}
