package dev.mcb.port;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A host world for port-core tests: a map of states, a set of loaded chunks, chests as block entities. */
class MapWorld implements WorldAccess {
  final Map<String, String> states = new HashMap<>();
  final Map<String, byte[]> data = new HashMap<>();
  final Set<Long> loaded = new HashSet<>();
  int sets;
  static final byte[] EMPTY = {10, 0, 0, 0};

  MapWorld() {
    for (int cx = -2; cx <= 2; cx++) for (int cz = -2; cz <= 2; cz++) loaded.add(((long) cx << 32) | (cz & 0xFFFFFFFFL));
  }

  private static String key(int x, int y, int z) {
    return x + "," + y + "," + z;
  }

  @Override
  public WorldFacts facts() {
    return new WorldFacts("w", 1, "26.2", 4903, -64, 319, List.of("events"));
  }

  @Override
  public boolean isLoaded(int x, int z) {
    return loaded.contains(((long) (x >> 4) << 32) | ((z >> 4) & 0xFFFFFFFFL));
  }

  @Override
  public String stateAt(int x, int y, int z) {
    return states.getOrDefault(key(x, y, z), "minecraft:air");
  }

  @Override
  public byte[] blockEntityAt(int x, int y, int z) {
    return data.get(key(x, y, z));
  }

  @Override
  public boolean mayHaveBlockEntity(String state) {
    return state.startsWith("minecraft:chest");
  }

  @Override
  public String checkState(String state) {
    return state.startsWith("minecraft:") && !state.contains(" ") ? null : "unknown block state " + state;
  }

  @Override
  public String checkData(String state, byte[] d) {
    return state.startsWith("minecraft:chest") && d.length >= 4 && d[0] == 10 ? null : "not chest NBT";
  }

  @Override
  public void set(int x, int y, int z, String state, byte[] d) {
    sets++;
    String k = key(x, y, z);
    String before = stateAt(x, y, z);
    states.put(k, state);
    if (state.startsWith("minecraft:chest")) {
      if (d != null) data.put(k, d.clone());
      else if (!before.startsWith("minecraft:chest") || !data.containsKey(k)) data.put(k, EMPTY);
    } else data.remove(k);
  }
}
