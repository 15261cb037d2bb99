import { boundsOf, type Box3 } from "@mcb/blocks";
import type { ChangedSincePrepare } from "../merge/ChangedSincePrepare.js";
import type { OperationJournal, TouchJournal } from "../store/Journal.js";
import type { PositionsRead } from "../world/WorldReader.js";

/**
 * The precheck's read of a whole plan, reused by a batched apply for a window of slices when the
 * journal shows nothing could have changed those positions since: no gap in the world's event log,
 * no observed external edit and no slice of another operation inside the window's bounds after the
 * read. Otherwise the window is read again, as it always is one slice at a time. Either way the
 * world's compare-and-set checks every write against its base: a stale read can stop a build with
 * a conflict, never overwrite anything. When the operation's `ChangedSincePrepare`, refreshed
 * just before, found nothing but the operation's own commits since the read, the journal is not
 * asked at all.
 */
export class PrecheckRead {
  constructor(
    private readonly journal: OperationJournal & TouchJournal,
    private readonly operationId: string,
    /** The journal's head before the read: records after it may postdate what the read saw. */
    private readonly seq: number,
    private readonly read: PositionsRead,
    /** The operation's view of the journal since preparation, refreshed before each `window` call. */
    private readonly changed: ChangedSincePrepare,
  ) {}

  /** The states of plan positions `from..to` as read, or null when they must be read again. */
  window(pos: Int32Array, from: number, to: number): PositionsRead | null {
    const box = boundsOf(pos, from, to);
    if (box === null) return { states: [], digests: [] };
    if (!this.changed.quietSince(this.seq) && this.changedSinceRead(box)) return null;
    return { states: this.read.states.slice(from, to), digests: this.read.digests.slice(from, to) };
  }

  /** Whether the journal holds, after the read, a gap, an observed edit in `box` or another operation's slice there. */
  private changedSinceRead(box: Box3): boolean {
    if (this.journal.lastGapSeq() > this.seq) return true;
    if (this.journal.headSeq() <= this.seq) return false;
    return (
      this.journal.touchesAfter(this.seq, box).states.length > 0 || this.journal.slicesAfter(this.seq, box).some((s) => s.operationId !== this.operationId)
    );
  }
}
