import type { CrashPoint } from "../Faults.js";
import type { Harness } from "../Harness.js";
import { unwrap } from "../Harness.js";
import {
  SLICE_SIZE,
  assertWorld,
  changedSincePrepare,
  expectEqual,
  expectError,
  nextKey,
  note,
  ours,
  remember,
  sync,
  type Model,
  type ModelOp,
  type ModelPlan,
  type ModelWrite,
} from "./Model.js";

export type Interrupt =
  | { readonly kind: "none" }
  | { readonly kind: "cancel"; readonly atSlice: number }
  | { readonly kind: "crash"; readonly point: CrashPoint; readonly skip: number };

interface Prediction {
  readonly status: string;
  readonly written: number;
  readonly conflicts: number;
  readonly crashed: boolean;
}

function slicesOf(ws: readonly ModelWrite[]): ModelWrite[][] {
  const out: ModelWrite[][] = [];
  for (let i = 0; i < ws.length; i += SLICE_SIZE) out.push(ws.slice(i, i + SLICE_SIZE));
  return out;
}

/**
 * What applying `plan` does, in model terms: a whole-plan precheck (any block at neither base nor
 * desired, or back at its base after holding something else since preparation: conflict, nothing
 * written), then slices of two; a position at base is written and owned,
 * one already at desired is skipped. Interrupts stop after a given slice or crash at a given call.
 */
function predict(m: Model, plan: ModelPlan, op: ModelOp, interrupt: Interrupt): Prediction {
  sync(m);
  const slices = slicesOf(plan.writeSet);
  // Reads: the precheck and each slice read the targets, then the dependencies (if any).
  const d = plan.deps.length > 0 ? 1 : 0;
  const preReads = (slices.length > 0 ? 1 : 0) + d;
  const perSlice = 1 + d;
  const crash = interrupt.kind === "crash" ? interrupt : null;
  const depConflicts = plan.deps.filter((x) => m.world.get(x.key) !== x.state).length;
  const atBase = plan.writeSet.filter((w) => m.world.get(w.key) === w.before);
  const stale = atBase.filter((w) => changedSincePrepare(m, plan, w)).length;
  const conflicts = plan.writeSet.filter((w) => m.world.get(w.key) !== w.before && m.world.get(w.key) !== w.after).length + stale + depConflicts;
  if (depConflicts > 0) note(m, "dependency changed: conflict");
  if (stale > 0) note(m, "base changed since prepare: conflict");
  if (crash?.point === "read" && crash.skip < preReads) return { status: "cancelled", written: 0, conflicts: 0, crashed: true };
  if (conflicts > 0) return { status: "conflict", written: 0, conflicts, crashed: false };

  let written = 0;
  const write = (w: ModelWrite, confirmed: boolean): void => {
    m.world.set(w.key, w.after);
    if (confirmed) {
      m.owner.set(w.key, op.id);
      op.written.set(w.key, { before: w.before, after: w.after });
      remember(m, w.key, w.after);
      ours(m, w.key, w.after);
    } else m.hand.delete(w.key); // ours, most likely, though never confirmed
    written++;
  };
  const toWrite = slices.map((s) => s.filter((w) => m.world.get(w.key) === w.before));
  // The slice at which the crash fires (decided first: the slices before it are written once).
  const fireAt = crash === null ? -1 : crash.point === "read" ? (crash.skip >= preReads ? Math.floor((crash.skip - preReads) / perSlice) : -1) : crash.skip;
  if (crash !== null && fireAt >= 0 && fireAt < slices.length) {
    const k = fireAt;
    // Slices before k-1 are confirmed; for a read crash, k-1's result was to be committed with k's intent.
    const readCrash = crash.point === "read";
    const lastIntent = readCrash ? k - 1 : k;
    for (let j = 0; j < k; j++) for (const w of toWrite[j]!) write(w, readCrash ? j < k - 1 : true);
    if (crash.point === "mid_slice") toWrite[k]!.slice(0, Math.floor(toWrite[k]!.length / 2)).forEach((w) => write(w, false));
    if (crash.point === "after_write") toWrite[k]!.forEach((w) => write(w, false));
    if (lastIntent < 0) return { status: "cancelled", written, conflicts: 0, crashed: true };
    op.mask = toWrite.slice(0, lastIntent + 1).flat();
    op.unfinished = toWrite[lastIntent]!;
    return { status: "recovery_required", written, conflicts: 0, crashed: true };
  }
  for (let k = 0; k < slices.length; k++) {
    for (const w of toWrite[k]!) write(w, true);
    if (interrupt.kind === "cancel" && interrupt.atSlice === k && k + 1 < slices.length) return { status: "cancelled", written, conflicts: 0, crashed: false };
  }
  return { status: "applied", written, conflicts: 0, crashed: false };
}

/**
 * Runs the real apply (with the interrupt wired into the memory world) and checks it against the
 * model. `duplicates` more calls apply the same plan at the same moment under other keys: exactly
 * one operation may come of them, the others are refused as plan_already_applied.
 */
export async function applyAndCheck(
  m: Model,
  h: Harness,
  planIndex: number,
  interrupt: Interrupt,
  duplicates = 0,
  naming: Naming = {},
): Promise<ModelOp | null> {
  const plan = m.plans[m.plans.length - 1 - (planIndex % m.plans.length)]!; // 0: the newest
  const keys = Array.from({ length: 1 + duplicates }, () => nextKey(m));
  const results = await Promise.all(
    keys.map((key) => h.engine.buildApply(h.agent, { plan_id: plan.planId, plan_hash: plan.planHash, idempotency_key: key, ...naming })),
  );
  const empty = plan.writeSet.length === 0;
  if (plan.used) note(m, "apply of a used plan refused");
  else if (empty) note(m, "apply of an empty plan refused");
  else if (m.pending !== null) note(m, "apply refused during recovery");
  if (plan.used || empty || m.pending !== null) {
    const [what, code] = plan.used
      ? ["apply of a used plan", "invalid_request"]
      : empty
        ? ["apply of an empty plan", "invalid_request"]
        : ["apply during recovery", "recovery_required"];
    for (const r of results) expectError(what, r, code);
    return null;
  }
  const accepted = results.filter((r) => r.ok);
  expectEqual("operations created by concurrent applies of one plan", accepted.length, 1);
  for (const r of results)
    if (!r.ok)
      expectEqual(
        "refusal of a concurrent duplicate",
        [r.error.code, (r.error.details as { reason?: string } | undefined)?.reason],
        ["invalid_request", "plan_already_applied"],
      );
  if (duplicates > 0) note(m, "concurrent duplicate applies refused");
  const started = unwrap(accepted[0]!);
  plan.used = true;
  const op: ModelOp = { id: started.operation_id, status: "queued", written: new Map(), undoable: true, undoneBy: null, mask: [], unfinished: [] };
  m.ops.push(op);

  // The invariant: a block a person changed after our write (an edit the engine observed, or one
  // its content shows: the world differs from our newest write there) is never written by a plan
  // that did not name it in replace. (A silent edit where we never built cannot be told apart.)
  sync(m);
  const hand = [...m.hand].filter(([k, v]) => !plan.replaced.has(k) && m.world.get(k) === v && (m.touched.has(k) || (m.g0.has(k) && m.g0.get(k) !== v)));
  if (hand.length > 0) note(m, "apply next to people's edits");
  const casBase = h.crashing.compareAndSetCalls;
  if (interrupt.kind === "cancel") {
    h.faults.beforeCompareAndSet = (call) => {
      if (call - casBase === interrupt.atSlice) void h.engine.operationCancel(h.agent, { operation_id: op.id });
    };
  }
  if (interrupt.kind === "crash") h.faults.crashAt(interrupt.point, interrupt.skip);
  await h.engine.settle();
  h.faults.beforeCompareAndSet = null;
  h.faults.disarm();

  const p = predict(m, plan, op, interrupt);
  note(m, `apply ${interrupt.kind} → ${p.status}${p.written > 0 ? " (wrote)" : ""}`);
  expectEqual("engine crashed", h.engine.stopped, p.crashed);
  if (p.crashed) {
    await h.restart();
    m.unsynced.length = 0; // events held in process memory are gone
  }
  for (const [k, state] of hand) {
    const [x, y, z] = k.split(",").map(Number) as [number, number, number];
    if (h.world.stateAt(x, y, z) !== state)
      throw new Error(`invariant: a person's block at ${k} (${state}) was written over by a plan that did not name it in replace`);
  }
  op.status = p.status;
  if (p.status === "recovery_required") m.pending = op;
  const st = unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.id }));
  expectEqual("operation status", st.status, p.status);
  if (!p.crashed) {
    expectEqual("written", st.counters.written, p.written);
    expectEqual("conflicts", st.counters.conflicts, p.conflicts);
  }
  assertWorld(m, h);
  return op;
}

/** build_apply's part naming: a name, and the parts it may take blocks from. */
export interface Naming {
  readonly part_name?: string;
  readonly take_over?: readonly string[];
}
