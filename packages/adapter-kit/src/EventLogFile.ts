import { randomUUID } from "node:crypto";
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { WorldEvent } from "@mcb/engine";

/** One retained event: what `events()` reports, with its sequence in the session. */
export type LoggedEvent = WorldEvent & { readonly seq: number };

interface Header {
  readonly format: 1;
  /** The event session: cursors of another session report a gap. */
  readonly session: string;
  /** Sequence before the first event line (events start at seq0 + 1). */
  readonly seq0: number;
}

/**
 * The persisted event log of a stored memory world (`events.jsonl`: a header line, then one event
 * per line), so that edits made while no engine was reading (another process) are still reported
 * after a restart, with the same session. Each append is fsynced. When the file holds twice the
 * retention, it is rewritten atomically with the newest `retention` events.
 */
export class EventLogFile {
  private readonly path: string;
  private lines = 0;

  constructor(
    dir: string,
    private readonly retention: number,
  ) {
    this.path = join(dir, "events.jsonl");
  }

  /** The stored session and its retained events (a fresh session when there is no file). */
  load(): { session: string; seq: number; log: LoggedEvent[] } {
    if (!existsSync(this.path)) {
      const session = randomUUID();
      this.rewrite({ format: 1, session, seq0: 0 }, []);
      return { session, seq: 0, log: [] };
    }
    const text = readFileSync(this.path, "utf8");
    const rows = text.split("\n");
    const header = JSON.parse(rows[0]!) as Header;
    if (header.format !== 1 || typeof header.session !== "string") throw new Error(`${this.path}: unknown event log format`);
    const log: LoggedEvent[] = [];
    // A torn last line (a crash during an append) is not an event that was reported: skip it.
    for (const row of rows.slice(1)) {
      if (row.length === 0) continue;
      try {
        log.push(JSON.parse(row) as LoggedEvent);
      } catch {
        break;
      }
    }
    this.lines = log.length;
    const seq = log.length === 0 ? header.seq0 : log[log.length - 1]!.seq;
    return { session: header.session, seq, log: log.slice(-this.retention) };
  }

  append(events: readonly LoggedEvent[], session: string): void {
    if (events.length === 0) return;
    const fd = openSync(this.path, "a");
    try {
      writeSync(fd, events.map((e) => `${JSON.stringify(e)}\n`).join(""));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.lines += events.length;
    if (this.lines > 2 * this.retention) this.compact(events, session);
  }

  /** Starts a new session (a host restart): earlier cursors report a gap. */
  reset(session: string): void {
    this.rewrite({ format: 1, session, seq0: 0 }, []);
  }

  private compact(latest: readonly LoggedEvent[], session: string): void {
    const { log } = this.load();
    const keep = log.slice(-this.retention);
    const seq0 = keep.length === 0 ? (latest[latest.length - 1]?.seq ?? 0) : keep[0]!.seq - 1;
    this.rewrite({ format: 1, session, seq0 }, keep);
  }

  private rewrite(header: Header, events: readonly LoggedEvent[]): void {
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, "w");
    try {
      writeSync(fd, [JSON.stringify(header), ...events.map((e) => JSON.stringify(e))].join("\n") + "\n");
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
    this.lines = events.length;
  }
}
