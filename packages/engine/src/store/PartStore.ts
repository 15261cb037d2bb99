import type { PartRecord } from "./Journal.js";
import type { SqlDb, SqlRow } from "./SqlDb.js";
import { packRuns, unpackRuns } from "../core/PackedRuns.js";

/**
 * A mask stored packed: this 5-byte mark, then its runs (`packRuns`, stride 3, deltas: a box's
 * mask is two runs a row). A raw mask (before 12-06, or one whose runs are no smaller) is its
 * triples' bytes, always a multiple of 12 long, which a packed one (5 + 4·words) never is.
 */
const PACKED = Buffer.from("MCBR1", "latin1");

function toPart(row: SqlRow): PartRecord {
  const meta = JSON.parse(row["body"] as string) as Omit<PartRecord, "mask">;
  return { ...meta, mask: decodeMask(row["mask"] as Buffer) };
}

function decodeMask(bytes: Buffer): Int32Array {
  if (bytes.length % 12 === 0) {
    const mask = new Int32Array(bytes.length / 4);
    new Uint8Array(mask.buffer).set(bytes);
    return mask;
  }
  if (!bytes.subarray(0, PACKED.length).equals(PACKED) || (bytes.length - PACKED.length) % 4 !== 0) throw new Error("stored part: malformed mask");
  const runs = new Int32Array((bytes.length - PACKED.length) / 4);
  new Uint8Array(runs.buffer).set(bytes.subarray(PACKED.length));
  let positions = 0;
  for (let r = 0; r < runs.length; r += 4) positions += runs[r]!;
  return unpackRuns(runs, 3, true, new Int32Array(positions * 3));
}

function maskBytes(mask: Int32Array): Uint8Array {
  const runs = packRuns(mask, 3, true);
  if (runs === null) return new Uint8Array(mask.buffer, mask.byteOffset, mask.byteLength);
  return Buffer.concat([PACKED, new Uint8Array(runs.buffer, runs.byteOffset, runs.byteLength)]);
}

/** Named parts: their record and their exact mask. */
export class PartStore {
  constructor(private readonly db: SqlDb) {}

  put(part: PartRecord): void {
    const { mask, ...meta } = part;
    this.db.write("INSERT INTO parts VALUES (?, ?, ?, ?, ?)", [part.partId, part.projectId, part.createdAt, JSON.stringify(meta), maskBytes(mask)]);
  }

  /** Replaces a stored part (same id); throws when there is none. */
  update(part: PartRecord): void {
    const { mask, ...meta } = part;
    this.db.write("UPDATE parts SET body = ?, mask = ? WHERE part_id = ?", [JSON.stringify(meta), maskBytes(mask), part.partId], {
      changes: 1,
      failure: `unknown part ${part.partId}`,
    });
  }

  delete(partId: string): void {
    this.db.write("DELETE FROM parts WHERE part_id = ?", [partId]);
  }

  get(partId: string): PartRecord | null {
    const row = this.db.get("SELECT body, mask FROM parts WHERE part_id = ?", [partId]);
    return row === undefined ? null : toPart(row);
  }

  list(projectId: string): PartRecord[] {
    return this.db.all("SELECT body, mask FROM parts WHERE project_id = ? ORDER BY created_at, part_id", [projectId]).map(toPart);
  }
}
