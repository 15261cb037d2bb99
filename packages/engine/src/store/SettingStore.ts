import { randomBytes } from "node:crypto";
import type { SqlDb } from "./SqlDb.js";
import { firstColumn } from "./SqlDb.js";

/** Named values of the journal: its id, the world's event cursor, the newest gap's sequence. */
export class SettingStore {
  constructor(private readonly db: SqlDb) {}

  get(key: string): string | null {
    const v = firstColumn(this.db.get("SELECT value FROM settings WHERE key = ?", [key]));
    return v === undefined ? null : (v as string);
  }

  set(key: string, value: string): void {
    this.db.write("INSERT INTO settings VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [key, value]);
  }

  /** 16 hex digits, random per journal, the same for every process that opens it. */
  journalId(): string {
    this.db.run("INSERT INTO settings VALUES ('journal_id', ?) ON CONFLICT (key) DO NOTHING", [randomBytes(8).toString("hex")]);
    return this.get("journal_id")!;
  }
}
