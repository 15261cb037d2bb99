package dev.mcb.port.minestom;

import java.util.ArrayList;
import java.util.List;
import net.minestom.server.entity.Player;
import net.minestom.server.instance.InstanceContainer;
import net.minestom.server.network.packet.server.SendablePacket;
import net.minestom.server.network.packet.server.play.MultiBlockChangePacket;

/**
 * What the port changed goes to the players who see it, at the start of a tick ({@link #send}),
 * always with the states the world then holds (a position written twice is sent once, with its
 * last state; a player's edit in between is never undone on their screen).
 *
 * <p>Each chunk keeps its changes not yet sent ({@link PendingChanges}, which also decides when a
 * chunk the port keeps writing waits). A flush sends each touched section as one
 * multi-block-change packet (the game's own batching), or, from {@link #WHOLE_CHUNK} positions on,
 * the chunk whole as one chunk packet, as the game does when a player loads it and as FAWE does
 * after a large edit: a client applies that as one column, not block by block (mineflayer, the
 * live tests' client, spends about 20 µs per block of a multi-block change: a million blocks sent
 * block by block kept it 15 s behind the server, which dropped it for not answering its
 * keep-alive). A chunk sent whole carries the host's light, as for a player who loads it later
 * (the host has no light engine). Used only on the game thread (jobs and the tick hold the same
 * lock).
 */
final class SectionChanges {
  /** Changed positions from which a flush sends the whole chunk (one section is 4096). */
  static final int WHOLE_CHUNK = 1024;
  /**
   * Game-thread time per tick for copying chunks to send whole (about 0.1 ms each); the rest wait
   * for the next tick, first in line. At least one goes out per tick.
   */
  static final long WHOLE_BUDGET_NANOS = 2_000_000;

  /** Chunks with changes not yet sent, longest waiting first. */
  private final List<PortChunk> chunks = new ArrayList<>();
  /** The current tick: writes made now are sent from the next {@link #send} on. */
  private long tick;

  void add(PortChunk chunk, int x, int y, int z) {
    int section = (y >> 4) - chunk.getMinSection();
    if (chunk.pending.add(section, (y & 15) << 8 | (z & 15) << 4 | (x & 15), tick)) chunks.add(chunk);
  }

  void send(InstanceContainer instance) {
    long now = tick++;
    if (chunks.isEmpty()) return;
    boolean nobody = instance.getPlayers().isEmpty(); // nobody to tell: forget without asking each chunk for its viewers
    int kept = 0;
    long wholeSpent = 0;
    for (PortChunk chunk : chunks) {
      PendingChanges p = chunk.pending;
      boolean whole = p.count() >= WHOLE_CHUNK;
      // Still being written, or this tick's copying done: wait (whoever sees it or not; asking that
      // scans the view range around the chunk, so it is asked once per chunk sent, below).
      if (!nobody && (p.waits(now) || whole && wholeSpent >= WHOLE_BUDGET_NANOS)) {
        chunks.set(kept++, chunk);
        continue;
      }
      List<Player> viewers = nobody || !chunk.isLoaded() ? List.of() : List.copyOf(chunk.getViewers());
      long[][] bits = p.flush(now);
      if (viewers.isEmpty()) continue; // a player who loads it later gets it whole
      if (whole) {
        long t0 = System.nanoTime();
        wholeChunk(chunk, viewers);
        wholeSpent += System.nanoTime() - t0;
      } else sections(chunk, bits, viewers);
    }
    chunks.subList(kept, chunks.size()).clear();
  }

  /**
   * The chunk as one packet: a copy of its sections taken now, on the game thread (the port writes
   * palettes without the chunk's lock, so only a copy made here holds one consistent state), whose
   * packet (heightmaps, serialisation, compression) the connection's writer makes off the game
   * thread, once for all viewers.
   */
  private static void wholeChunk(PortChunk chunk, List<Player> viewers) {
    SendablePacket packet = chunk.copy(chunk.getInstance(), chunk.getChunkX(), chunk.getChunkZ()).getFullDataPacket();
    for (Player v : viewers) v.sendPacket(packet);
  }

  /** Each touched section as one multi-block-change packet with the states it now holds. */
  private static void sections(PortChunk chunk, long[][] bits, List<Player> viewers) {
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
}
