package dev.mcb.port.minestom;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.minestom.server.entity.Player;
import net.minestom.server.instance.InstanceContainer;
import net.minestom.server.network.packet.server.play.MultiBlockChangePacket;

/**
 * The positions the port changed since the last tick, one 4096-bit set per 16³ section kept on the
 * chunk ({@link PortChunk#changedBits}). At the start of the next tick ({@link #send}) each touched
 * section goes to the viewers of its chunk as one multi-block-change packet carrying the states the
 * section then holds (the game's own batching), however many slices wrote it: a position written
 * twice is sent once, with its last state. Sent before the tick's player actions, so a player's
 * edit in that tick reaches clients after ours. Used only on the game thread (jobs and the tick
 * hold the same lock).
 */
final class SectionChanges {
  /** Chunks with changed sections since the last send. */
  private final List<PortChunk> chunks = new ArrayList<>();

  void add(PortChunk chunk, int x, int y, int z) {
    long[][] bits = chunk.changedBits;
    if (bits == null) {
      bits = chunk.changedBits = new long[chunk.sectionCount()][];
      chunks.add(chunk);
    }
    int s = (y >> 4) - chunk.getMinSection();
    long[] section = bits[s];
    if (section == null) section = bits[s] = new long[64];
    int i = (y & 15) << 8 | (z & 15) << 4 | (x & 15);
    section[i >>> 6] |= 1L << i;
  }

  void send(InstanceContainer instance) {
    if (chunks.isEmpty()) return;
    if (instance.getPlayers().isEmpty()) { // nobody to tell: forget the changes without asking each chunk for its viewers
      for (PortChunk chunk : chunks) chunk.changedBits = null;
      chunks.clear();
      return;
    }
    for (PortChunk chunk : chunks) {
      long[][] bits = chunk.changedBits;
      chunk.changedBits = null;
      if (!chunk.isLoaded()) continue;
      Set<? extends Player> viewers = chunk.getViewers();
      if (viewers.isEmpty()) continue;
      int sx = chunk.getChunkX(), sz = chunk.getChunkZ();
      for (int s = 0; s < bits.length; s++) {
        long[] section = bits[s];
        if (section == null) continue;
        int sy = s + chunk.getMinSection();
        int n = 0;
        for (long w : section) n += Long.bitCount(w);
        long[] blocks = new long[n];
        int k = 0;
        for (int word = 0; word < 64; word++) {
          for (long w = section[word]; w != 0; w &= w - 1) {
            int i = word << 6 | Long.numberOfTrailingZeros(w);
            int lx = i & 15, lz = (i >> 4) & 15, ly = i >> 8;
            int state = chunk.stateIdAt(sx * 16 + lx, sy * 16 + ly, sz * 16 + lz);
            blocks[k++] = ((long) state << 12) | (lx << 8) | (lz << 4) | ly;
          }
        }
        MultiBlockChangePacket packet = new MultiBlockChangePacket(sx, sy, sz, blocks);
        for (Player p : viewers) p.sendPacket(packet);
      }
    }
    chunks.clear();
  }
}
