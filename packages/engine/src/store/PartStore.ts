import type { PartRecord } from "./Journal.js";
import type { SqlDb, SqlRow } from "./SqlDb.js";
import { packRuns } from "../core/PackedRuns.js";
import { maskCount, packedRunsOf, withoutMask, withPackedMask } from "../core/PackedMask.js";

/**
 * A mask stored packed: this 5-byte mark, then its runs (`packRuns`, stride 3, deltas: a box's
 * mask is two runs a row). A raw mask (before 12-06, or one whose runs are no smaller) is its
 * triples' bytes, always a multiple of 12 long, which a packed one (5 + 4·words) never is.
 */
const PACKED = Buffer.from("MCBR1", "latin1");

/** A stored part: a packed mask stays packed until something reads it (`withPackedMask`). */
function toPart(row: SqlRow): PartRecord {
  const meta = JSON.parse(row["body"] as string) as Omit<PartRecord, "mask">;
  const bytes = row["mask"] as Buffer;
  if (bytes.length % 12 === 0) {
    const mask = new Int32Array(bytes.length / 4);
    new Uint8Array(mask.buffer).set(bytes);
    return { ...meta, mask };
  }
  if (!bytes.subarray(0, PACKED.length).equals(PACKED) || (bytes.length - PACKED.length) % 4 !== 0) throw new Error("stored part: malformed mask");
  const runs = new Int32Array((bytes.length - PACKED.length) / 4);
  new Uint8Array(runs.buffer).set(bytes.subarray(PACKED.length));
  let positions = 0;
  for (let r = 0; r < runs.length; r += 4) {
    if (runs[r]! < 1) throw new Error("stored part: malformed mask");
    positions += runs[r]!;
  }
  return withPackedMask(meta, runs, positions);
}

function maskBytes(part: PartRecord): Uint8Array {
  // A record still packed keeps its runs when they are smaller than its triples, as packRuns decides.
  const held = packedRunsOf(part);
  const runs = held !== null && held.length <= maskCount(part) * 3 - 1 ? held : packRuns(part.mask, 3, true);
  if (runs === null) return new Uint8Array(part.mask.buffer, part.mask.byteOffset, part.mask.byteLength);
  return Buffer.concat([PACKED, new Uint8Array(runs.buffer, runs.byteOffset, runs.byteLength)]);
}

/** Named parts: their record and their exact mask. */
export class PartStore {
  constructor(private readonly db: SqlDb) {}

  put(part: PartRecord): void {
    this.db.write("INSERT INTO parts VALUES (?, ?, ?, ?, ?)", [
      part.partId,
      part.projectId,
      part.createdAt,
      JSON.stringify(withoutMask(part)),
      maskBytes(part),
    ]);
  }

  /** Replaces a stored part (same id); throws when there is none. */
  update(part: PartRecord): void {
    this.db.write("UPDATE parts SET body = ?, mask = ? WHERE part_id = ?", [JSON.stringify(withoutMask(part)), maskBytes(part), part.partId], {
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
