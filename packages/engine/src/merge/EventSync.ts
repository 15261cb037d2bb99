import type { TouchJournal } from "../store/Journal.js";
import type { WorldAdapter } from "../world/WorldAdapter.js";

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
  /**
   * The cursor this engine last read or stored (undefined: ask the journal). Every event before it
   * is in the journal, so when the world has nothing after it there is nothing to pull, and no
   * journal read is needed (on a shared journal a round trip before every slice). When another
   * bridge moved the stored cursor on, a conditional write says so and the stored one is read.
   */
  private known: string | null | undefined = undefined;

  constructor(
    private readonly adapter: WorldAdapter,
    private readonly journal: TouchJournal,
  ) {}

  /** At engine open: resumes from the saved cursor, or starts at the world's head (a new journal). */
  async start(): Promise<void> {
    if (this.journal.eventCursor() === null) {
      const head = (await this.adapter.events(null)).cursor;
      if (this.journal.saveEventCursor(head, null)) this.known = head;
      return;
    }
    await this.sync();
  }

  sync(): Promise<void> {
    const run = async (): Promise<void> => {
      let afterGap: string | null = null;
      for (let round = 0; round < 1000; round++) {
        const cursor = this.known !== undefined ? this.known : this.journal.eventCursor();
        const page = await this.adapter.events(cursor);
        // Each conditional write that lands moves the known cursor on; one that does not (another
        // bridge recorded this page first) sends the next round to the journal's cursor.
        if (page.gap) {
          if (cursor === afterGap) throw new Error("the world's event log reports a gap at the cursor it just gave");
          this.known = this.journal.markGap(page.cursor, cursor) > 0 ? page.cursor : undefined;
          afterGap = page.cursor;
          continue;
        }
        if (page.events.length === 0) {
          if (page.cursor === cursor) {
            this.known = cursor;
            return;
          }
          this.known = this.journal.saveEventCursor(page.cursor, cursor) ? page.cursor : undefined;
          return;
        }
        const touched = new Int32Array(page.events.length * 3);
        page.events.forEach((e, i) => touched.set([e.x, e.y, e.z], i * 3));
        const seq = this.journal.addTouches(
          touched,
          page.events.map((e) => e.state),
          { eventCursor: page.cursor, fromCursor: cursor },
        );
        this.known = seq > 0 ? page.cursor : undefined;
      }
    };
    const next = this.running.then(run, run);
    // A failed round (the world or the store) may have left the journal ahead of what this knows.
    this.running = next.catch(() => {
      this.known = undefined;
    });
    return next;
  }
}
