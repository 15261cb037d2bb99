package dev.mcb.port.paper;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import org.bukkit.Bukkit;
import org.bukkit.block.data.BlockData;

/**
 * Canonical state strings for Bukkit block data (mirror of port-minestom's BlockStates): Bukkit's
 * {@code getAsString()} lists every property in the game's order; we sort them by key.
 */
final class PaperBlockStates {
  private final ConcurrentHashMap<String, String> canonicalOf = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, BlockData> parsed = new ConcurrentHashMap<>();

  String canonical(BlockData data) {
    return canonicalOf.computeIfAbsent(data.getAsString(), PaperBlockStates::sortProperties);
  }

  static String sortProperties(String s) {
    int open = s.indexOf('[');
    if (open < 0) return s;
    String[] props = s.substring(open + 1, s.length() - 1).split(",");
    Arrays.sort(props, (a, b) -> a.substring(0, a.indexOf('=')).compareTo(b.substring(0, b.indexOf('='))));
    return s.substring(0, open) + "[" + String.join(",", props) + "]";
  }

  /** The block data of a state string, or null with no such state. */
  BlockData parse(String state) {
    BlockData hit = parsed.get(state);
    if (hit != null) return hit;
    try {
      BlockData d = Bukkit.createBlockData(state);
      if (parsed.size() < 65_536) parsed.put(state, d);
      return d;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
