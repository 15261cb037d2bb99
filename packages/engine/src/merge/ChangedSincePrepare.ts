import { TOUCH_KIND_CODES, type OperationJournal, type TouchJournal } from "../store/Journal.js";
import { forEachWritten, operationPlans } from "./Ownership.js";
import { writeIndexOf, type PreparedPlan } from "../core/PreparedPlan.js";
import { boundsOf, posKey } from "@mcb/blocks";

/**
 * Which write-set positions of a plan held something other than their base after the plan was
 * prepared, as far as the journal knows: a confirmed write of another state by any other
 * operation, an observed external change (a person's edit, whatever state it left), or an
 * uncertain one. Such a
 * position may be back at its base now (a player broke the block an earlier build placed, a
 * duplicate plan, a second undo of the same operation): writing the plan's desired state there
 * would overwrite that edit, so the applier treats it as a conflict (docs/DESIGN.md "Write rule", ABA).
 *
 * Records from during the preparation itself are included too (a slice confirmed while the base
 * was being read): comparing with the base keeps our own harmless — a change the base already
 * shows has the base's state. A person's edit pulled by a concurrent request during preparation
 * counts, at worst a needless conflict: nothing is written over.
 */
export class ChangedSincePrepare {
  private readonly marked: Uint8Array;
  private readonly bounds;
  private seen: number;
  /** The head at the last refresh that found records it had not accounted for (0: none yet). */
  private foreignThrough = 0;
  private readonly planOf: (operationId: string) => PreparedPlan;
  /** Position → write-set index, built on first use for plans whose multi-block pairs break the sort. */
  private index: Map<string, number> | null = null;
  count = 0;

  constructor(
    private readonly journal: OperationJournal & TouchJournal,
    plans: (planId: string) => PreparedPlan,
    private readonly plan: PreparedPlan,
    private readonly operationId: string,
  ) {
    this.marked = new Uint8Array(plan.pos.length / 3);
    this.bounds = boundsOf(plan.pos);
    this.seen = plan.preparedSeq;
    this.planOf = operationPlans(journal, plans);
  }

  /** Takes in journal records newer than the last call. Cheap when nothing happened. */
  refresh(): void {
    const head = this.journal.headSeq();
    if (head <= this.seen) return;
    const from = this.seen;
    this.seen = head;
    this.foreignThrough = head;
    if (this.bounds === null) return;
    for (const s of this.journal.slicesAfter(from, this.bounds)) {
      if (s.operationId === this.operationId) continue;
      const other = this.planOf(s.operationId);
      forEachWritten(other, s, (w) => this.note(w.x, w.y, w.z, other.states[other.after[w.index]!]!));
    }
    const t = this.journal.touchesAfter(from, this.bounds);
    // A person's edit after preparation makes the block theirs, even when it put back the base
    // (the merge's rule), and so does an administrator's acceptance of a foreign block: only an
    // accepted baseline that equals the base is harmless.
    for (let k = 0; k < t.states.length; k++)
      this.note(t.quads[k * 4 + 1]!, t.quads[k * 4 + 2]!, t.quads[k * 4 + 3]!, t.kinds[k] === TOUCH_KIND_CODES.baseline ? t.states[k]! : null);
  }

  /**
   * This operation's own commit took the journal's sequence numbers `first..last` (one commit's
   * numbers are consecutive: it holds the writer lock). When nothing was recorded between the last
   * refresh and it, those records are this operation's own slices, which `refresh` skips anyway:
   * the next refresh starts after them instead of reading them back (a round trip each, on a
   * shared store).
   */
  ownCommit(first: number, last: number): void {
    if (first === this.seen + 1 && last >= first) this.seen = last;
  }

  /**
   * True when, as of the last refresh, the journal holds nothing after `seq` but this operation's
   * own commits: no person's edit, no other operation's slice, no gap in the world's event log
   * (each of them takes a sequence number, which the refresh would have found).
   */
  quietSince(seq: number): boolean {
    return this.foreignThrough <= seq;
  }

  /** True when write-set position `i` held another state since preparation. */
  has(i: number): boolean {
    return this.marked[i] === 1;
  }

  private indexOf(x: number, y: number, z: number): number {
    if (this.plan.pairs.length === 0) return writeIndexOf(this.plan, x, y, z);
    if (this.index === null) {
      this.index = new Map();
      const p = this.plan.pos;
      for (let i = 0; i < p.length / 3; i++) this.index.set(posKey(p[i * 3]!, p[i * 3 + 1]!, p[i * 3 + 2]!), i);
    }
    return this.index.get(posKey(x, y, z)) ?? -1;
  }

  private note(x: number, y: number, z: number, state: string | null): void {
    const i = this.indexOf(x, y, z);
    if (i < 0 || this.marked[i] === 1) return;
    if (state !== null && state === this.plan.states[this.plan.before[i]!]) return;
    this.marked[i] = 1;
    this.count++;
  }
}
