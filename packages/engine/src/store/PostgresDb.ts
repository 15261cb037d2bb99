import { MessageChannel, Worker, receiveMessageOnPort } from "node:worker_threads";
import type { MessagePort } from "node:worker_threads";
import type { SqlDb, SqlRow, SqlValue, WriteCheck } from "./SqlDb.js";
import { StoreFailure, asBuffer } from "./SqlDb.js";
import type { WireReply, WireRequest, WireStart, WireStatement } from "./PostgresWire.js";
import { numberPlaceholders, redactUrl } from "./PostgresWire.js";

/** The advisory lock class every writing transaction on a journal takes ("mcb" in ASCII). */
export const JOURNAL_LOCK_KEY = 0x6d6362;
/** How long one statement may take before the store is reported unresponsive. */
const DEFAULT_TIMEOUT_MS = 30_000;

function toBuffers(rows: SqlRow[]): SqlRow[] {
  for (const row of rows) for (const k in row) if (row[k] instanceof Uint8Array) row[k] = asBuffer(row[k]);
  return rows;
}

/**
 * The shared store: a PostgreSQL database through the `pg` client, driven synchronously from a
 * worker thread the caller blocks on.
 *
 * Why synchronous. `Journal` (and `SqlDb` under it) is a synchronous contract, as better-sqlite3
 * is. The engine's ordering rules are written as plain statements between its own `await`s: a
 * slice's intent is durable before its world write, a result commits before the next slice is
 * built, the journal head is taken before a prepare's base reads. No other task of the process can
 * run between a journal call and the step that relies on it, so none of these rules depends on
 * which callback ran first. `pg` only speaks promises; instead of making every journal call async,
 * each call here posts its statements to the worker (`PostgresWorker.ts`, one `pg` client, one
 * request at a time) and waits on a shared flag with `Atomics.wait` until the worker signals the
 * reply, then takes it with `receiveMessageOnPort`. The cost: this thread's event loop stands
 * still for the round trip (a loopback statement is well under a millisecond); a transaction's
 * writes are held and sent with its next read or its commit, so most transactions are one round
 * trip. A reply later than `timeoutMs` is a `store_timeout` error, never a hang.
 *
 * Every writing transaction takes
 * one advisory lock (keyed by the journal's schema: one journal per database, or per schema named
 * in the URL's search_path), so transactions from every process on the journal run one at a time,
 * as SQLite's IMMEDIATE transactions do; reads outside transactions see the last commit.
 */
export class PostgresDb implements SqlDb {
  readonly dialect = "postgres" as const;
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag: Int32Array;
  private readonly sqlText = new Map<string, string>();
  private nextId = 1;
  private depth = 0;
  /** Statements of the open transaction not sent yet (its BEGIN first): they go with its next read or its commit. */
  private pending: WireStatement[] = [];
  /** Whether the open transaction's BEGIN reached the server. */
  private begun = false;
  private closed = false;
  /** The URL without its password. */
  readonly where: string;

  constructor(
    url: string,
    private readonly timeoutMs = DEFAULT_TIMEOUT_MS,
  ) {
    this.where = redactUrl(url);
    const signal = new SharedArrayBuffer(4);
    this.flag = new Int32Array(signal);
    const channel = new MessageChannel();
    this.port = channel.port1;
    const start: WireStart = { url, signal };
    this.worker = new Worker(new URL("../../dist/store/PostgresWorker.js", import.meta.url), {
      workerData: { ...start, port: channel.port2 },
      transferList: [channel.port2],
    });
    this.worker.unref();
  }

  private call(req: WireRequest extends infer R ? (R extends WireRequest ? Omit<R, "id"> : never) : never): WireReply & { ok: true } {
    if (this.closed) throw new StoreFailure({ code: "store_unreachable", message: `journal ${this.where} is closed` });
    const id = this.nextId++;
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage({ ...req, id });
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) throw new StoreFailure({ code: "store_timeout", message: `PostgreSQL at ${this.where} did not answer within ${this.timeoutMs} ms` });
      Atomics.wait(this.flag, 0, 0, left);
      const got = receiveMessageOnPort(this.port);
      if (got === undefined) continue;
      const reply = got.message as WireReply;
      if (reply.id !== id) continue; // the late answer to a call that timed out
      if (!reply.ok) throw new StoreFailure(reply.error);
      return reply;
    }
  }

  private text(sql: string): string {
    let t = this.sqlText.get(sql);
    if (t === undefined) {
      t = numberPlaceholders(sql);
      this.sqlText.set(sql, t);
    }
    return t;
  }

  /** Sends what the open transaction holds back, with `last` at the end; the rows and count of `last`. */
  private flush(last: WireStatement | null): { rows: SqlRow[]; changes: number } {
    const statements = last === null ? this.pending : [...this.pending, last];
    this.pending = [];
    if (statements.length === 0) return { rows: [], changes: 0 };
    this.begun = true;
    const r = this.call({ op: "batch", statements });
    return { rows: toBuffers(r.rows), changes: r.changes };
  }

  private statement(sql: string, params: readonly SqlValue[], expect?: WriteCheck): WireStatement {
    return { sql: this.text(sql), params, ...(expect === undefined ? {} : { expect }) };
  }

  run(sql: string, params: readonly SqlValue[] = []): { readonly changes: number } {
    if (this.depth > 0) return { changes: this.flush(this.statement(sql, params)).changes };
    return { changes: this.call({ op: "query", sql: this.text(sql), params }).changes };
  }

  write(sql: string, params: readonly SqlValue[] = [], expect?: WriteCheck): void {
    if (this.depth > 0) {
      this.pending.push(this.statement(sql, params, expect));
      return;
    }
    const { changes } = this.call({ op: "query", sql: this.text(sql), params });
    if (expect !== undefined && changes !== expect.changes) throw new Error(expect.failure);
  }

  all(sql: string, params: readonly SqlValue[] = []): SqlRow[] {
    if (this.depth > 0) return this.flush(this.statement(sql, params)).rows;
    return toBuffers(this.call({ op: "query", sql: this.text(sql), params }).rows);
  }

  get(sql: string, params: readonly SqlValue[] = []): SqlRow | undefined {
    return this.all(sql, params)[0];
  }

  exec(sql: string): void {
    this.call({ op: "exec", sql });
  }

  transaction<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    // One writer per journal: the lock is keyed by the journal's schema.
    this.pending = [
      { sql: "BEGIN", params: [] },
      { sql: `SELECT pg_advisory_xact_lock(${JOURNAL_LOCK_KEY}, hashtext(current_schema()))`, params: [] },
    ];
    this.begun = false;
    this.depth = 1;
    try {
      const out = fn();
      this.depth = 0;
      this.flush({ sql: "COMMIT", params: [] });
      return out;
    } catch (e) {
      this.depth = 0;
      this.pending = [];
      if (this.begun) {
        try {
          this.call({ op: "rollback" });
        } catch {
          // the connection is gone: the server rolls the transaction back itself
        }
      }
      throw e;
    }
  }

  sizeBytes(): number {
    const row = this.get(
      "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS size FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'",
    );
    return Number(row?.["size"] ?? 0);
  }

  close(): void {
    if (this.closed) return;
    try {
      this.call({ op: "close" });
    } catch {
      // closing a broken connection: nothing left to end
    }
    this.closed = true;
    this.port.close();
    void this.worker.terminate();
  }
}
