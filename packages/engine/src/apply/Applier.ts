import { setImmediate as yieldToLoop, setTimeout as sleep } from "node:timers/promises";
import type { McbError } from "@mcb/blocks";
import { ChangedSincePrepare } from "../merge/ChangedSincePrepare.js";
import { sliceBounds } from "../plan/Multipart.js";
import type { ConflictSample, Journal, OperationCounters, OperationRecord, SliceResult } from "../store/Journal.js";
import { writeCount, type PreparedPlan } from "../plan/PreparedPlan.js";
import type { EngineLimits } from "../project/Project.js";
import { isHostCrash, isSliceRefused, type CasBatchResult, type CasCheck, type WorldAdapter, type WorldInfo } from "../world/WorldAdapter.js";
import { buildSlice, classify, dependencyChecks, targetConflict, type BuiltSlice } from "./SliceBuilder.js";
import { readPositions, type PositionsRead } from "../world/WorldReader.js";
import { PrecheckRead } from "./PrecheckRead.js";
import { setBit } from "../plan/BitMask.js";
import type { OperationStatus } from "../project/OperationStatus.js";

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
  /** Before every journal commit and world write: throws when another bridge took the operation over (`BridgeClaims.fence`). */
  fence(operationId: string): void;
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
 * dependencies and classifies each target (`buildSlice`; a conflict stops before writing). It then
 * durably commits the intent (together with the previous slice's result), sends one
 * compare-and-set, and records exactly what was written. A world that takes batches
 * (`compareAndSetBatch`) gets up to `sliceWindow` slices per round: the intents in one commit, one
 * call, the slices run in order and the batch stopping at the first that meets a conflict, exactly
 * as one slice at a time would; while a batch runs, the next one is prepared (its checks, events,
 * reads and classification) and its intents committed with the results of the batch before; it is
 * sent only once this batch is back and did not stop (else its slices are recorded as never run).
 * `HostCrash` propagates untouched: a dead process writes nothing more.
 */
export async function runOperation(deps: ApplierDeps, operationId: string): Promise<OperationRecord> {
  const { adapter, journal, limits } = deps;
  let op = journal.getOperation(operationId);
  if (op === null) throw new Error(`operation ${operationId} vanished from the journal`);
  const plan = deps.plans(op.planId);
  const n = writeCount(plan);
  const size = limits.sliceSize;
  // Paced operations go one slice at a time (a cancel lands between slices).
  const window = adapter.compareAndSetBatch === undefined || limits.maxBlocksPerSecond !== Infinity ? 1 : limits.sliceWindow;
  let counters: OperationCounters = { ...op.counters };
  const sample: ConflictSample[] = [...op.conflictSample];
  let pending: SliceResult[] = [];
  let intentOpen = false;

  const finish = (status: OperationStatus, error: { code: string; message: string } | null = null): OperationRecord => {
    op = { ...op!, status, counters, conflictSample: sample, updatedAt: deps.clock(), error };
    deps.fence(operationId);
    journal.commit(op, pending, []);
    pending = [];
    return op;
  };
  const addConflict = (c: ConflictSample): void => {
    counters = { ...counters, conflicts: counters.conflicts + 1 };
    if (sample.length < limits.conflictSampleSize) sample.push(c);
  };
  /** Slices whose intents were committed but that never ran: resolved as writing nothing. */
  const neverRan = (slices: readonly BuiltSlice[]): void => {
    for (const b of slices) pending.push({ operationId, sliceNo: b.intent.sliceNo, written: new Uint8Array(b.intent.intent.length), entityDigests: [] });
  };

  const checks = dependencyChecks(plan); // the same read set guards the precheck and every slice
  const changed = new ChangedSincePrepare(journal, deps.plans, plan, operationId);

  // A conflict found in advance means the plan does not begin writing (docs/DESIGN.md "Write rule").
  let reuse: PrecheckRead | null = null;
  if (counters.slicesDone === 0) {
    try {
      await deps.syncEvents();
      changed.refresh();
      const seq = journal.headSeq();
      const read = await precheck(adapter, plan, checks, changed, addConflict);
      if (window > 1) reuse = new PrecheckRead(journal, operationId, seq, read, changed);
    } catch (error) {
      if (isHostCrash(error)) throw error;
      return finish("failed", { code: "failed", message: `world read failed before writing: ${error instanceof Error ? error.message : String(error)}` });
    }
    if (counters.conflicts > 0) return finish("conflict");
  }

  const bounds = sliceBounds(n, plan.pairs, size);
  const pace = { since: performance.now(), from: bounds[counters.slicesDone] ?? 0 };
  const windows: WindowDeps = {
    adapter,
    plan,
    operationId,
    checks,
    changed,
    reuse,
    bounds,
    pairStart: new Set<number>(plan.pairs),
    window,
    total: counters.slicesTotal,
    before: async (s) => {
      await yieldToLoop();
      if (await paced(limits.maxBlocksPerSecond, pace, bounds[s]!, () => deps.cancelRequested(operationId))) return { status: "cancelled", error: null };
      const denied = deps.mayWrite(op!);
      if (denied !== null) return { status: "failed", error: { code: denied.code, message: denied.message } };
      const info = await deps.syncEvents();
      if (info.worldId !== plan.worldId || info.epoch !== plan.epoch)
        return { status: "failed", error: { code: "stale_snapshot", message: "the world was restored or replaced (epoch changed) during the operation" } };
      return null;
    },
  };
  const failed = (error: unknown): OperationRecord => {
    if (isHostCrash(error)) throw error;
    // The world may or may not hold the slices sent: their intents stay open for recovery review.
    const message = error instanceof Error ? error.message : String(error);
    if (intentOpen) return finish("recovery_required", { code: "recovery_required", message: `world call failed during a write: ${message}` });
    return finish("failed", { code: "failed", message: `world call failed before writing: ${message}` });
  };

  if (counters.slicesDone >= counters.slicesTotal) return finish("applied");
  /** Journals a window's intents (with the results not yet journalled): then it may be sent. */
  const commitIntents = (b: readonly BuiltSlice[]): void => {
    counters = { ...counters, skipped: counters.skipped + b.reduce((t, x) => t + x.skipped, 0) };
    op = { ...op!, status: "applying", counters, updatedAt: deps.clock() };
    deps.fence(operationId);
    const last = journal.commit(
      op,
      pending,
      b.map((x) => x.intent),
    );
    changed.ownCommit(last - pending.length + 1, last);
    pending = [];
  };
  /** How a window that is not a batch ends the operation. */
  const ended = (w: Exclude<Window, { kind: "batch" }>): OperationRecord => {
    if (w.kind === "stop") return finish(w.status, w.error);
    w.conflicts.forEach(addConflict);
    return finish("conflict");
  };

  let w: Window;
  try {
    w = await prepareWindow(windows, counters.slicesDone);
    if (w.kind !== "batch") return ended(w);
    commitIntents(w.batch);
  } catch (error) {
    return failed(error);
  }
  for (;;) {
    intentOpen = true;
    const batch = w.batch;
    deps.fence(operationId);
    const sending = send(adapter, batch);
    sending.catch(() => undefined); // awaited below
    // While this batch runs, the next is prepared and its intents journalled (with the results of
    // the batch before): sent only once this one is back and did not stop.
    const overlap = window > 1 && w.stop.length === 0 && w.last < counters.slicesTotal;
    let next: Window | null = null;
    let nextError: unknown = null;
    if (overlap) {
      try {
        next = await prepareWindow(windows, w.last);
        if (next.kind === "batch") commitIntents(next.batch);
      } catch (error) {
        if (isHostCrash(error)) throw error;
        nextError = error;
      }
    }
    const unsent = next?.kind === "batch" ? next.batch : [];
    let outcome: CasBatchResult;
    try {
      outcome = await sending;
    } catch (error) {
      if (!isHostCrash(error)) neverRan(unsent);
      return failed(error);
    }
    intentOpen = false;
    for (const [k, res] of outcome.results.entries()) {
      const b = batch[k]!;
      const written = new Uint8Array(b.intent.intent.length);
      const entityDigests: [number, string][] = [];
      for (let i = 0; i < res.written; i++) {
        const off = b.offsets[i]!;
        setBit(written, off);
        const d = res.entityDigests.get(i);
        if (d !== undefined) entityDigests.push([off, d]);
      }
      counters = { ...counters, written: counters.written + res.written, slicesDone: b.intent.sliceNo + 1 };
      // The world's number for these writes (when it numbers them): the journal learns when they are saved.
      pending.push({ operationId, sliceNo: b.intent.sliceNo, written, entityDigests, ...(res.saved === undefined ? {} : { saved: res.saved }) });
    }
    const stopped = outcome.stopped;
    if (stopped !== undefined) {
      const at = batch[stopped.slice]!;
      neverRan(unsent);
      if (stopped.reason === "mismatch") {
        neverRan(batch.slice(stopped.slice + 1));
        for (const m of outcome.results[stopped.slice]!.mismatches)
          addConflict({
            pos: { x: m.x, y: m.y, z: m.z },
            kind: m.kind === "check" ? "dependency" : "write",
            expected: m.expected,
            actual: m.actual,
            dataChanged: m.expected === m.actual,
          });
        return finish("conflict");
      }
      if (stopped.reason === "refused") {
        // The world refused the slice before writing any of it: its intent resolves to nothing written.
        neverRan(batch.slice(stopped.slice));
        counters = { ...counters, slicesDone: at.intent.sliceNo + 1 };
        return finish("failed", { code: stopped.code, message: `the world refused slice ${at.intent.sliceNo} before writing: ${stopped.message}` });
      }
      // The host failed inside the slice: it may or may not hold it (its intent stays open for review).
      neverRan(batch.slice(stopped.slice + 1));
      return finish("recovery_required", { code: "recovery_required", message: `world call failed during a write: ${stopped.message}` });
    }
    if (w.stop.length > 0) {
      w.stop.forEach(addConflict);
      return finish("conflict");
    }
    if (w.last >= counters.slicesTotal) return finish("applied");
    if (nextError !== null) return failed(nextError);
    try {
      if (next === null) {
        next = await prepareWindow(windows, w.last);
        if (next.kind === "batch") commitIntents(next.batch);
      }
    } catch (error) {
      return failed(error);
    }
    if (next.kind !== "batch") return ended(next);
    w = next;
  }
}

interface WindowDeps {
  readonly adapter: WorldAdapter;
  readonly plan: PreparedPlan;
  readonly operationId: string;
  readonly checks: readonly CasCheck[];
  readonly changed: ChangedSincePrepare;
  readonly reuse: PrecheckRead | null;
  readonly bounds: readonly number[];
  readonly pairStart: ReadonlySet<number>;
  readonly window: number;
  readonly total: number;
  /** Cancellation, access and the world epoch before a window (events synced): null to go on, else how the operation ends. */
  before(s: number): Promise<{ readonly status: OperationStatus; readonly error: { code: string; message: string } | null } | null>;
}

/** A prepared window: slices to send (and the conflicts of the slice after them, if one stops the operation), or how it ends. */
type Window =
  | { readonly kind: "batch"; readonly batch: readonly BuiltSlice[]; readonly stop: readonly ConflictSample[]; readonly last: number }
  | { readonly kind: "conflict"; readonly conflicts: readonly ConflictSample[] }
  | { readonly kind: "stop"; readonly status: OperationStatus; readonly error: { code: string; message: string } | null };

/**
 * The checks, reads and classification of the window of slices from `s`. Touches nothing the
 * applier commits: conflicts are returned, not counted, so a window prepared while a batch runs
 * changes nothing until that batch is recorded.
 */
async function prepareWindow(d: WindowDeps, s: number): Promise<Window> {
  const end = await d.before(s);
  if (end !== null) return { kind: "stop", ...end };
  d.changed.refresh();
  const last = Math.min(d.total, s + d.window);
  const { plan, bounds } = d;
  const cur = d.reuse?.window(plan.pos, bounds[s]!, bounds[last]!) ?? (await readPositions(d.adapter, plan.pos, bounds[s]!, bounds[last]!));
  const depConflicts: ConflictSample[] = [];
  await checkDependencies(d.adapter, plan, d.checks, (c) => depConflicts.push(c));
  // A changed dependency stops the operation at this slice (with this slice's own conflicts, if any).
  const batch: BuiltSlice[] = [];
  let stop: readonly ConflictSample[] = [];
  for (let k = s; k < (depConflicts.length > 0 ? s + 1 : last); k++) {
    const built = buildSlice(plan, d.operationId, k, bounds[k]!, bounds[k + 1]!, cur, bounds[s]!, d.checks, d.changed, d.pairStart);
    if (!built.ok) {
      stop = built.conflicts; // the slices before it are written first, as one at a time would
      break;
    }
    batch.push(built.slice);
  }
  if (batch.length === 0 || depConflicts.length > 0) return { kind: "conflict", conflicts: [...depConflicts, ...stop] };
  return { kind: "batch", batch, stop, last: s + batch.length };
}

/**
 * Sends a batch: one `compareAndSetBatch` call, or one `compareAndSet` (a world without batches
 * gets batches of one), whose `SliceRefused` becomes a `refused` stop.
 */
async function send(adapter: WorldAdapter, batch: readonly BuiltSlice[]): Promise<CasBatchResult> {
  if (adapter.compareAndSetBatch !== undefined) return adapter.compareAndSetBatch(batch.map((b) => b.cas));
  if (batch.length !== 1) throw new Error("a world without batches is sent one slice at a time");
  try {
    const res = await adapter.compareAndSet(batch[0]!.cas);
    return res.mismatches.length > 0 ? { results: [res], stopped: { slice: 0, reason: "mismatch" } } : { results: [res] };
  } catch (error) {
    if (!isSliceRefused(error)) throw error;
    return { results: [], stopped: { slice: 0, reason: "refused", code: error.code, message: error.message } };
  }
}

/** Whole-plan comparison before the first slice: every target at base or desired, every dependency intact. */
async function precheck(
  adapter: WorldAdapter,
  plan: PreparedPlan,
  checks: readonly CasCheck[],
  changed: ChangedSincePrepare,
  addConflict: (c: ConflictSample) => void,
): Promise<PositionsRead> {
  const cur = await readPositions(adapter, plan.pos);
  for (let i = 0; i < plan.pos.length / 3; i++) {
    const verdict = classify(plan, i, cur.states[i]!, cur.digests[i]!, changed);
    if (verdict === "conflict" || verdict === "changed") addConflict(targetConflict(plan, i, cur.states[i]!, verdict === "changed"));
  }
  await checkDependencies(adapter, plan, checks, addConflict);
  return cur;
}

/** Reads the plan's dependencies and reports each one no longer at its expected state and digest. */
async function checkDependencies(
  adapter: WorldAdapter,
  plan: PreparedPlan,
  checks: readonly CasCheck[],
  addConflict: (c: ConflictSample) => void,
): Promise<void> {
  if (checks.length === 0) return;
  const now = await readPositions(adapter, plan.depPos);
  checks.forEach((c, d) => {
    if (now.states[d] !== c.state || now.digests[d] !== c.digest)
      addConflict({ pos: { x: c.x, y: c.y, z: c.z }, kind: "dependency", expected: c.state, actual: now.states[d]!, dataChanged: now.states[d] === c.state });
  });
}

export function emptyCounters(plan: PreparedPlan, sliceSize: number): OperationCounters {
  const total = writeCount(plan);
  return { total, written: 0, skipped: 0, conflicts: 0, slicesDone: 0, slicesTotal: sliceBounds(total, plan.pairs, sliceSize).length - 1 };
}
