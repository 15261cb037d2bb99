import type { SavedState, SliceResult, UnsavedSlice } from "./Journal.js";
import type { SqlDb } from "./SqlDb.js";
import { firstColumn } from "./SqlDb.js";

/** settled: 0 not known saved, 1 saved (a mark covered it, or a restart check found it), 2 checked with losses. */
const OPEN = 0,
  SAVED = 1,
  LOST = 2;

/**
 * Saved writes (docs/DESIGN.md "Saved writes"): which confirmed slices are in the world's files,
 * the world's saved marks, the writes a restart check found lost. Every method runs inside the
 * caller's transaction or makes its own.
 */
export class SavedWriteStore {
  constructor(private readonly db: SqlDb) {}

  /**
   * Inside `commit`'s transaction: each result's number (its journal sequence number `ords[k]`),
   * settled at once when its session's mark covers it. Each session's mark is noted once, at the
   * highest the results carry.
   */
  recordAll(results: readonly SliceResult[], ords: readonly number[]): void {
    const marks = new Map<string, number>();
    for (const r of results)
      if (r.saved !== undefined && r.saved.writeSeq > 0) marks.set(r.saved.session, Math.max(marks.get(r.saved.session) ?? 0, r.saved.savedThrough));
    for (const [session, through] of marks) this.note(session, through);
    const rows = results.flatMap((r, k) =>
      r.saved !== undefined && r.saved.writeSeq > 0 ? [[r.operationId, r.sliceNo, r.saved.session, r.saved.writeSeq, ords[k]!]] : [],
    );
    if (rows.length === 0) return;
    // One statement for the window; each row settled at once when its session's mark already covers
    // it, decided in the statement (a write only: a shared store sends it with the rest of the
    // commit, no round trip of its own). Typed values: PostgreSQL types a VALUES list as text otherwise.
    const row = "(CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT))";
    this.db.write(
      `INSERT INTO slice_saves SELECT v.column1, v.column2, v.column3, v.column4, CASE WHEN v.column4 <= coalesce((SELECT m.saved_through FROM saved_marks m WHERE m.session = v.column3), 0) THEN ${SAVED} ELSE ${OPEN} END, v.column5 FROM (VALUES ${rows.map(() => row).join(", ")}) AS v`,
      rows.flat(),
    );
  }

  /** A mark only moves forward; the slices it covers are settled as saved. */
  private note(session: string, savedThrough: number): void {
    this.db.write(
      "INSERT INTO saved_marks VALUES (?, ?) ON CONFLICT (session) DO UPDATE SET saved_through = CASE WHEN saved_marks.saved_through > excluded.saved_through THEN saved_marks.saved_through ELSE excluded.saved_through END",
      [session, savedThrough],
    );
    this.db.write(`UPDATE slice_saves SET settled = ${SAVED} WHERE settled = ${OPEN} AND session = ? AND write_seq <= ?`, [session, savedThrough]);
  }

  noteSaved(session: string, savedThrough: number): void {
    this.db.transaction(() => this.note(session, savedThrough));
  }

  unsavedSlices(): UnsavedSlice[] {
    return this.db.all(`SELECT op_id, slice_no, session, write_seq FROM slice_saves WHERE settled = ${OPEN} ORDER BY ord`).map((r) => ({
      operationId: r["op_id"] as string,
      sliceNo: r["slice_no"] as number,
      session: r["session"] as string,
      writeSeq: r["write_seq"] as number,
    }));
  }

  settleUnsaved(slices: readonly UnsavedSlice[], lost: ReadonlyMap<string, readonly number[]>): void {
    this.db.transaction(() => {
      for (const [op, indices] of lost) {
        if (indices.length === 0) continue;
        const merged = [...new Set([...this.lostWrites(op), ...indices])].sort((a, b) => a - b);
        this.db.write("INSERT INTO lost_writes VALUES (?, ?) ON CONFLICT (op_id) DO UPDATE SET indices = excluded.indices", [op, JSON.stringify(merged)]);
      }
      for (const sl of slices)
        this.db.write("UPDATE slice_saves SET settled = ? WHERE op_id = ? AND slice_no = ?", [
          (lost.get(sl.operationId)?.length ?? 0) > 0 ? LOST : SAVED,
          sl.operationId,
          sl.sliceNo,
        ]);
    });
  }

  savedState(operationId: string): SavedState {
    const row = this.db.get(
      `SELECT count(*) AS total, sum(CASE WHEN settled = ${OPEN} THEN 1 ELSE 0 END) AS open, sum(CASE WHEN settled = ${LOST} THEN 1 ELSE 0 END) AS lost FROM slice_saves WHERE op_id = ?`,
      [operationId],
    )!;
    if (Number(row["total"]) === 0) return null;
    if (Number(row["lost"] ?? 0) > 0) return "lost";
    return Number(row["open"] ?? 0) > 0 ? "unsaved" : "saved";
  }

  lostWrites(operationId: string): number[] {
    const body = firstColumn(this.db.get("SELECT indices FROM lost_writes WHERE op_id = ?", [operationId])) as string | undefined;
    return body === undefined ? [] : (JSON.parse(body) as number[]);
  }
}
