import { type Box3, fail, inBox, mcbError, ok, type Result, type Vec3 } from "@mcb/blocks";
import type { OperationJournal, TouchJournal } from "../store/Journal.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import { getBit } from "../core/BitMask.js";
import { PriorStates } from "../merge/PriorStates.js";

export interface BlockChange {
  readonly seq: number;
  readonly pos: Vec3;
  /** The state before: an operation's base there; for an edit, the state the journal last knew there (a write, a plan's base, an edit; null: the journal never knew that position, never a spelling of air). */
  readonly before: string | null;
  /** The state the change left. */
  readonly after: string;
  /** `operation`: confirmed by one of our operations; `external`: observed from the world (a person's edit). */
  readonly source: "operation" | "external";
  readonly operation_id?: string;
  /** The front end whose operation it was, when recorded (`OperationRecord.initiator.client`). */
  readonly client?: string;
}

/** region_changes' `source`: our writes, people's edits, or both. */
export const CHANGE_SOURCES = ["ours", "person", "all"] as const;
export type ChangeSource = (typeof CHANGE_SOURCES)[number];

export interface ChangePage {
  readonly changes: BlockChange[];
  readonly next_cursor: string;
  /** False when `limit` cut the page short: call again with `next_cursor`. */
  readonly complete: boolean;
  /** Said when no cursor was given: no changes are listed, only the cursor to ask with later. */
  readonly note?: string;
}

/** ch2.<journal id>.<seq>.<sub>: everything before record `seq`, and its entries before `sub`, was seen. */
const CURSOR = /^ch2\.([0-9a-f]{16})\.(\d{1,15})\.(\d{1,15})$/;
/** Cursors of the in-memory feed before this one. */
const OLD_CURSOR = /^ch1\.[0-9a-f]{16}\.\d{1,15}$/;

/**
 * Block changes for region_changes, read from the journal itself: our confirmed writes (slices)
 * and observed external edits (touches), in journal sequence order. Cursors are durable: they stay
 * valid across restarts of the process while the journal lives. A cursor is stale
 * (resync_required) when it comes from another journal, or from before a gap in the world's event
 * log (edits may have been missed then).
 */
export class ChangeFeed {
  constructor(
    private readonly journal: OperationJournal & TouchJournal,
    private readonly operationPlan: (operationId: string) => PreparedPlan,
  ) {}

  /** A cursor at the journal's head: the next change recorded comes after it. */
  cursor(): string {
    return `ch2.${this.journal.journalId()}.${this.journal.headSeq() + 1}.0`;
  }

  /** Changes in `box` after `cursor`, at most `limit`, of `source` only (the cursor moves past the others too). */
  page(cursor: string, box: Box3, limit: number, source: ChangeSource = "all"): Result<ChangePage> {
    const resync = (why: string): Result<never> =>
      fail(
        mcbError("resync_required", `change cursor is stale (${why}); take a fresh region_inspect summary and a new cursor`, {
          reason: why,
          cursor: this.cursor(),
        }),
      );
    if (OLD_CURSOR.test(cursor)) return resync("issued by an earlier version");
    const m = CURSOR.exec(cursor);
    if (m === null) return fail(mcbError("invalid_request", "malformed change cursor", { reason: "cursor" }));
    const from = Number(m[2]);
    const sub = Number(m[3]);
    if (m[1] !== this.journal.journalId()) return resync("issued by another journal");
    const head = this.journal.headSeq();
    if (from > head + 1) return fail(mcbError("invalid_request", "change cursor is from the future", { reason: "cursor" }));
    if (from <= this.journal.lastGapSeq()) return resync("world event log lost continuity");

    const changes: BlockChange[] = [];
    const prior = new PriorStates(this.journal, this.operationPlan);
    let next: [number, number] = [head + 1, 0];
    const slices = this.journal.slicesAfter(from - 1, box);
    const t = this.journal.touchesAfter(from - 1, box);
    let k = 0;
    /** Adds one entry; false (and `next` set to it) when the page is full. */
    const add = (seq: number, subIndex: number, change: BlockChange): boolean => {
      if (seq === from && subIndex < sub) return true;
      if ((source === "ours" && change.source !== "operation") || (source === "person" && change.source !== "external")) return true;
      if (changes.length >= limit) {
        next = [seq, subIndex];
        return false;
      }
      changes.push(change);
      return true;
    };
    const touchesBefore = (seq: number): boolean => {
      for (; k < t.kinds.length && t.quads[k * 4]! < seq; k++) {
        const state = t.states[k]!;
        if (t.kinds[k] !== 0 || state === null) continue; // administrators' records and uncertain marks are not changes
        const s = t.quads[k * 4]!;
        const x = t.quads[k * 4 + 1]!,
          y = t.quads[k * 4 + 2]!,
          z = t.quads[k * 4 + 3]!;
        const before = source === "ours" ? null : prior.before(x, y, z, s, t.rows[k]!);
        if (!add(s, t.rows[k]!, { seq: s, pos: { x, y, z }, before, after: state, source: "external" })) return false;
      }
      return true;
    };
    const clients = new Map<string, string | undefined>();
    outer: for (const s of slices) {
      if (!touchesBefore(s.seq)) break;
      if (s.written === null) continue;
      const plan = this.operationPlan(s.operationId);
      if (!clients.has(s.operationId)) clients.set(s.operationId, this.journal.getOperation(s.operationId)?.initiator.client);
      const client = clients.get(s.operationId);
      for (let off = 0; off < s.end - s.start; off++) {
        if (!getBit(s.written, off)) continue;
        const i = s.start + off;
        const x = plan.pos[i * 3]!,
          y = plan.pos[i * 3 + 1]!,
          z = plan.pos[i * 3 + 2]!;
        if (!inBox(box, x, y, z)) continue;
        if (
          !add(s.seq, off, {
            seq: s.seq,
            pos: { x, y, z },
            before: plan.states[plan.before[i]!]!,
            after: plan.states[plan.after[i]!]!,
            source: "operation",
            operation_id: s.operationId,
            ...(client === undefined ? {} : { client }),
          })
        )
          break outer;
      }
    }
    if (changes.length < limit || next[0] === head + 1) touchesBefore(Infinity);
    const complete = next[0] === head + 1;
    return ok({ changes, next_cursor: `ch2.${this.journal.journalId()}.${next[0]}.${next[1]}`, complete });
  }
}
