package dev.mcb.port;

/** The host's way to show a reply to one player. */
public interface ChatSink {
  /** False when the player is not online. Any thread. */
  boolean send(String playerId, String text);
}
