package dev.mcb.port;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Block changes made by players and other plugins (never the port's own writes), with cursors
 * {@code session:seq}. A cursor from another session (the server restarted) or older than the
 * retained log gives {@code gap}: the engine then falls back to content checks (docs/DESIGN.md "Change feed").
 */
public final class EventLog {
  public record Event(long seq, int x, int y, int z, String state, String digest) {}

  public record Page(List<Event> events, String cursor, boolean gap) {}

  private final String session = UUID.randomUUID().toString();
  private final int retention;
  private final ArrayDeque<Event> log = new ArrayDeque<>();
  private long seq;
  /** Told of each recorded change after it is logged, on the recording thread (the port's ghosts). */
  private volatile Listener listener;

  /** What is told of a recorded change. */
  @FunctionalInterface
  public interface Listener {
    void changed(int x, int y, int z);
  }

  public EventLog(int retention) {
    if (retention <= 0) throw new IllegalArgumentException("retention must be positive");
    this.retention = retention;
  }

  public void record(int x, int y, int z, String state, String digest) {
    synchronized (this) {
      seq++;
      log.addLast(new Event(seq, x, y, z, state, digest));
      while (log.size() > retention) log.removeFirst();
    }
    Listener l = listener;
    if (l != null) l.changed(x, y, z);
  }

  /** Sets the one listener (the port sets it once, when it is made). */
  public void listen(Listener l) {
    listener = l;
  }

  public synchronized Page after(String cursor) {
    String head = session + ":" + seq;
    if (cursor == null) return new Page(List.of(), head, false);
    int colon = cursor.lastIndexOf(':');
    long after;
    try {
      after = colon < 0 ? -1 : Long.parseLong(cursor.substring(colon + 1));
    } catch (NumberFormatException e) {
      after = -1;
    }
    long oldest = log.isEmpty() ? seq + 1 : log.peekFirst().seq();
    if (colon < 0 || !cursor.substring(0, colon).equals(session) || after < 0 || after > seq || after + 1 < oldest)
      return new Page(List.of(), head, true);
    List<Event> out = new ArrayList<>();
    for (Event e : log) if (e.seq() > after) out.add(e);
    return new Page(out, head, false);
  }
}
