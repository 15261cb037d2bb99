package dev.mcb.port.minestom;

import net.minestom.server.instance.Chunk;
import net.minestom.server.instance.InstanceContainer;

/**
 * Saves written chunks to the Anvil folder: periodically (on the tick thread, so never in the
 * middle of a port job) and on shutdown. A kill -9 loses what was written since the last save, as
 * on any Minecraft server; the engine's recovery review then reports those blocks at their base.
 */
final class Saver {
  private final InstanceContainer instance;
  private final MinestomWorld world;

  Saver(InstanceContainer instance, MinestomWorld world) {
    this.instance = instance;
    this.world = world;
  }

  void saveDirty() {
    for (long key : world.takeDirty()) {
      Chunk c = instance.getChunk((int) (key >> 32), (int) key);
      if (c != null) instance.saveChunkToStorage(c).join();
    }
  }

  void saveAll() {
    world.takeDirty();
    instance.saveChunksToStorage().join();
  }
}
