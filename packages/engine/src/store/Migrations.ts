import type { SqlDb } from "./SqlDb.js";
import { StoreFailure, firstColumn } from "./SqlDb.js";
import { POSTGRES_SCHEMA } from "./PostgresSchema.js";
import { MIGRATE_1_TO_2, MIGRATE_2_TO_3, MIGRATE_3_TO_4, MIGRATE_4_TO_5, SQLITE_SCHEMA } from "./SqliteSchema.js";

/** The journal schema this build reads and writes. */
export const SCHEMA_VERSION = 5;

/** SQLite journals from before: each step runs in its own transaction, oldest first. */
const SQLITE_STEPS: ReadonlyMap<number, string> = new Map([
  [1, MIGRATE_1_TO_2],
  [2, MIGRATE_2_TO_3],
  [3, MIGRATE_3_TO_4],
  [4, MIGRATE_4_TO_5],
]);

function schemaOf(db: SqlDb): number | undefined {
  const exists =
    db.dialect === "sqlite"
      ? db.get("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'meta'") !== undefined
      : firstColumn(db.get("SELECT to_regclass('meta') IS NOT NULL AS x")) === (true as unknown);
  if (!exists) return undefined;
  const v = firstColumn(db.get("SELECT value FROM meta WHERE key = 'schema'"));
  return v === undefined ? undefined : Number(v);
}

/**
 * Brings a store to `SCHEMA_VERSION` under the writer lock (several processes may open one store
 * at once): a new store gets the whole schema, an older SQLite journal its migrations in order; a
 * newer schema (a newer mcb wrote it) is refused with `store_schema` and nothing is changed.
 */
export function migrate(db: SqlDb, where: string): void {
  db.transaction(() => {
    let version = schemaOf(db);
    if (version === undefined) {
      db.exec(db.dialect === "sqlite" ? SQLITE_SCHEMA : POSTGRES_SCHEMA);
      db.run("INSERT INTO meta VALUES ('schema', ?), ('seq', 0) ON CONFLICT (key) DO NOTHING", [SCHEMA_VERSION]);
      return;
    }
    while (db.dialect === "sqlite" && SQLITE_STEPS.has(version)) {
      db.exec(SQLITE_STEPS.get(version)!);
      version++;
    }
    if (version !== SCHEMA_VERSION) {
      throw new StoreFailure({ code: "store_schema", message: `journal ${where} has schema ${version}; this mcb reads schema ${SCHEMA_VERSION}` });
    }
  });
}
