// The SQLite journal's schema and its migrations (each runs in one transaction when a journal opens).

/** Tables of schema 4: which confirmed slices are saved in the world's files, the marks, lost writes. */
const SAVED_WRITES_TABLES = `
CREATE TABLE IF NOT EXISTS slice_saves (
  op_id TEXT NOT NULL, slice_no INTEGER NOT NULL, session TEXT NOT NULL, write_seq INTEGER NOT NULL,
  settled INTEGER NOT NULL, ord INTEGER NOT NULL, PRIMARY KEY (op_id, slice_no)) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS slice_saves_open ON slice_saves (session, write_seq) WHERE settled = 0;
CREATE TABLE IF NOT EXISTS saved_marks (session TEXT PRIMARY KEY, saved_through INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS lost_writes (op_id TEXT PRIMARY KEY, indices TEXT NOT NULL) STRICT;
`;

/** Tables of schema 5: claims (a recovery's one claimant, region leases), each with a holder and an expiry. */
const CLAIM_TABLES = `
CREATE TABLE IF NOT EXISTS claims (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL) STRICT;
`;

/** Tables added by schema 3: settings (event cursor, journal id, gap), the standing-write index. */
const SCHEMA_3_TABLES = `
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS index_entries (id INTEGER PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS index_sections (cx INTEGER NOT NULL, cy INTEGER NOT NULL, cz INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY (cx, cy, cz)) STRICT, WITHOUT ROWID;
`;

/** A new journal, at the newest schema. */
export const SQLITE_SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS plans (plan_id TEXT PRIMARY KEY, project_id TEXT NOT NULL, body BLOB NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS operations (
  op_id TEXT PRIMARY KEY, project_id TEXT NOT NULL, idem_key TEXT NOT NULL, plan_id TEXT NOT NULL,
  status TEXT NOT NULL, created_at INTEGER NOT NULL, body TEXT NOT NULL, kind TEXT, part_id TEXT,
  UNIQUE (project_id, idem_key)) STRICT;
CREATE INDEX IF NOT EXISTS operations_plan ON operations (plan_id);
CREATE INDEX IF NOT EXISTS operations_recent ON operations (project_id, created_at);
CREATE TABLE IF NOT EXISTS slices (
  op_id TEXT NOT NULL, slice_no INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL,
  intent BLOB NOT NULL, written BLOB, seq INTEGER NOT NULL,
  min_x INTEGER NOT NULL, min_y INTEGER NOT NULL, min_z INTEGER NOT NULL,
  max_x INTEGER NOT NULL, max_y INTEGER NOT NULL, max_z INTEGER NOT NULL,
  digests TEXT, PRIMARY KEY (op_id, slice_no)) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS slices_seq ON slices (seq) WHERE written IS NOT NULL;
CREATE TABLE IF NOT EXISTS touches (seq INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL, z INTEGER NOT NULL, state TEXT, kind INTEGER NOT NULL DEFAULT 0) STRICT;
CREATE INDEX IF NOT EXISTS touches_seq ON touches (seq);
CREATE TABLE IF NOT EXISTS parts (
  part_id TEXT PRIMARY KEY, project_id TEXT NOT NULL, created_at INTEGER NOT NULL, body TEXT NOT NULL, mask BLOB NOT NULL) STRICT;
${SCHEMA_3_TABLES}
${SAVED_WRITES_TABLES}
${CLAIM_TABLES}
`;

/**
 * Schema 1 → 2: touches remember the state they observed (old rows: null, uncertain); operations
 * get kind and part columns for filtered listing (old rows: kind from the record, no part).
 */
export const MIGRATE_1_TO_2 = `
ALTER TABLE touches ADD COLUMN state TEXT;
ALTER TABLE operations ADD COLUMN kind TEXT;
ALTER TABLE operations ADD COLUMN part_id TEXT;
UPDATE operations SET kind = json_extract(body, '$.kind');
UPDATE meta SET value = 2 WHERE key = 'schema';
`;

/**
 * Schema 2 → 3: touches get a kind (old rows: external); settings, and the standing-write index,
 * empty (the engine folds the whole history into it on first use).
 */
export const MIGRATE_2_TO_3 = `
ALTER TABLE touches ADD COLUMN kind INTEGER NOT NULL DEFAULT 0;
${SCHEMA_3_TABLES}
UPDATE meta SET value = 3 WHERE key = 'schema';
`;

/** Schema 3 → 4: saved writes (none known for older slices: the world never numbered them). */
export const MIGRATE_3_TO_4 = `
${SAVED_WRITES_TABLES}
UPDATE meta SET value = 4 WHERE key = 'schema';
`;

/** Schema 4 → 5: claims. */
export const MIGRATE_4_TO_5 = `
${CLAIM_TABLES}
UPDATE meta SET value = 5 WHERE key = 'schema';
`;
