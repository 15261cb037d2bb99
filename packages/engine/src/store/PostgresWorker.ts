import { workerData } from "node:worker_threads";
import type { MessagePort } from "node:worker_threads";
import pg from "pg";
import type { StoreError } from "./SqlDb.js";
import { asBuffer } from "./SqlDb.js";
import type { WireReply, WireRequest, WireStart, WireStatement } from "./PostgresWire.js";
import { redactUrl, replaceOutsideQuotes } from "./PostgresWire.js";

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

/** A value as an SQL literal (a batch is one simple query: no parameters). */
function literal(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`);
    return String(v);
  }
  if (typeof v === "string") return client.escapeLiteral(v);
  if (v instanceof Uint8Array) return `'\\x${asBuffer(v).toString("hex")}'::bytea`;
  throw new Error(`cannot bind ${typeof v}`);
}

/** A statement with its `$n` placeholders replaced by literals. */
function inline(st: WireStatement): string {
  return replaceOutsideQuotes(st.sql, /\$[0-9]+/y, (m) => literal(st.params[Number(m.slice(1)) - 1]));
}

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
        const params = req.params.map((p) => (p instanceof Uint8Array ? asBuffer(p) : p));
        const r = await client.query({ text: req.sql, values: params });
        return { id: req.id, ok: true, rows: r.rows, changes: r.rowCount ?? 0 };
      }
      case "batch": {
        // A checked write fails inside the server (mcb_check), so nothing after it runs, COMMIT included.
        const text = req.statements
          .map((st) =>
            st.expect === undefined
              ? inline(st)
              : `WITH w AS (${inline(st)} RETURNING 1) SELECT mcb_check(count(*), ${st.expect.changes}, ${client.escapeLiteral(st.expect.failure)}) FROM w`,
          )
          .join(";\n");
        const results = await client.query(text);
        const list = (Array.isArray(results) ? results : [results]) as pg.QueryResult[];
        const last = list[list.length - 1];
        return { id: req.id, ok: true, rows: last?.rows ?? [], changes: last?.rowCount ?? 0 };
      }
      case "exec":
        await client.query(req.sql);
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
