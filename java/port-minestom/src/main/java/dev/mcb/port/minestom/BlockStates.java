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

  /** The block of a canonical state string, or null with no such state. */
  static Block parse(String state) {
    try {
      return Block.fromState(state);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
