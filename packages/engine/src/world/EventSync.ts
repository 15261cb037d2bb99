import type { Journal } from "../store/Journal.js";
import type { WorldAdapter } from "./WorldAdapter.js";

/**
 * Pulls the world's observed external edits into the journal as touches (undo ownership, the
 * merge's TOUCHED bit, region_changes). The event cursor lives in the journal, saved with the
 * touches it pulled, so edits made while no engine ran (another process, `mcb edit`) are pulled
 * when the next one opens. When the world's log lost continuity (a host restart, a cursor older
 * than its retention) the journal records a gap: change cursors from before it must resync.
 * Calls are serialized. Bridges sharing the journal pull the same log: each page is recorded
 * only if the stored cursor is still the one it was pulled from (else another bridge recorded it,
 * and the next round goes on from where that one left the cursor).
 */
export class EventSync {
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly adapter: WorldAdapter,
    private readonly journal: Journal,
  ) {}

  /** At engine open: resumes from the saved cursor, or starts at the world's head (a new journal). */
  async start(): Promise<void> {
    if (this.journal.eventCursor() === null) {
      this.journal.saveEventCursor((await this.adapter.events(null)).cursor, null);
      return;
    }
    await this.sync();
  }

  sync(): Promise<void> {
    const run = async (): Promise<void> => {
      let afterGap: string | null = null;
      for (let round = 0; round < 1000; round++) {
        const cursor = this.journal.eventCursor();
        const page = await this.adapter.events(cursor);
        if (page.gap) {
          if (cursor === afterGap) throw new Error("the world's event log reports a gap at the cursor it just gave");
          this.journal.markGap(page.cursor, cursor);
          afterGap = page.cursor;
          continue;
        }
        if (page.events.length === 0) {
          if (page.cursor !== cursor) this.journal.saveEventCursor(page.cursor, cursor);
          return;
        }
        const touched = new Int32Array(page.events.length * 3);
        page.events.forEach((e, i) => touched.set([e.x, e.y, e.z], i * 3));
        this.journal.addTouches(
          touched,
          page.events.map((e) => e.state),
          { eventCursor: page.cursor, fromCursor: cursor },
        );
      }
    };
    const next = this.running.then(run, run);
    this.running = next.catch(() => undefined);
    return next;
  }
}
