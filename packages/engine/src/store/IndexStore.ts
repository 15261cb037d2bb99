import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { IndexHead } from "./Journal.js";
import type { SqlDb } from "./SqlDb.js";
import { firstColumn } from "./SqlDb.js";

const SECTION_BYTES = 4096 * 4;

/** The standing-write index the engine folds (see `StandingIndex`): interned entries, sections, its head. */
export class IndexStore {
  constructor(private readonly db: SqlDb) {}

  head(): IndexHead {
    return { seq: this.seq(), entries: this.db.all("SELECT value FROM index_entries ORDER BY id").map((r) => r["value"] as string) };
  }

  /** The sequence the stored index reached (0: never saved). */
  seq(): number {
    const seq = firstColumn(this.db.get("SELECT value FROM meta WHERE key = 'index_seq'"));
    return seq === undefined ? 0 : Number(seq);
  }

  sections(keys: readonly string[]): Map<string, Uint32Array> {
    const out = new Map<string, Uint32Array>();
    for (const key of keys) {
      const [cx, cy, cz] = key.split(",").map(Number) as [number, number, number];
      const body = firstColumn(this.db.get("SELECT body FROM index_sections WHERE cx = ? AND cy = ? AND cz = ?", [cx, cy, cz])) as Buffer | undefined;
      if (body === undefined) continue;
      const raw = inflateRawSync(body);
      if (raw.length !== SECTION_BYTES) throw new Error(`journal index section ${key}: ${raw.length} bytes, expected ${SECTION_BYTES}`);
      const s = new Uint32Array(4096);
      new Uint8Array(s.buffer).set(raw);
      out.set(key, s);
    }
    return out;
  }

  /**
   * Appends interned entries, replaces sections and moves the head to `seq`, only when the stored
   * head is still `fromSeq` (another process may have saved the index meanwhile); returns whether
   * it saved. Runs inside the caller's transaction or makes its own.
   */
  save(fromSeq: number, seq: number, newEntries: readonly string[], sections: ReadonlyMap<string, Uint32Array>): boolean {
    const bodies = [...sections].map(
      ([key, s]) => [key.split(",").map(Number), deflateRawSync(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), { level: 1 })] as const,
    );
    return this.db.transaction((): boolean => {
      if (this.seq() !== fromSeq) return false;
      let id = Number(firstColumn(this.db.get("SELECT count(*) AS n FROM index_entries"))) + 1;
      for (const e of newEntries) this.db.write("INSERT INTO index_entries VALUES (?, ?)", [id++, e]);
      for (const [[cx, cy, cz], body] of bodies) {
        this.db.write("INSERT INTO index_sections VALUES (?, ?, ?, ?) ON CONFLICT (cx, cy, cz) DO UPDATE SET body = excluded.body", [cx!, cy!, cz!, body]);
      }
      this.db.write("INSERT INTO meta VALUES ('index_seq', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [seq]);
      return true;
    });
  }
}
