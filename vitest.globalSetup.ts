import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { PostgresServer } from "./property-tests/src/postgres/PostgresServer.js";
import { TEST_POSTGRES_ENV } from "./property-tests/src/postgres/TestPostgres.js";

// The test run's PostgreSQL server (loopback, throwaway): the journal suites run on it as well as on
// SQLite. Started once per run; the workers find its URL in the environment.
let server: PostgresServer | undefined;
let temp: string | undefined;

export async function setup(): Promise<void> {
  // Temporary worlds, saves and journals in memory (tmpfs) when the machine has one: the tests
  // fsync a great deal, and nothing they write needs to outlive the run. Workers inherit TMPDIR.
  if (existsSync("/dev/shm") && process.env["TMPDIR"] === undefined) {
    temp = mkdtempSync("/dev/shm/mcb-test-");
    process.env["TMPDIR"] = temp;
  }
  server = await PostgresServer.start();
  process.env[TEST_POSTGRES_ENV] = server.url;
}

export async function teardown(): Promise<void> {
  await server?.stop();
  if (temp !== undefined) rmSync(temp, { recursive: true, force: true });
}
