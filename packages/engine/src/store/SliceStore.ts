import type { Box3 } from "@mcb/blocks";
import type { SliceRecord, SliceResult } from "./Journal.js";
import type { SqlDb, SqlRow } from "./SqlDb.js";
import { int32 } from "./SqlDb.js";

function toSlice(r: SqlRow): SliceRecord {
  const digests = r["digests"] as string | null;
  const written = r["written"] as Buffer | null;
  return {
    operationId: r["op_id"] as string,
    sliceNo: r["slice_no"] as number,
    start: r["start"] as number,
    end: r["end"] as number,
    intent: new Uint8Array(r["intent"] as Buffer),
    written: written === null ? null : new Uint8Array(written),
    seq: r["seq"] as number,
    bounds: {
      minX: r["min_x"] as number,
      minY: r["min_y"] as number,
      minZ: r["min_z"] as number,
      maxX: r["max_x"] as number,
      maxY: r["max_y"] as number,
      maxZ: r["max_z"] as number,
    },
    entityDigests: digests === null ? [] : (JSON.parse(digests) as [number, string][]),
  };
}

/** Slices: an intent (the positions it will write) stored before writing, its result once confirmed. */
export class SliceStore {
  constructor(private readonly db: SqlDb) {}

  /** Stores intents in one statement (one parse and plan for a window of them, on either store). */
  addIntents(list: readonly SliceRecord[]): void {
    if (list.length === 0) return;
    const params = list.flatMap((s) => [
      s.operationId,
      s.sliceNo,
      s.start,
      s.end,
      s.intent,
      s.bounds.minX,
      s.bounds.minY,
      s.bounds.minZ,
      s.bounds.maxX,
      s.bounds.maxY,
      s.bounds.maxZ,
    ]);
    this.db.write(`INSERT INTO slices VALUES ${list.map(() => "(?, ?, ?, ?, ?, NULL, 0, ?, ?, ?, ?, ?, ?, NULL)").join(", ")}`, params);
  }

  /**
   * Confirms open intents with what was written, in one statement (a window's slices: one parse
   * and plan instead of one per slice); the commit fails when any of them has no open intent.
   */
  confirmAll(results: readonly SliceResult[], seqs: readonly number[]): void {
    if (results.length === 0) return;
    // The values' types are spelled out: PostgreSQL types a VALUES list by its parameters, text unless cast.
    const blob = this.db.dialect === "postgres" ? "CAST(? AS BYTEA)" : "?";
    const row = `(CAST(? AS TEXT), CAST(? AS INTEGER), ${blob}, CAST(? AS BIGINT), CAST(? AS TEXT))`;
    const params = results.flatMap((r, k) => [
      r.operationId,
      r.sliceNo,
      r.written,
      seqs[k]!,
      r.entityDigests.length === 0 ? null : JSON.stringify(r.entityDigests),
    ]);
    const first = results[0]!;
    this.db.write(
      `UPDATE slices SET written = v.column3, seq = v.column4, digests = v.column5 FROM (VALUES ${results.map(() => row).join(", ")}) AS v ` +
        "WHERE slices.op_id = v.column1 AND slices.slice_no = v.column2 AND slices.written IS NULL",
      params,
      {
        changes: results.length,
        failure:
          results.length === 1
            ? `no open intent for slice ${first.sliceNo} of ${first.operationId}`
            : `no open intent for some of slices ${results.map((r) => `${r.sliceNo}`).join(", ")} of ${first.operationId}`,
      },
    );
  }

  forOperation(operationId: string): SliceRecord[] {
    return this.db.all("SELECT * FROM slices WHERE op_id = ? ORDER BY slice_no", [operationId]).map(toSlice);
  }

  /** Confirmed slices with seq > `afterSeq` whose bounds intersect `box`, in sequence order. */
  after(afterSeq: number, box: Box3): SliceRecord[] {
    return this.db
      .all(
        "SELECT * FROM slices WHERE written IS NOT NULL AND seq > ? AND min_x <= ? AND max_x >= ? AND min_y <= ? AND max_y >= ? AND min_z <= ? AND max_z >= ? ORDER BY seq",
        [afterSeq, int32(box.maxX), int32(box.minX), int32(box.maxY), int32(box.minY), int32(box.maxZ), int32(box.minZ)],
      )
      .map(toSlice);
  }
}
