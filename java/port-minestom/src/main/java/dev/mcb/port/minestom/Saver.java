package dev.mcb.port.minestom;

import dev.mcb.port.Persistence;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.minestom.server.instance.Chunk;
import net.minestom.server.instance.InstanceContainer;

/**
 * Saves the chunks the port wrote (and those players changed) to the Anvil folder, in the two halves
 * {@link Persistence} asks for: on the game thread each pass takes the changed chunks and copies
 * them a tick budget at a time ({@link PortChunk#snapshot}: palettes, light, block entities, tags);
 * on the saver thread it encodes and writes the copies. A kill -9 loses what was written since the
 * last completed save, as on any Minecraft server; the engine learns which writes were saved
 * ({@code saved_through}) and checks the others against the world after a restart.
 */
final class Saver implements Persistence {
  private final InstanceContainer instance;
  private final MinestomWorld world;
  private final SaveLoader loader;

  Saver(InstanceContainer instance, MinestomWorld world, SaveLoader loader) {
    this.instance = instance;
    this.world = world;
    this.loader = loader;
  }

  @Override
  public Pass begin() {
    Set<Long> taken = world.takeDirty();
    ArrayDeque<Long> keys = new ArrayDeque<>(taken);
    List<SavedChunk> copies = new ArrayList<>(keys.size());
    return new Pass() {
      @Override
      public void abandon() {
        world.markDirty(taken);
      }

      @Override
      public boolean copy(long budgetNanos) {
        long t0 = System.nanoTime();
        do {
          Long key = keys.poll();
          if (key == null) break;
          Chunk c = instance.getChunk((int) (key >> 32), (int) (long) key);
          if (c instanceof PortChunk p) copies.add(p.snapshot());
        } while (System.nanoTime() - t0 < budgetNanos);
        return !keys.isEmpty();
      }

      @Override
      public int write() {
        for (SavedChunk c : copies) loader.write(c);
        int n = copies.size();
        copies.clear();
        return n;
      }
    };
  }

  /** At shutdown, exclusive of the tick (no port jobs run any more): every loaded chunk, through the same writer. */
  void saveAll() {
    world.takeDirty();
    instance.saveChunksToStorage().join();
  }
}
