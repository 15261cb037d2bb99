package dev.mcb.port;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The port's {@code ghost_show} and {@code ghost_clear} (java/PROTOCOL.md): requests decoded and
 * bounded here, on the caller's thread, then run as game-thread jobs over {@link Ghosts}. A timer
 * asks once a second for ghosts whose time ran out or whose player left.
 */
final class GhostMethods {
  private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
  private static final int DEFAULT_TTL_SECONDS = 300;

  private final WorldAccess world;
  private final Ghosts ghosts;
  private final Port.GameJobs game;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "mcb-port-ghosts");
    t.setDaemon(true);
    return t;
  });

  GhostMethods(WorldAccess world, Ghosts ghosts, TickScheduler scheduler, Port.GameJobs game) {
    this.world = world;
    this.ghosts = ghosts;
    this.game = game;
    timer.scheduleWithFixedDelay(() -> scheduler.submit(() -> {
      ghosts.expire();
      return null;
    }), 1, 1, TimeUnit.SECONDS);
  }

  void close() {
    timer.shutdownNow();
  }

  private static String player(JsonObject p) {
    String id = Json.string(p, "player_id", "", 36, false);
    if (!id.matches(UUID)) throw PortError.invalid("must be a lowercase UUID", "player_id");
    return id;
  }

  /** {player_id, palette: [state…], blocks: [x, y, z, palette index, …], ttl_s?} → {delivered, ghost_id?, shown}. */
  JsonObject show(JsonObject p) {
    Json.onlyKeys(p, "", Set.of("player_id", "palette", "blocks", "ttl_s"));
    String player = player(p);
    int ttl = p.has("ttl_s") ? Json.integer(p, "ttl_s", "") : DEFAULT_TTL_SECONDS;
    if (ttl < 1 || ttl > Ghosts.MAX_TTL_SECONDS) throw PortError.invalid("must be 1.." + Ghosts.MAX_TTL_SECONDS, "ttl_s");
    JsonArray palette = Json.array(p, "palette", "", false);
    if (palette.isEmpty() || palette.size() > Port.MAX_CHECKS) throw PortError.invalid("must hold 1.." + Port.MAX_CHECKS + " states", "palette");
    String[] states = new String[palette.size()];
    for (int i = 0; i < states.length; i++) {
      String path = "palette[" + i + "]";
      if (!palette.get(i).isJsonPrimitive() || !palette.get(i).getAsJsonPrimitive().isString()) throw PortError.invalid("must be a state string", path);
      String s = palette.get(i).getAsString();
      if (s.length() > Port.MAX_STATE) throw PortError.invalid("longer than " + Port.MAX_STATE + " characters", path);
      String why = world.checkState(s);
      if (why != null) throw new PortError(PortError.Code.UNSUPPORTED_BLOCK, why, Map.of("path", path));
      states[i] = s;
    }
    JsonArray blocks = Json.array(p, "blocks", "", false);
    if (blocks.size() % 4 != 0) throw PortError.invalid("must be x, y, z, palette index for each block", "blocks");
    int n = blocks.size() / 4;
    if (n == 0) throw PortError.invalid("must hold at least one block", "blocks");
    if (n > Ghosts.MAX_BLOCKS) throw PortError.tooLarge(n + " blocks; a preview shows at most " + Ghosts.MAX_BLOCKS, "blocks", Ghosts.MAX_BLOCKS);
    WorldFacts facts = world.facts();
    Map<Long, String> byPos = new HashMap<>(n * 2);
    for (int i = 0; i < n; i++) {
      String path = "blocks[" + i * 4 + "]";
      int x = Json.integer(blocks.get(i * 4), path), y = Json.integer(blocks.get(i * 4 + 1), path), z = Json.integer(blocks.get(i * 4 + 2), path);
      int s = Json.integer(blocks.get(i * 4 + 3), path);
      if (s < 0 || s >= states.length) throw PortError.invalid("palette index out of range", path);
      if (y < facts.minY() || y > facts.maxY() || Math.abs(x) > Ghosts.MAX_COORD || Math.abs(z) > Ghosts.MAX_COORD)
        throw new PortError(PortError.Code.OUT_OF_BOUNDS, x + " " + y + " " + z + " is outside the world", Map.of("path", path));
      byPos.put(Ghosts.pack(x, y, z), states[s]);
    }
    long[] positions = byPos.keySet().stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(positions);
    String[] shown = new String[positions.length];
    for (int i = 0; i < positions.length; i++) shown[i] = byPos.get(positions[i]);
    Long id = game.run(() -> ghosts.show(player, positions, shown, ttl));
    JsonObject o = new JsonObject();
    o.addProperty("delivered", id != null);
    if (id != null) o.addProperty("ghost_id", id);
    o.addProperty("shown", id == null ? 0 : positions.length);
    return o;
  }

  /** {player_id} → {cleared: blocks set back to the world's}. */
  JsonObject clear(JsonObject p) {
    Json.onlyKeys(p, "", Set.of("player_id"));
    String player = player(p);
    int cleared = game.run(() -> ghosts.clear(player));
    JsonObject o = new JsonObject();
    o.addProperty("cleared", cleared);
    return o;
  }
}
