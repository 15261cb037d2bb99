package dev.mcb.port;

/**
 * What a host can show one player without changing the world (optional: the host's {@link ChatSink}
 * implements it too). The port then serves ghost previews ({@link Ghosts}, capability
 * {@code ghosts}): client-side block changes the world, its log and the other players never see.
 */
public interface PlayerViews {
  /** True while the player is online in the port's world. Game thread. */
  boolean online(String playerId);

  /**
   * Sends block changes to this player's client only: {@code positions} packed with
   * {@link Ghosts#pack}, {@code states} canonical states the host can place (checked). The world is
   * not touched. Game thread.
   */
  void sendStates(String playerId, long[] positions, String[] states);
}
