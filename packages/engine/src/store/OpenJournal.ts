import { PostgresDb } from "./PostgresDb.js";
import { SqliteDb } from "./SqliteDb.js";
import type { SqlDb } from "./SqlDb.js";
import { SqlJournal } from "./SqlJournal.js";

/** Whether a journal target names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//.test(target);
}

/**
 * Opens the journal at `target`: a `postgres://user:password@127.0.0.1:port/db` URL (shared by
 * several bridges), a SQLite file path (embedded, one host), or `:memory:` (tests).
 */
export function openJournal(target: string, options: { readonly now?: () => number } = {}): SqlJournal {
  return new SqlJournal(openSqlDb(target), options);
}

/** The database under a journal target (for journals that wrap `SqlJournal`, as tests' planted bugs do). */
export function openSqlDb(target: string): SqlDb {
  return isPostgresUrl(target) ? new PostgresDb(target) : new SqliteDb(target);
}
