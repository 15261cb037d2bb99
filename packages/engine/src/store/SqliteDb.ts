import { statSync } from "node:fs";
import Database from "better-sqlite3";
import type { SqlDb, SqlRow, SqlValue, WriteCheck } from "./SqlDb.js";
import { asBuffer } from "./SqlDb.js";

function bind(params: readonly SqlValue[]): unknown[] {
  return params.map((p) => (p instanceof Uint8Array ? asBuffer(p) : p));
}

/**
 * The embedded store: one SQLite file (or `:memory:`) through better-sqlite3, WAL with synchronous
 * FULL, so every commit is fsynced before the call returns. Statements are prepared once and kept.
 */
export class SqliteDb implements SqlDb {
  readonly dialect = "sqlite" as const;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();

  readonly where: string;

  constructor(readonly file: string) {
    this.where = file;
    this.db = new Database(file);
    if (file !== ":memory:") this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = FULL");
    this.db.pragma("foreign_keys = ON");
    this.db.pragma("busy_timeout = 10000");
  }

  private statement(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  run(sql: string, params: readonly SqlValue[] = []): { readonly changes: number } {
    return { changes: this.statement(sql).run(...bind(params)).changes };
  }

  write(sql: string, params: readonly SqlValue[] = [], expect?: WriteCheck): void {
    const { changes } = this.run(sql, params);
    if (expect !== undefined && changes !== expect.changes) throw new Error(expect.failure);
  }

  all(sql: string, params: readonly SqlValue[] = []): SqlRow[] {
    return this.statement(sql).all(...bind(params)) as SqlRow[];
  }

  get(sql: string, params: readonly SqlValue[] = []): SqlRow | undefined {
    return this.statement(sql).get(...bind(params)) as SqlRow | undefined;
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  transaction<T>(fn: () => T): T {
    return this.db.inTransaction ? fn() : this.db.transaction(fn).immediate();
  }

  sizeBytes(): number {
    if (this.file === ":memory:") return Number(this.db.pragma("page_count", { simple: true })) * Number(this.db.pragma("page_size", { simple: true }));
    const size = (f: string): number => {
      try {
        return statSync(f).size;
      } catch {
        return 0;
      }
    };
    return size(this.file) + size(`${this.file}-wal`);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
