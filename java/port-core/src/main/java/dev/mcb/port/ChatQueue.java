package dev.mcb.port;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code /ai ...} messages from players, held for the bridge's {@code chat_poll}. The player's
 * UUID and position come from the server, never from the text. Bounded: when full, the oldest
 * message is dropped and the next poll says how many were lost.
 */
public final class ChatQueue {
  public record Message(long id, String playerId, String playerName, String text, Integer x, Integer y, Integer z) {}

  public record Poll(List<Message> messages, long dropped) {}

  public static final int MAX_TEXT = 1024;
  private final int capacity;
  private final ArrayDeque<Message> queue = new ArrayDeque<>();
  private long nextId = 1;
  private long dropped;

  public ChatQueue(int capacity) {
    this.capacity = capacity;
  }

  /** Called by the host for a player's {@code /ai} command; the text is cut to {@link #MAX_TEXT}. */
  public synchronized Message offer(String playerId, String playerName, String text, Integer x, Integer y, Integer z) {
    String t = text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) : text;
    Message m = new Message(nextId++, playerId, playerName, t, x, y, z);
    queue.addLast(m);
    while (queue.size() > capacity) {
      queue.removeFirst();
      dropped++;
    }
    return m;
  }

  public synchronized Poll poll(int max) {
    List<Message> out = new ArrayList<>();
    while (out.size() < max && !queue.isEmpty()) out.add(queue.removeFirst());
    Poll p = new Poll(out, dropped);
    dropped = 0;
    return p;
  }
}
