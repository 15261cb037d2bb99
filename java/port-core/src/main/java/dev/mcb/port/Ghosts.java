package dev.mcb.port;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Ghost previews (java/PROTOCOL.md "ghost_show"): a plan shown to one player as client-side block
 * changes. The world, the event log and the other players see nothing. A player has at most one
 * ghost (a new one replaces it) of at most {@link #MAX_BLOCKS} blocks, and at most
 * {@link #MAX_GHOSTS} players have one. A ghost is cleared, the player's view set back to the
 * world's blocks, by {@code ghost_clear}, by its time running out, and by any change of the world
 * under it (a player's edit, the port's own write); a player who leaves simply loses it. Every
 * method runs on the game thread.
 */
public final class Ghosts {
  public static final int MAX_BLOCKS = 32_768;
  public static final int MAX_GHOSTS = 16;
  public static final int MAX_TTL_SECONDS = 1800;
  /** Largest |x| and |z| of a ghost's block (what {@link #pack} holds; the world border is 29,999,984). */
  public static final int MAX_COORD = 30_000_000;

  /** One player's ghost: positions sorted (packed), the states shown there, when it ends. */
  private record Ghost(long id, long[] positions, String[] states, long deadlineNanos) {
    boolean covers(long pos) {
      return Arrays.binarySearch(positions, pos) >= 0;
    }
  }

  private final WorldAccess world;
  private final PlayerViews views;
  private final ChatSink sink;
  private final Map<String, Ghost> byPlayer = new HashMap<>();
  private long nextId = 1;

  public Ghosts(WorldAccess world, PlayerViews views, ChatSink sink) {
    this.world = world;
    this.views = views;
    this.sink = sink;
  }

  /** A block position as one long (x and z 26 bits, y 12 bits, as the game packs them). */
  public static long pack(int x, int y, int z) {
    return ((long) (x & 0x3FFFFFF) << 38) | ((long) (z & 0x3FFFFFF) << 12) | (y & 0xFFF);
  }

  public static int x(long p) { return (int) (p >> 38); }
  public static int y(long p) { return (int) (p << 52 >> 52); }
  public static int z(long p) { return (int) (p << 26 >> 38); }

  public boolean isEmpty() {
    return byPlayer.isEmpty();
  }

  /**
   * Shows states to one player, replacing the player's ghost (positions of the old one the new one
   * leaves out get the world's blocks back). Null: the player is not online (nothing stored).
   * Positions are sorted and unique (the caller's codec sorted them), states parallel to them.
   */
  public Long show(String playerId, long[] positions, String[] states, int ttlSeconds) {
    if (!views.online(playerId)) return null;
    Ghost old = byPlayer.remove(playerId);
    if (old == null && byPlayer.size() >= MAX_GHOSTS)
      throw PortError.busy(MAX_GHOSTS + " players have a preview shown; one must end first", "too_many_ghosts");
    if (old != null) restore(playerId, old, positions);
    Ghost g = new Ghost(nextId++, positions, states, System.nanoTime() + ttlSeconds * 1_000_000_000L);
    byPlayer.put(playerId, g);
    views.sendStates(playerId, positions, states);
    return g.id();
  }

  /** Clears the player's ghost (their view gets the world's blocks back); the number of blocks it had, 0 for none. */
  public int clear(String playerId) {
    Ghost g = byPlayer.remove(playerId);
    if (g == null) return 0;
    if (views.online(playerId)) restore(playerId, g, new long[0]);
    return g.positions().length;
  }

  /** The world changed at a position: every ghost over it is cleared, and its player told why. */
  public void changed(int x, int y, int z) {
    if (byPlayer.isEmpty()) return;
    long pos = pack(x, y, z);
    List<String> hit = null;
    for (Map.Entry<String, Ghost> e : byPlayer.entrySet())
      if (e.getValue().covers(pos)) (hit == null ? hit = new ArrayList<>() : hit).add(e.getKey());
    if (hit == null) return;
    for (String player : hit) {
      long id = byPlayer.get(player).id();
      clear(player);
      sink.send(player, "[mcb] preview #" + id + " cleared: the world changed under it at " + x + " " + y + " " + z + " (/ai preview shows it again)");
    }
  }

  /** The leading {@code written} writes of a slice changed the world. */
  public void written(List<CasRequest.Write> writes, int written) {
    if (byPlayer.isEmpty()) return;
    for (int i = 0; i < written && !byPlayer.isEmpty(); i++) {
      CasRequest.Write w = writes.get(i);
      changed(w.x(), w.y(), w.z());
    }
  }

  /** Ends ghosts whose time ran out (the player told) and forgets those of players who left. */
  public void expire() {
    if (byPlayer.isEmpty()) return;
    long now = System.nanoTime();
    for (String player : List.copyOf(byPlayer.keySet())) {
      Ghost g = byPlayer.get(player);
      if (!views.online(player)) byPlayer.remove(player);
      else if (now - g.deadlineNanos() >= 0) {
        clear(player);
        sink.send(player, "[mcb] preview #" + g.id() + " ended: its time ran out (/ai preview shows it again)");
      }
    }
  }

  /** Sends the world's blocks at the old ghost's positions that {@code keep} (sorted) does not cover. */
  private void restore(String playerId, Ghost old, long[] keep) {
    long[] out = new long[old.positions().length];
    int n = 0;
    for (long p : old.positions()) if (Arrays.binarySearch(keep, p) < 0) out[n++] = p;
    long[] positions = Arrays.copyOf(out, n);
    String[] states = new String[n];
    WorldFacts facts = world.facts();
    int k = 0;
    for (long p : positions) {
      int x = x(p), y = y(p), z = z(p);
      // An unloaded chunk is resent whole when the player loads it again: nothing to restore.
      if (y < facts.minY() || y > facts.maxY() || !world.isLoaded(x, z)) continue;
      positions[k] = p;
      states[k++] = world.stateAt(x, y, z);
    }
    if (k > 0) views.sendStates(playerId, Arrays.copyOf(positions, k), Arrays.copyOf(states, k));
  }
}
