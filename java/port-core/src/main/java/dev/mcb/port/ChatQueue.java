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
  /** {@code yaw}/{@code pitch}: the player's view direction in degrees (Minecraft convention), or null. */
  public record Message(long id, String playerId, String playerName, String text, Integer x, Integer y, Integer z, Float yaw, Float pitch) {}

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
    return offer(playerId, playerName, text, x, y, z, null, null);
  }

  /** The same with the player's view direction (for {@code /ai camera save}). */
  public synchronized Message offer(String playerId, String playerName, String text, Integer x, Integer y, Integer z, Float yaw, Float pitch) {
    String t = text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) : text;
    Message m = new Message(nextId++, playerId, playerName, t, x, y, z, yaw, pitch);
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
