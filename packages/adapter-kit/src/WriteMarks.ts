import { randomUUID } from "node:crypto";
import type { SavedMarks } from "@mcb/engine";

/**
 * A world's saved-writes marks (docs/DESIGN.md "Saved writes"): a host session, each write
 * numbered in it from 1, and the newest number known to be on disk. A restarted host starts a new
 * session (its numbers mean nothing to the one before).
 */
export class WriteMarks {
  private session = randomUUID();
  private seq = 0;
  private savedThrough = 0;

  /** Numbers a write that changed something; 0 (nothing to save) when it changed nothing. */
  next(written: number): number {
    return written > 0 ? ++this.seq : 0;
  }

  /** Every write numbered so far is on disk. */
  savedAll(): void {
    this.savedThrough = this.seq;
  }

  /** The marks to answer with: `writeSeq` the given write's number (default the newest). */
  marks(writeSeq = this.seq): SavedMarks {
    return { session: this.session, writeSeq, savedThrough: this.savedThrough };
  }

  /** The host came back: a new session, numbering from 1 again. */
  restart(): void {
    this.session = randomUUID();
    this.seq = 0;
    this.savedThrough = 0;
  }
}
