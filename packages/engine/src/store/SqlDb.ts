/** A value bound to a `?` placeholder: numbers are integers or doubles, blobs are bytes. */
export type SqlValue = string | number | null | Uint8Array;

/** A row as the database returns it: columns by name; blobs come back as `Buffer`, integers as numbers. */
export type SqlRow = Record<string, SqlValue>;

export type SqlDialect = "sqlite" | "postgres";

/** What a checked write must change (see `SqlDb.write`). */
export interface WriteCheck {
  readonly changes: number;
  readonly failure: string;
}

/**
 * The one SQL seam under the journal's repositories. Statements use `?` placeholders and the SQL
 * both dialects share (`ON CONFLICT`, `RETURNING`, `CASE`); a repository that needs a dialect's own
 * spelling asks `dialect`. Every call is synchronous and durable when it returns outside a
 * transaction; `transaction` runs `fn` as one writer at a time across every process on the store
 * (SQLite: BEGIN IMMEDIATE; PostgreSQL: a transaction-scoped advisory lock), committing when `fn`
 * returns and rolling back when it throws. Transactions do not nest: a call inside one joins it.
 */
export interface SqlDb {
  readonly dialect: SqlDialect;
  /** The store as messages name it: a file, `:memory:`, or a URL without its password. */
  readonly where: string;
  /** Runs a statement; `changes` is the number of rows it inserted, updated or deleted. */
  run(sql: string, params?: readonly SqlValue[]): { readonly changes: number };
  /**
   * A write whose only result is a check: with `expect`, the statement must change exactly
   * `expect.changes` rows, else the call (or, deferred, the transaction) fails with
   * `expect.failure`. SQLite runs it at once; PostgreSQL inside a transaction sends it with the
   * transaction's next read or its commit, in one round trip (group commit).
   */
  write(sql: string, params?: readonly SqlValue[], expect?: WriteCheck): void;
  all(sql: string, params?: readonly SqlValue[]): SqlRow[];
  /** First row, or undefined. */
  get(sql: string, params?: readonly SqlValue[]): SqlRow | undefined;
  /** Several statements without parameters (schema changes). */
  exec(sql: string): void;
  transaction<T>(fn: () => T): T;
  /** Bytes of durable storage the store uses (its files, or its database). */
  sizeBytes(): number;
  close(): void;
}

/** Why the store refused or failed: the journal's callers see these as thrown `StoreFailure`s. */
export type StoreError =
  | { readonly code: "store_unreachable"; readonly message: string }
  | { readonly code: "store_timeout"; readonly message: string }
  | { readonly code: "store_schema"; readonly message: string }
  | { readonly code: "store_query"; readonly message: string };

/** A broken store is a broken invariant for the engine: thrown, with a code for the front ends. */
export class StoreFailure extends Error {
  constructor(readonly error: StoreError) {
    super(error.message);
    this.name = "StoreFailure";
  }
  get code(): StoreError["code"] {
    return this.error.code;
  }
}

/** The first column of a row (a count, a value), or undefined when there is no row. */
export function firstColumn(row: SqlRow | undefined): SqlValue | undefined {
  if (row === undefined) return undefined;
  for (const k in row) return row[k];
  return undefined;
}

/** A coordinate bound clamped to the 32-bit columns that hold coordinates ("everywhere" boxes reach ±2^31). */
export function int32(v: number): number {
  return Math.max(-2147483648, Math.min(2147483647, v));
}

/** The same bytes as a `Buffer` (no copy): what better-sqlite3 binds and `pg` sends as bytea. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
