import type Database from "better-sqlite3";
import type { SavedState, SliceResult, UnsavedSlice } from "./Journal.js";

/** Tables of schema 4: which confirmed slices are saved in the world's files, the marks, lost writes. */
export const SAVED_WRITES_TABLES = `
CREATE TABLE IF NOT EXISTS slice_saves (
  op_id TEXT NOT NULL, slice_no INTEGER NOT NULL, session TEXT NOT NULL, write_seq INTEGER NOT NULL,
  settled INTEGER NOT NULL, ord INTEGER NOT NULL, PRIMARY KEY (op_id, slice_no)) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS slice_saves_open ON slice_saves (session, write_seq) WHERE settled = 0;
CREATE TABLE IF NOT EXISTS saved_marks (session TEXT PRIMARY KEY, saved_through INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS lost_writes (op_id TEXT PRIMARY KEY, indices TEXT NOT NULL) STRICT;
`;

/** settled: 0 not known saved, 1 saved (a mark covered it, or a restart check found it), 2 checked with losses. */
const OPEN = 0, SAVED = 1, LOST = 2;

/**
 * The saved-writes part of `SqliteJournal` (docs/DESIGN.md "Saved writes"): its own statements on
 * the journal's database; every method runs inside the caller's transaction or makes its own.
 */
export class SqliteSavedWrites {
  private readonly s;

  constructor(private readonly db: Database.Database) {
    this.s = {
      mark: db.prepare("SELECT saved_through FROM saved_marks WHERE session = ?").pluck(),
      setMark: db.prepare("INSERT INTO saved_marks VALUES (?, ?) ON CONFLICT (session) DO UPDATE SET saved_through = max(saved_through, excluded.saved_through)"),
      settleCovered: db.prepare(`UPDATE slice_saves SET settled = ${SAVED} WHERE settled = ${OPEN} AND session = ? AND write_seq <= ?`),
      insert: db.prepare("INSERT INTO slice_saves VALUES (?, ?, ?, ?, ?, ?)"),
      open: db.prepare(`SELECT op_id, slice_no, session, write_seq FROM slice_saves WHERE settled = ${OPEN} ORDER BY ord`).raw(),
      settle: db.prepare(`UPDATE slice_saves SET settled = ? WHERE op_id = ? AND slice_no = ?`),
      state: db.prepare(`SELECT count(*), sum(settled = ${OPEN}), sum(settled = ${LOST}) FROM slice_saves WHERE op_id = ?`).raw(),
      lost: db.prepare("SELECT indices FROM lost_writes WHERE op_id = ?").pluck(),
      setLost: db.prepare("INSERT INTO lost_writes VALUES (?, ?) ON CONFLICT (op_id) DO UPDATE SET indices = excluded.indices"),
    };
  }

  /** Inside `commit`'s transaction: the slice's number, settled at once when its session's mark covers it. */
  record(result: SliceResult, ord: number): void {
    const saved = result.saved;
    if (saved === undefined || saved.writeSeq <= 0) return;
    this.note(saved.session, saved.savedThrough);
    const mark = (this.s.mark.get(saved.session) as number | undefined) ?? 0;
    this.s.insert.run(result.operationId, result.sliceNo, saved.session, saved.writeSeq, saved.writeSeq <= mark ? SAVED : OPEN, ord);
  }

  note(session: string, savedThrough: number): void {
    this.s.setMark.run(session, savedThrough);
    this.s.settleCovered.run(session, savedThrough);
  }

  noteSaved(session: string, savedThrough: number): void {
    this.db.transaction(() => this.note(session, savedThrough)).immediate();
  }

  unsavedSlices(): UnsavedSlice[] {
    return (this.s.open.all() as [string, number, string, number][]).map(([operationId, sliceNo, session, writeSeq]) => ({ operationId, sliceNo, session, writeSeq }));
  }

  settleUnsaved(slices: readonly UnsavedSlice[], lost: ReadonlyMap<string, readonly number[]>): void {
    this.db.transaction(() => {
      for (const [op, indices] of lost) {
        if (indices.length === 0) continue;
        const merged = [...new Set([...this.lostWrites(op), ...indices])].sort((a, b) => a - b);
        this.s.setLost.run(op, JSON.stringify(merged));
      }
      for (const sl of slices) this.s.settle.run((lost.get(sl.operationId)?.length ?? 0) > 0 ? LOST : SAVED, sl.operationId, sl.sliceNo);
    }).immediate();
  }

  savedState(operationId: string): SavedState {
    const [total, open, lost] = this.s.state.get(operationId) as [number, number | null, number | null];
    if (total === 0) return null;
    if ((lost ?? 0) > 0) return "lost";
    return (open ?? 0) > 0 ? "unsaved" : "saved";
  }

  lostWrites(operationId: string): number[] {
    const body = this.s.lost.get(operationId) as string | undefined;
    return body === undefined ? [] : (JSON.parse(body) as number[]);
  }
}
