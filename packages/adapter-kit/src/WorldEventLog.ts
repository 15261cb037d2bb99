import { randomUUID } from "node:crypto";
import type { EventPage, WorldEvent } from "@mcb/engine";
import { EventLogFile, type LoggedEvent } from "./EventLogFile.js";
import { eventPage } from "./EventPage.js";

/**
 * The events a world reports (the people's edits it observed), numbered in a session: the newest
 * `retention` in memory and, given a folder, every one appended to its `events.jsonl` before it is
 * reported (`EventLogFile`), so a restarted process reports the same session and what was made
 * while no engine was reading.
 */
export class WorldEventLog {
  private readonly file: EventLogFile | null;
  private session: string;
  private seq: number;
  private log: LoggedEvent[];

  constructor(
    dir: string | undefined,
    private readonly retention: number,
  ) {
    this.file = dir === undefined ? null : new EventLogFile(dir, retention);
    ({ session: this.session, seq: this.seq, log: this.log } = this.file?.load() ?? { session: randomUUID(), seq: 0, log: [] });
  }

  /** True when the events are kept on disk (they survive a restart). */
  get persisted(): boolean {
    return this.file !== null;
  }

  /** The events after `cursor` ("session:seq"; null: the head), or a gap (see `eventPage`). */
  page(cursor: string | null): EventPage {
    return eventPage(this.log, this.session, this.seq, cursor);
  }

  /** Numbers and keeps events (on disk first, when persisted); the oldest beyond the retention go. */
  record(events: readonly WorldEvent[]): void {
    const added = events.map((e) => ({ ...e, seq: ++this.seq }));
    this.file?.append(added, this.session);
    this.log.push(...added);
    const excess = this.log.length - this.retention;
    if (excess > 0) this.log.splice(0, excess);
  }

  /** A new session (a host that came back without its events): earlier cursors report a gap. */
  newSession(): void {
    this.session = randomUUID();
    this.seq = 0;
    this.log = [];
    this.file?.reset(this.session);
  }
}
