package dev.mcb.port.minestom;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.minestom.server.instance.block.Block;

/**
 * Canonical state strings ({@code minecraft:id[k=v,...]}, every property, keys sorted) for
 * Minestom blocks, cached by state id.
 */
final class BlockStates {
  private final String[] byStateId = new String[Block.statesCount()];

  /** By state id (a section palette's value). */
  String canonical(int stateId) {
    String s = stateId >= 0 && stateId < byStateId.length ? byStateId[stateId] : null;
    if (s != null) return s;
    Block b = Block.fromStateId(stateId);
    return canonical(b == null ? Block.AIR : b);
  }

  String canonical(Block block) {
    int id = block.stateId();
    String s = id >= 0 && id < byStateId.length ? byStateId[id] : null;
    if (s != null) return s;
    s = format(block);
    if (id >= 0 && id < byStateId.length) byStateId[id] = s;
    return s;
  }

  static String format(Block block) {
    Map<String, String> props = block.properties();
    String name = block.key().asString();
    if (props.isEmpty()) return name;
    List<String> keys = new ArrayList<>(props.keySet());
    keys.sort(null);
    StringBuilder sb = new StringBuilder(name).append('[');
    for (int i = 0; i < keys.size(); i++) {
      if (i > 0) sb.append(',');
      sb.append(keys.get(i)).append('=').append(props.get(keys.get(i)));
    }
    return sb.append(']').toString();
  }

  private static final java.util.concurrent.ConcurrentHashMap<String, java.util.Optional<Block>> PARSED = new java.util.concurrent.ConcurrentHashMap<>();
  private static final int MAX_CACHED = 65_536;

  /** The block of a state string, or null with no such state (parses cached: states are finite). */
  static Block parse(String state) {
    java.util.Optional<Block> hit = PARSED.get(state);
    if (hit != null) return hit.orElse(null);
    Block b;
    try {
      b = Block.fromState(state);
    } catch (RuntimeException e) {
      b = null;
    }
    if (b != null && PARSED.size() < MAX_CACHED) PARSED.put(state, java.util.Optional.of(b)); // unknown strings are not cached
    return b;
  }
}
