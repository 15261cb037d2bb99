import type { Box3 } from "@mcb/blocks";
import type { TouchList } from "./Journal.js";
import type { SqlDb, SqlValue } from "./SqlDb.js";
import { int32 } from "./SqlDb.js";

/** Rows per INSERT: a batch of touches is a few statements, not one per block. */
const ROWS_PER_INSERT = 200;

/** Observed changes in the world (a person's edits, an administrator's accepted states), by sequence. */
export class TouchStore {
  /** The column giving touches their insertion order. */
  private readonly order: string;

  constructor(private readonly db: SqlDb) {
    this.order = db.dialect === "sqlite" ? "rowid" : "row_id";
  }

  /** (x, y, z) triples, each with the state it now holds (null: uncertain), all under `seq`. */
  add(seq: number, positions: Int32Array, states: readonly (string | null)[] | undefined, kind: number): void {
    const n = positions.length / 3;
    for (let from = 0; from < n; from += ROWS_PER_INSERT) {
      const to = Math.min(n, from + ROWS_PER_INSERT);
      const params: SqlValue[] = [];
      for (let i = from; i < to; i++) params.push(seq, positions[i * 3]!, positions[i * 3 + 1]!, positions[i * 3 + 2]!, states?.[i] ?? null, kind);
      const rows = Array.from({ length: to - from }, () => "(?, ?, ?, ?, ?, ?)").join(", ");
      this.db.write(`INSERT INTO touches (seq, x, y, z, state, kind) VALUES ${rows}`, params);
    }
  }

  /** Touches with seq > `afterSeq` inside `box`, in sequence order, then insertion order. */
  after(afterSeq: number, box: Box3): TouchList {
    const rows = this.db.all(
      `SELECT seq, x, y, z, state, kind, ${this.order} AS n FROM touches WHERE seq > ? AND x BETWEEN ? AND ? AND y BETWEEN ? AND ? AND z BETWEEN ? AND ? ORDER BY seq, ${this.order}`,
      [afterSeq, int32(box.minX), int32(box.maxX), int32(box.minY), int32(box.maxY), int32(box.minZ), int32(box.maxZ)],
    );
    const quads = new Float64Array(rows.length * 4);
    const kinds = new Uint8Array(rows.length);
    const order = new Float64Array(rows.length);
    rows.forEach((r, i) => {
      quads.set([r["seq"] as number, r["x"] as number, r["y"] as number, r["z"] as number], i * 4);
      kinds[i] = r["kind"] as number;
      order[i] = r["n"] as number;
    });
    return { quads, states: rows.map((r) => r["state"] as string | null), kinds, rows: order };
  }
}
