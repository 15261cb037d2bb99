package dev.mcb.port.minestom;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import net.minestom.server.entity.Player;
import net.minestom.server.instance.Chunk;
import net.minestom.server.instance.InstanceContainer;
import net.minestom.server.network.packet.server.play.MultiBlockChangePacket;

/**
 * Block changes of one port job, grouped by 16³ section and sent to each chunk's viewers as one
 * multi-block-change packet per section (the game's own batching), instead of a packet per block
 * whose viewer lookup dominated the cost of a slice.
 */
final class SectionChanges {
  /** A growable list of encoded block changes. */
  private static final class Changes {
    long[] v = new long[64];
    int n;

    void add(long x) {
      if (n == v.length) v = Arrays.copyOf(v, n * 2);
      v[n++] = x;
    }
  }

  private final Map<Long, Changes> bySection = new LinkedHashMap<>();

  void add(int x, int y, int z, int stateId) {
    long section = ((long) (x >> 4) & 0x3FFFFF) << 42 | ((long) (z >> 4) & 0x3FFFFF) << 20 | ((long) (y >> 4) & 0xFFFFF);
    Changes list = bySection.computeIfAbsent(section, k -> new Changes());
    list.add(((long) stateId << 12) | ((x & 15) << 8) | ((z & 15) << 4) | (y & 15));
  }

  void send(InstanceContainer instance) {
    if (bySection.isEmpty()) return;
    for (var e : bySection.entrySet()) {
      long s = e.getKey();
      int sx = (int) (s << 0 >> 42), sz = (int) (s << 22 >> 42), sy = (int) (s << 44 >> 44);
      Chunk chunk = instance.getChunk(sx, sz);
      if (chunk == null) continue;
      Set<? extends Player> viewers = chunk.getViewers();
      if (viewers.isEmpty()) continue;
      MultiBlockChangePacket packet = new MultiBlockChangePacket(sx, sy, sz, Arrays.copyOf(e.getValue().v, e.getValue().n));
      for (Player p : viewers) p.sendPacket(packet);
    }
    bySection.clear();
  }
}
