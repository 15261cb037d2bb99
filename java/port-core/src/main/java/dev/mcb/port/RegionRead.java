package dev.mcb.port;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A box read of at most {@link #MAX_POSITIONS} positions from loaded chunks: palette (first use),
 * one index per position ordered y, then z, then x, and block-entity digests by index. Outside the
 * build height the state is {@code minecraft:void_air}. Optionally carries the block-entity data.
 */
public record RegionRead(List<String> palette, int[] indices, Map<Integer, String> digests, Map<Integer, byte[]> data) {
  public static final int MAX_POSITIONS = 32_768;
  public static final String VOID_AIR = "minecraft:void_air";

  public record Box(int minX, int minY, int minZ, int maxX, int maxY, int maxZ) {
    /**
     * Positions in the box, in 64-bit arithmetic: every side is at most 2^32 (int coordinates), so
     * the product of the three sides can overflow a long too; it saturates at Long.MAX_VALUE.
     */
    public long volume() {
      long sx = (long) maxX - minX + 1, sy = (long) maxY - minY + 1, sz = (long) maxZ - minZ + 1;
      if (sx <= 0 || sy <= 0 || sz <= 0) return 0;
      long xy;
      try {
        xy = Math.multiplyExact(sx, sy);
        return Math.multiplyExact(xy, sz);
      } catch (ArithmeticException e) {
        return Long.MAX_VALUE;
      }
    }
  }

  /** Validates a box against the read limit (any thread); the chunks are checked on the game thread. */
  public static void validate(Box box) {
    if (box.maxX() < box.minX() || box.maxY() < box.minY() || box.maxZ() < box.minZ())
      throw PortError.invalid("read box has min > max", "box");
    if (box.volume() > MAX_POSITIONS) throw PortError.tooLarge("read of " + box.volume() + " positions exceeds " + MAX_POSITIONS, "read_positions", MAX_POSITIONS);
  }

  /** Runs on the game thread: every chunk column of the box must be loaded. */
  public static RegionRead read(WorldAccess world, Box box, boolean withData) {
    validate(box);
    WorldFacts facts = world.facts();
    for (int cx = box.minX() >> 4; cx <= box.maxX() >> 4; cx++)
      for (int cz = box.minZ() >> 4; cz <= box.maxZ() >> 4; cz++)
        if (!world.isLoaded(cx << 4, cz << 4))
          throw new PortError(PortError.Code.CHUNK_NOT_LOADED, "chunk " + cx + "," + cz + " is not loaded (the port never loads or generates chunks)",
              Map.of("reason", "chunk_not_loaded", "chunk", Map.of("x", cx, "z", cz)));
    int[] indices = new int[(int) box.volume()];
    List<String> palette = new ArrayList<>();
    Map<String, Integer> ids = new HashMap<>();
    List<Boolean> entityStates = new ArrayList<>(); // by palette id: may carry a block entity
    Map<Integer, String> digests = new TreeMap<>();
    Map<Integer, byte[]> data = withData ? new TreeMap<>() : Map.of();
    if (world instanceof StateNumbers numbers) {
      int[] hostIds = new int[(int) box.volume()];
      if (numbers.readIds(box, hostIds)) return fromIds(world, numbers, box, hostIds, withData);
    }
    int i = 0;
    String lastState = null;
    int lastId = -1;
    for (int y = box.minY(); y <= box.maxY(); y++) {
      boolean outside = y < facts.minY() || y > facts.maxY();
      for (int z = box.minZ(); z <= box.maxZ(); z++)
        for (int x = box.minX(); x <= box.maxX(); x++, i++) {
          String state = outside ? VOID_AIR : world.stateAt(x, y, z);
          int id;
          if (state == lastState) id = lastId; // the same instance as the position before: most are
          else {
            Integer known = ids.get(state);
            if (known == null) {
              known = palette.size();
              ids.put(state, known);
              palette.add(state);
              entityStates.add(!outside && world.mayHaveBlockEntity(state));
            }
            id = known;
            lastState = state;
            lastId = id;
          }
          indices[i] = id;
          if (!entityStates.get(id)) continue;
          byte[] be = world.blockEntityAt(x, y, z);
          if (be == null) continue;
          digests.put(i, Digests.sha256(be));
          if (withData) data.put(i, be);
        }
    }
    return new RegionRead(palette, indices, digests, data);
  }

  /** A read from the host's state numbers: the palette by first use, block entities only where the state may carry one. */
  private static RegionRead fromIds(WorldAccess world, StateNumbers numbers, Box box, int[] ids, boolean withData) {
    List<String> palette = new ArrayList<>();
    List<Boolean> entityStates = new ArrayList<>();
    Map<Integer, Integer> local = new HashMap<>();
    Map<Integer, String> digests = new TreeMap<>();
    Map<Integer, byte[]> data = withData ? new TreeMap<>() : Map.of();
    int sx = box.maxX() - box.minX() + 1, sz = box.maxZ() - box.minZ() + 1;
    int lastHost = Integer.MIN_VALUE, lastLocal = -1;
    boolean lastEntity = false;
    for (int i = 0; i < ids.length; i++) {
      int host = ids[i];
      if (host != lastHost) {
        Integer known = local.get(host);
        if (known == null) {
          known = palette.size();
          local.put(host, known);
          String state = host < 0 ? VOID_AIR : numbers.stateOfId(host);
          palette.add(state);
          entityStates.add(host >= 0 && world.mayHaveBlockEntity(state));
        }
        lastHost = host;
        lastLocal = known;
        lastEntity = entityStates.get(known);
      }
      ids[i] = lastLocal;
      if (!lastEntity) continue;
      int x = box.minX() + i % sx, z = box.minZ() + (i / sx) % sz, y = box.minY() + i / (sx * sz);
      byte[] be = world.blockEntityAt(x, y, z);
      if (be == null) continue;
      digests.put(i, Digests.sha256(be));
      if (withData) data.put(i, be);
    }
    return new RegionRead(palette, ids, digests, data);
  }
}
