import type { EventPage } from "@mcb/engine";
import type { LoggedEvent } from "./EventLogFile.js";

/**
 * The page of a retained event log after `cursor` ("session:seq"; null: the head, no events). A
 * cursor of another session, past the head, or older than what is retained is a gap.
 */
export function eventPage(log: readonly LoggedEvent[], session: string, seq: number, cursor: string | null): EventPage {
  const head = `${session}:${seq}`;
  if (cursor === null) return { events: [], cursor: head, gap: false };
  const [from, seqText] = cursor.split(":");
  const after = Number(seqText);
  const oldest = log.length === 0 ? seq + 1 : log[0]!.seq;
  if (from !== session || !Number.isInteger(after) || after > seq || after + 1 < oldest) return { events: [], cursor: head, gap: true };
  return { events: log.filter((e) => e.seq > after).map(({ seq: _seq, ...e }) => e), cursor: head, gap: false };
}
