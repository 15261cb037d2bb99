package dev.mcb.port.minestom;

import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import java.util.ArrayList;
import java.util.List;
import net.minestom.server.instance.DynamicChunk;
import net.minestom.server.instance.Instance;
import net.minestom.server.instance.Section;
import net.minestom.server.instance.block.Block;

/**
 * The host's chunks (Minestom's {@code DynamicChunk}, made by the instance's chunk supplier): what
 * the port needs beyond it is a state id without a {@code Block} lookup, and a copy of everything a
 * save writes, taken on the game thread so the saver thread can encode and write it while the game
 * goes on.
 */
final class PortChunk extends DynamicChunk {
  /** Game thread only: given plain writes in the current job (heightmaps stale at its end). */
  boolean plainTouched;
  /** Game thread only: changed since the last save took it (the save's set holds its key). */
  boolean dirty;

  /** Game thread only: what the port changed here that players have not been sent yet; see SectionChanges. */
  final PendingChanges pending;

  PortChunk(Instance instance, int chunkX, int chunkZ) {
    super(instance, chunkX, chunkZ);
    pending = new PendingChanges(sectionCount());
  }

  /** Ticked on Minestom's dispatcher thread, which every tick waits for: that thread first too. */
  @Override
  public void tick(long time) {
    TickGate.urgent();
    super.tick(time);
  }

  int sectionCount() {
    return maxSection - minSection;
  }

  /** The block state id at a position inside the build height (the section palette's value). */
  int stateIdAt(int x, int y, int z) {
    return getSectionAt(y).blockPalette().get(x & 15, y & 15, z & 15);
  }

  /**
   * Writes a block without a block entity or handler straight into its section palette, where no
   * block entity stands (callers check {@link #plainAt}); the heightmaps are brought up to date at
   * the end of the job ({@link #afterPlainWrites}) instead of after every block.
   */
  void setPlain(int x, int y, int z, int stateId) {
    getSectionAt(y).blockPalette().set(x & 15, y & 15, z & 15, stateId);
  }

  /** True when no block entity or handler is recorded at the position (a plain write may replace it). */
  boolean plainAt(int x, int y, int z) {
    return entries.isEmpty() || !entries.containsKey(net.minestom.server.coordinate.CoordConversion.chunkBlockIndex(x, y, z));
  }

  /** After plain writes: the cached chunk packet is stale and the heightmaps are recomputed when next asked for. */
  void afterPlainWrites() {
    invalidate();
  }

  /** A copy of what a save writes (sections, block entities, root tags, heightmaps), on the game thread. */
  SavedChunk snapshot() {
    List<Section> copy = new ArrayList<>(sections.size());
    for (Section s : sections) copy.add(s.clone());
    getHeightmaps(); // brings both heightmaps up to date when a change asked for a full refresh
    Int2ObjectOpenHashMap<Block> blockEntities = entries.clone();
    return new SavedChunk(chunkX, chunkZ, minSection, List.copyOf(copy), blockEntities, tagHandler().asCompound(),
        motionBlockingHeightmap().getNBT(), worldSurfaceHeightmap().getNBT(), instance.getWorldAge());
  }
}
