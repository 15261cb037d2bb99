import { randomBytes } from "node:crypto";
import { openSqlDb, type SqlDb } from "@mcb/engine";

/** The variable the test run's global setup puts the throwaway server's URL in (vitest.globalSetup.ts). */
export const TEST_POSTGRES_ENV = "MCB_TEST_POSTGRES";

let admin: SqlDb | null = null;

/** The URL of the test run's PostgreSQL server; a clear error when the run did not start one. */
export function testPostgresUrl(): string {
  const url = process.env[TEST_POSTGRES_ENV];
  if (url === undefined || url === "") throw new Error(`${TEST_POSTGRES_ENV} is not set: run the tests through vitest (its global setup starts PostgreSQL)`);
  return url;
}

/**
 * A new, empty journal on the test server: its own schema, named in the URL's search_path, so
 * each journal has its own tables and its own writer lock, as a database per world would.
 */
export function freshPostgresJournal(): string {
  const url = testPostgresUrl();
  admin ??= openSqlDb(url);
  const schema = `j_${process.pid}_${randomBytes(6).toString("hex")}`;
  admin.exec(`CREATE SCHEMA ${schema}`);
  const u = new URL(url);
  u.searchParams.set("options", `-c search_path=${schema}`);
  return u.toString();
}
