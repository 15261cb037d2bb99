import { PostgresServer } from "./property-tests/src/postgres/PostgresServer.js";
import { TEST_POSTGRES_ENV } from "./property-tests/src/postgres/TestPostgres.js";

// The test run's PostgreSQL server (loopback, throwaway): the journal suites run on it as well as on
// SQLite. Started once per run; the workers find its URL in the environment.
let server: PostgresServer | undefined;

export async function setup(): Promise<void> {
  server = await PostgresServer.start();
  process.env[TEST_POSTGRES_ENV] = server.url;
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
