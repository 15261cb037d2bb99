package dev.mcb.port;

import java.util.List;

/** What {@code info} reports: identity, epoch (changes when the world is restored or replaced), version, height. */
public record WorldFacts(
    String worldId,
    long epoch,
    String minecraftVersion,
    int dataVersion,
    int minY,
    int maxY,
    List<String> capabilities) {
  public WorldFacts {
    capabilities = List.copyOf(capabilities);
  }
}
