import type { ConflictSample } from "../store/Journal.js";
import type { ChangedSincePrepare } from "../merge/ChangedSincePrepare.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import type { OperationStatus } from "../core/OperationStatus.js";
import { isHostCrash, isSliceRefused, type CasBatchResult, type CasCheck, type WorldAdapter } from "../world/WorldAdapter.js";
import { readPositions, type PositionsRead } from "../world/WorldReader.js";
import type { PrecheckRead } from "./PrecheckRead.js";
import { buildSlice, classify, targetConflict, type BuiltSlice } from "./SliceBuilder.js";

// The applier's windows: what a window of slices needs, how one is prepared (checks, reads,
// classification), sent, and the whole-plan precheck before the first.

export interface WindowDeps {
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

/**
 * A prepared window: slices to send (and the conflicts of the slice after them, if one stops the
 * operation), or how it ends; `stopAt`: the plan position where the stopping slice begins.
 */
export type Window =
  | { readonly kind: "batch"; readonly batch: readonly BuiltSlice[]; readonly stop: readonly ConflictSample[]; readonly last: number; readonly stopAt: number }
  | { readonly kind: "conflict"; readonly conflicts: readonly ConflictSample[]; readonly stopAt: number }
  | { readonly kind: "stop"; readonly status: OperationStatus; readonly error: { code: string; message: string } | null };

/**
 * The checks, reads and classification of the window of slices from `s`. Touches nothing the
 * applier commits: conflicts are returned, not counted, so a window prepared while a batch runs
 * changes nothing until that batch is recorded.
 */
export async function prepareWindow(d: WindowDeps, s: number): Promise<Window> {
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
  let stopAt = bounds[s]!;
  for (let k = s; k < (depConflicts.length > 0 ? s + 1 : last); k++) {
    const built = buildSlice(plan, d.operationId, k, bounds[k]!, bounds[k + 1]!, cur, bounds[s]!, d.checks, d.changed, d.pairStart);
    if (!built.ok) {
      stop = built.conflicts; // the slices before it are written first, as one at a time would
      stopAt = bounds[k]!;
      break;
    }
    batch.push(built.slice);
  }
  if (batch.length === 0 || depConflicts.length > 0) return { kind: "conflict", conflicts: [...depConflicts, ...stop], stopAt };
  return { kind: "batch", batch, stop, last: s + batch.length, stopAt };
}

/**
 * Sends a batch: one `compareAndSetBatch` call, or one `compareAndSet` (a world without batches
 * gets batches of one), whose `SliceRefused` becomes a `refused` stop.
 */
export async function send(adapter: WorldAdapter, batch: readonly BuiltSlice[]): Promise<CasBatchResult> {
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
export async function precheck(
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

/**
 * After a slice stopped at a changed block: reads plan positions `from..to` (the rest of the
 * stopped batch, none of it written past the stop) and reports every other target changed since
 * preparation (`seen`: positions already reported). A read that fails reports nothing more: the
 * stop itself stands.
 */
export async function otherConflicts(
  adapter: WorldAdapter,
  plan: PreparedPlan,
  from: number,
  to: number,
  changed: ChangedSincePrepare,
  seen: ReadonlySet<string>,
  addConflict: (c: ConflictSample) => void,
): Promise<void> {
  let cur: PositionsRead;
  try {
    changed.refresh();
    cur = await readPositions(adapter, plan.pos, from, to);
  } catch (error) {
    if (isHostCrash(error)) throw error;
    return;
  }
  for (let i = from; i < to; i++) {
    const p = plan.pos;
    if (seen.has(`${p[i * 3]},${p[i * 3 + 1]},${p[i * 3 + 2]}`)) continue;
    const verdict = classify(plan, i, cur.states[i - from]!, cur.digests[i - from]!, changed);
    if (verdict === "conflict" || verdict === "changed") addConflict(targetConflict(plan, i, cur.states[i - from]!, verdict === "changed"));
  }
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
      addConflict({
        pos: { x: c.x, y: c.y, z: c.z },
        kind: "dependency",
        expected: c.state,
        actual: now.states[d]!,
        dataChanged: now.states[d] === c.state,
        changedSincePrepare: true,
      });
  });
}
