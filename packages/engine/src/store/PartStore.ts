import type { PartRecord } from "./Journal.js";
import type { SqlDb, SqlRow } from "./SqlDb.js";

function toPart(row: SqlRow): PartRecord {
  const meta = JSON.parse(row["body"] as string) as Omit<PartRecord, "mask">;
  const bytes = row["mask"] as Buffer;
  const mask = new Int32Array(bytes.length / 4);
  new Uint8Array(mask.buffer).set(bytes);
  return { ...meta, mask };
}

function maskBytes(mask: Int32Array): Uint8Array {
  return new Uint8Array(mask.buffer, mask.byteOffset, mask.byteLength);
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
