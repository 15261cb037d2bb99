import { workerData } from "node:worker_threads";
import type { MessagePort } from "node:worker_threads";
import pg from "pg";
import type { StoreError } from "./SqlDb.js";
import type { WireReply, WireRequest, WireStart } from "./PostgresWire.js";
import { redactUrl } from "./PostgresWire.js";

// The worker behind `PostgresDb`: one `pg` client, one request at a time, each reply posted and
// then signalled on the shared flag the caller thread waits on.

const start = workerData as WireStart & { readonly port: MessagePort };
const flag = new Int32Array(start.signal);
const port = start.port;
// BIGINT and NUMERIC (sums, sizes) as numbers: the journal's integers stay below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

const client = new pg.Client({ connectionString: start.url, connectionTimeoutMillis: 10_000, application_name: "mcb" });
let broken: StoreError | null = null;
const connected = client.connect().then(
  () => undefined,
  (e: unknown) => {
    broken = { code: "store_unreachable", message: `cannot reach PostgreSQL at ${redactUrl(start.url)}: ${(e as Error).message}` };
  },
);
client.on("error", (e) => {
  broken = { code: "store_unreachable", message: `PostgreSQL connection lost: ${e.message}` };
});

function reply(r: WireReply): void {
  port.postMessage(r);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

async function handle(req: WireRequest): Promise<WireReply> {
  await connected;
  if (broken !== null) return { id: req.id, ok: false, error: broken };
  try {
    switch (req.op) {
      case "query": {
        const params = req.params.map((p) => (p instanceof Uint8Array ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p));
        const r = await client.query({ text: req.sql, values: params });
        return { id: req.id, ok: true, rows: r.rows, changes: r.rowCount ?? 0 };
      }
      case "exec":
        await client.query(req.sql);
        break;
      case "begin":
        await client.query("BEGIN");
        // One writer at a time per journal: the lock is keyed by the journal's schema.
        await client.query("SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))", [start.lockKey]);
        break;
      case "commit":
        await client.query("COMMIT");
        break;
      case "rollback":
        await client.query("ROLLBACK");
        break;
      case "close":
        await client.end();
        break;
    }
    return { id: req.id, ok: true, rows: [], changes: 0 };
  } catch (e) {
    return { id: req.id, ok: false, error: { code: "store_query", message: (e as Error).message } };
  }
}

let queue = Promise.resolve();
port.on("message", (req: WireRequest) => {
  queue = queue.then(async () => reply(await handle(req)));
});
