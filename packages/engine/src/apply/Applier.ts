import { setImmediate as yieldToLoop, setTimeout as sleep } from "node:timers/promises";
import type { McbError } from "@mcb/blocks";
import { ChangedSincePrepare } from "../merge/ChangedSincePrepare.js";
import { sliceBounds } from "../plan/Multipart.js";
import type { ConflictSample, OperationCounters, OperationRecord, SliceResult, OperationJournal, TouchJournal } from "../store/Journal.js";
import { writeCount, type PreparedPlan } from "../core/PreparedPlan.js";
import type { EngineLimits } from "../core/Project.js";
import { isHostCrash, type CasBatchResult, type CasCheck, type WorldAdapter, type WorldInfo } from "../world/WorldAdapter.js";
import { dependencyChecks, type BuiltSlice } from "./SliceBuilder.js";
import { PrecheckRead } from "./PrecheckRead.js";
import { otherConflicts, precheck, prepareWindow, send, type Window, type WindowDeps } from "./Windows.js";
import { setBit } from "../core/BitMask.js";
import type { OperationStatus } from "../core/OperationStatus.js";

export interface ApplierDeps {
  readonly adapter: WorldAdapter;
  readonly journal: OperationJournal & TouchJournal;
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
  const op = deps.journal.getOperation(operationId);
  if (op === null) throw new Error(`operation ${operationId} vanished from the journal`);
  return new OperationRun(deps, op).run();
}

/** Plan positions read again after a stop, from the stopped slice on, to list every change there. */
const RECHECK_AFTER_STOP = 65_536;

type Ending = { readonly status: OperationStatus; readonly error: { code: string; message: string } | null };

/** One run of an operation: its counters, conflict sample and slice results not yet journalled. */
class OperationRun {
  private readonly plan: PreparedPlan;
  private readonly operationId: string;
  private counters: OperationCounters;
  private readonly sample: ConflictSample[];
  private pending: SliceResult[] = [];
  /** Whether a batch was sent and not yet answered (its intents open): a failure then needs recovery. */
  private intentOpen = false;
  private readonly changed: ChangedSincePrepare;
  private readonly checks: readonly CasCheck[];
  /** Slices per round: paced operations go one slice at a time (a cancel lands between slices). */
  private readonly window: number;

  constructor(
    private readonly deps: ApplierDeps,
    private op: OperationRecord,
  ) {
    const { adapter, journal, limits } = deps;
    this.operationId = op.operationId;
    this.plan = deps.plans(op.planId);
    this.counters = { ...op.counters };
    this.sample = [...op.conflictSample];
    this.window = adapter.compareAndSetBatch === undefined || limits.maxBlocksPerSecond !== Infinity ? 1 : limits.sliceWindow;
    this.checks = dependencyChecks(this.plan); // the same read set guards the precheck and every slice
    this.changed = new ChangedSincePrepare(journal, deps.plans, this.plan, this.operationId);
  }

  async run(): Promise<OperationRecord> {
    // A conflict found in advance means the plan does not begin writing (docs/DESIGN.md "Write rule").
    let reuse: PrecheckRead | null = null;
    if (this.counters.slicesDone === 0) {
      const first = await this.precheckFirst();
      if ("done" in first) return first.done;
      reuse = first.read;
    }
    if (this.counters.slicesDone >= this.counters.slicesTotal) return this.finish("applied");
    const windows = this.windowDeps(reuse);
    let w: Window;
    try {
      w = await this.prepareAndJournal(windows, this.counters.slicesDone);
      if (w.kind !== "batch") return this.ended(w);
    } catch (error) {
      return this.failed(error);
    }
    for (;;) {
      const r = await this.round(windows, w);
      if ("done" in r) return r.done;
      if (r.next.kind !== "batch") return this.ended(r.next);
      w = r.next;
    }
  }

  /** Syncs events and reads the whole plan once: conflicts end the operation before any write. */
  private async precheckFirst(): Promise<{ readonly done: OperationRecord } | { readonly read: PrecheckRead | null }> {
    const { adapter, journal } = this.deps;
    let reuse: PrecheckRead | null = null;
    try {
      await this.deps.syncEvents();
      this.changed.refresh();
      const seq = journal.headSeq();
      const read = await precheck(adapter, this.plan, this.checks, this.changed, (c) => this.addConflict(c));
      if (this.window > 1) reuse = new PrecheckRead(journal, this.operationId, seq, read, this.changed);
    } catch (error) {
      if (isHostCrash(error)) throw error;
      const message = `world read failed before writing: ${error instanceof Error ? error.message : String(error)}`;
      return { done: this.finish("failed", { code: "failed", message }) };
    }
    if (this.counters.conflicts > 0) return { done: this.finish("conflict") };
    return { read: reuse };
  }

  private windowDeps(reuse: PrecheckRead | null): WindowDeps {
    const { adapter, limits } = this.deps;
    const bounds = sliceBounds(writeCount(this.plan), this.plan.pairs, limits.sliceSize);
    const pace = { since: performance.now(), from: bounds[this.counters.slicesDone] ?? 0 };
    return {
      adapter,
      plan: this.plan,
      operationId: this.operationId,
      checks: this.checks,
      changed: this.changed,
      reuse,
      bounds,
      pairStart: new Set<number>(this.plan.pairs),
      window: this.window,
      total: this.counters.slicesTotal,
      before: (s) => this.before(s, pace, bounds),
    };
  }

  /** Cancellation, pacing, access and the world epoch before a window (events synced). */
  private async before(s: number, pace: { since: number; from: number }, bounds: readonly number[]): Promise<Ending | null> {
    const { deps, operationId } = this;
    await yieldToLoop();
    if (await paced(deps.limits.maxBlocksPerSecond, pace, bounds[s]!, () => deps.cancelRequested(operationId))) return { status: "cancelled", error: null };
    const denied = deps.mayWrite(this.op);
    if (denied !== null) return { status: "failed", error: { code: denied.code, message: denied.message } };
    const info = await deps.syncEvents();
    if (info.worldId !== this.plan.worldId || info.epoch !== this.plan.epoch)
      return { status: "failed", error: { code: "stale_snapshot", message: "the world was restored or replaced (epoch changed) during the operation" } };
    return null;
  }

  /**
   * Sends batch `w`; while it runs, the next window is prepared and its intents journalled (with
   * the results of the batch before): sent only once this one is back and did not stop. Returns
   * the next window, or the operation's end.
   */
  private async round(windows: WindowDeps, w: Window & { kind: "batch" }): Promise<{ readonly next: Window } | { readonly done: OperationRecord }> {
    this.intentOpen = true;
    const batch = w.batch;
    this.deps.fence(this.operationId);
    const sending = send(this.deps.adapter, batch);
    sending.catch(() => undefined); // awaited below
    const overlap = this.window > 1 && w.stop.length === 0 && w.last < this.counters.slicesTotal;
    let next: Window | null = null;
    let nextError: unknown = null;
    if (overlap) {
      try {
        next = await this.prepareAndJournal(windows, w.last);
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
      if (!isHostCrash(error)) this.neverRan(unsent);
      return { done: this.failed(error) };
    }
    this.intentOpen = false;
    this.record(batch, outcome);
    if (outcome.stopped !== undefined) return { done: await this.stopped(batch, outcome, unsent) };
    if (w.stop.length > 0) return { done: await this.conflictEnd(w.stop, w.stopAt) };
    if (w.last >= this.counters.slicesTotal) return { done: this.finish("applied") };
    if (nextError !== null) return { done: this.failed(nextError) };
    try {
      if (next === null) {
        next = await this.prepareAndJournal(windows, w.last);
      }
    } catch (error) {
      return { done: this.failed(error) };
    }
    return { next };
  }

  /** The window from slice `from`, its intents journalled when it is a batch (then it may be sent). */
  private async prepareAndJournal(windows: WindowDeps, from: number): Promise<Window> {
    const next = await prepareWindow(windows, from);
    if (next.kind === "batch") this.commitIntents(next.batch);
    return next;
  }

  /** Counts what each slice of the batch wrote and queues its result for the next commit. */
  private record(batch: readonly BuiltSlice[], outcome: CasBatchResult): void {
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
      this.counters = { ...this.counters, written: this.counters.written + res.written, slicesDone: b.intent.sliceNo + 1 };
      // The world's number for these writes (when it numbers them): the journal learns when they are saved.
      this.pending.push({
        operationId: this.operationId,
        sliceNo: b.intent.sliceNo,
        written,
        entityDigests,
        ...(res.saved === undefined ? {} : { saved: res.saved }),
      });
    }
  }

  /**
   * How a batch that stopped at one of its slices ends the operation (the slices after it never
   * ran). A slice stops at its first changed block: see `conflictEnd`.
   */
  private async stopped(batch: readonly BuiltSlice[], outcome: CasBatchResult, unsent: readonly BuiltSlice[]): Promise<OperationRecord> {
    const stopped = outcome.stopped!;
    const at = batch[stopped.slice]!;
    this.neverRan(unsent);
    if (stopped.reason === "mismatch") {
      this.neverRan(batch.slice(stopped.slice + 1));
      const found = outcome.results[stopped.slice]!.mismatches.map((m): ConflictSample => ({
        pos: { x: m.x, y: m.y, z: m.z },
        kind: m.kind === "check" ? "dependency" : "write",
        expected: m.expected,
        actual: m.actual,
        dataChanged: m.expected === m.actual,
        changedSincePrepare: true,
      }));
      return this.conflictEnd(found, at.intent.start);
    }
    if (stopped.reason === "refused") {
      // The world refused the slice before writing any of it: its intent resolves to nothing written.
      this.neverRan(batch.slice(stopped.slice));
      this.counters = { ...this.counters, slicesDone: at.intent.sliceNo + 1 };
      return this.finish("failed", { code: stopped.code, message: `the world refused slice ${at.intent.sliceNo} before writing: ${stopped.message}` });
    }
    // The host failed inside the slice: it may or may not hold it (its intent stays open for review).
    this.neverRan(batch.slice(stopped.slice + 1));
    return this.finish("recovery_required", { code: "recovery_required", message: `world call failed during a write: ${stopped.message}` });
  }

  private finish(status: OperationStatus, error: { code: string; message: string } | null = null): OperationRecord {
    this.op = { ...this.op, status, counters: this.counters, conflictSample: this.sample, updatedAt: this.deps.clock(), error };
    this.deps.fence(this.operationId);
    this.deps.journal.commit(this.op, this.pending, []);
    this.pending = [];
    return this.op;
  }

  private addConflict(c: ConflictSample): void {
    this.counters = { ...this.counters, conflicts: this.counters.conflicts + 1 };
    if (this.sample.length < this.deps.limits.conflictSampleSize) this.sample.push(c);
  }

  /** Slices whose intents were committed but that never ran: resolved as writing nothing. */
  private neverRan(slices: readonly BuiltSlice[]): void {
    for (const b of slices)
      this.pending.push({ operationId: this.operationId, sliceNo: b.intent.sliceNo, written: new Uint8Array(b.intent.intent.length), entityDigests: [] });
  }

  /** Journals a window's intents (with the results not yet journalled): then it may be sent. */
  private commitIntents(b: readonly BuiltSlice[]): void {
    this.counters = { ...this.counters, skipped: this.counters.skipped + b.reduce((t, x) => t + x.skipped, 0) };
    this.op = { ...this.op, status: "applying", counters: this.counters, updatedAt: this.deps.clock() };
    this.deps.fence(this.operationId);
    const last = this.deps.journal.commit(
      this.op,
      this.pending,
      b.map((x) => x.intent),
    );
    this.changed.ownCommit(last - this.pending.length + 1, last);
    this.pending = [];
  }

  /** How a window that is not a batch ends the operation. */
  private async ended(w: Exclude<Window, { kind: "batch" }>): Promise<OperationRecord> {
    if (w.kind === "stop") return this.finish(w.status, w.error);
    return this.conflictEnd(w.conflicts, w.stopAt);
  }

  /**
   * Ends the operation at conflicts found from plan position `from` on: those, and every other block
   * changed since preparation in the plan's next `RECHECK_AFTER_STOP` positions (read again), so
   * that the operation lists each change that stands in its way, not only the first.
   */
  private async conflictEnd(found: readonly ConflictSample[], from: number): Promise<OperationRecord> {
    found.forEach((c) => this.addConflict(c));
    const seen = new Set(found.map((c) => `${c.pos.x},${c.pos.y},${c.pos.z}`));
    const to = Math.min(writeCount(this.plan), from + RECHECK_AFTER_STOP);
    await otherConflicts(this.deps.adapter, this.plan, from, to, this.changed, seen, (c) => this.addConflict(c));
    return this.finish("conflict");
  }

  private failed(error: unknown): OperationRecord {
    if (isHostCrash(error)) throw error;
    // The world may or may not hold the slices sent: their intents stay open for recovery review.
    const message = error instanceof Error ? error.message : String(error);
    if (this.intentOpen) return this.finish("recovery_required", { code: "recovery_required", message: `world call failed during a write: ${message}` });
    return this.finish("failed", { code: "failed", message: `world call failed before writing: ${message}` });
  }
}

export function emptyCounters(plan: PreparedPlan, sliceSize: number): OperationCounters {
  const total = writeCount(plan);
  return { total, written: 0, skipped: 0, conflicts: 0, slicesDone: 0, slicesTotal: sliceBounds(total, plan.pairs, sliceSize).length - 1 };
}
