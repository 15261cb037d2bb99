// The PostgreSQL journal's schema: the same tables as SQLite's newest schema, in PostgreSQL's types.
// Later schema versions add numbered migrations here, as SqliteSchema.ts has them. `mcb_check`
// fails a transaction from inside the server when a checked write changed the wrong number of
// rows, so a transaction's writes and its COMMIT can travel in one round trip.

export const POSTGRES_SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS plans (plan_id TEXT PRIMARY KEY, project_id TEXT NOT NULL, body BYTEA NOT NULL);
CREATE TABLE IF NOT EXISTS operations (
  op_id TEXT PRIMARY KEY, project_id TEXT NOT NULL, idem_key TEXT NOT NULL, plan_id TEXT NOT NULL,
  status TEXT NOT NULL, created_at BIGINT NOT NULL, body TEXT NOT NULL, kind TEXT, part_id TEXT,
  UNIQUE (project_id, idem_key));
CREATE INDEX IF NOT EXISTS operations_plan ON operations (plan_id);
CREATE INDEX IF NOT EXISTS operations_recent ON operations (project_id, created_at);
CREATE TABLE IF NOT EXISTS slices (
  op_id TEXT NOT NULL, slice_no INTEGER NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL,
  intent BYTEA NOT NULL, written BYTEA, seq BIGINT NOT NULL,
  min_x INTEGER NOT NULL, min_y INTEGER NOT NULL, min_z INTEGER NOT NULL,
  max_x INTEGER NOT NULL, max_y INTEGER NOT NULL, max_z INTEGER NOT NULL,
  digests TEXT, PRIMARY KEY (op_id, slice_no));
CREATE INDEX IF NOT EXISTS slices_seq ON slices (seq) WHERE written IS NOT NULL;
CREATE TABLE IF NOT EXISTS touches (row_id BIGSERIAL PRIMARY KEY, seq BIGINT NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL, z INTEGER NOT NULL, state TEXT, kind INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS touches_seq ON touches (seq);
CREATE TABLE IF NOT EXISTS parts (part_id TEXT PRIMARY KEY, project_id TEXT NOT NULL, created_at BIGINT NOT NULL, body TEXT NOT NULL, mask BYTEA NOT NULL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS index_entries (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS index_sections (cx INTEGER NOT NULL, cy INTEGER NOT NULL, cz INTEGER NOT NULL, body BYTEA NOT NULL, PRIMARY KEY (cx, cy, cz));
CREATE TABLE IF NOT EXISTS slice_saves (
  op_id TEXT NOT NULL, slice_no INTEGER NOT NULL, session TEXT NOT NULL, write_seq BIGINT NOT NULL,
  settled INTEGER NOT NULL, ord BIGINT NOT NULL, PRIMARY KEY (op_id, slice_no));
CREATE INDEX IF NOT EXISTS slice_saves_open ON slice_saves (session, write_seq) WHERE settled = 0;
CREATE TABLE IF NOT EXISTS saved_marks (session TEXT PRIMARY KEY, saved_through BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS lost_writes (op_id TEXT PRIMARY KEY, indices TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS claims (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at BIGINT NOT NULL);
CREATE OR REPLACE FUNCTION mcb_check(n BIGINT, want BIGINT, failure TEXT) RETURNS BIGINT AS $$
BEGIN
  IF n <> want THEN RAISE EXCEPTION USING MESSAGE = failure; END IF;
  RETURN n;
END $$ LANGUAGE plpgsql;
`;
