package dev.mcb.port.minestom;

import dev.mcb.port.Persistence;
import dev.mcb.port.PortLog;
import java.util.Set;
import java.util.logging.Logger;
import net.minestom.server.instance.Chunk;
import net.minestom.server.instance.InstanceContainer;

/**
 * Saves the chunks the port wrote to the Anvil folder. It runs as a port job (on the game thread,
 * exclusive of compare-and-set slices), so the port's {@code SaveLedger} marks around it are exact:
 * the port's {@code flush} method, and the autosave every {@code --autosave-ms}. A kill -9 loses
 * what was written since the last save, as on any Minecraft server; the engine learns which writes
 * were saved ({@code saved_through}) and checks the others against the world after a restart.
 */
final class Saver implements Persistence {
  private static final Logger LOG = PortLog.get(Saver.class);
  private final InstanceContainer instance;
  private final MinestomWorld world;

  Saver(InstanceContainer instance, MinestomWorld world) {
    this.instance = instance;
    this.world = world;
  }

  @Override
  public int saveWritten() {
    long t0 = System.nanoTime();
    Set<Long> dirty = world.takeDirty();
    int saved = 0;
    for (long key : dirty) {
      Chunk c = instance.getChunk((int) (key >> 32), (int) key);
      if (c == null) continue;
      instance.saveChunkToStorage(c).join();
      saved++;
    }
    if (saved > 0) {
      int n = saved;
      LOG.info(() -> String.format("saved %d chunks in %.1f ms", n, (System.nanoTime() - t0) / 1e6));
    }
    return saved;
  }

  /** At shutdown (no port jobs run any more): every loaded chunk. */
  void saveAll() {
    long t0 = System.nanoTime();
    world.takeDirty();
    instance.saveChunksToStorage().join();
    LOG.info(() -> String.format("saved every loaded chunk at shutdown in %.1f ms", (System.nanoTime() - t0) / 1e6));
  }
}
