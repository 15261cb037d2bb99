package dev.mcb.port.minestom;

import dev.mcb.port.WorldAccess;
import dev.mcb.port.WorldFacts;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import net.kyori.adventure.nbt.CompoundBinaryTag;
import net.minestom.server.instance.Chunk;
import net.minestom.server.instance.InstanceContainer;
import net.minestom.server.instance.block.Block;

/**
 * The port's view of one Minestom instance. Called only by drained game-thread jobs (exclusive of
 * the tick), so reads of several positions are one snapshot. Writes go through
 * {@code setBlock(..., false)}: no neighbour updates, as the engine wrote every state it wants.
 */
final class MinestomWorld implements WorldAccess {
  private final InstanceContainer instance;
  private final WorldFacts facts;
  private final BlockStates states = new BlockStates();
  private final SectionChanges changes = new SectionChanges();
  /** Chunks written since the last save, as chunk keys. */
  private final Set<Long> dirty = new HashSet<>();

  MinestomWorld(InstanceContainer instance, WorldFacts facts) {
    this.instance = instance;
    this.facts = facts;
  }

  @Override
  public WorldFacts facts() {
    return facts;
  }

  @Override
  public boolean isLoaded(int x, int z) {
    Chunk c = instance.getChunk(x >> 4, z >> 4);
    return c != null && c.isLoaded();
  }

  @Override
  public String stateAt(int x, int y, int z) {
    return states.canonical(instance.getBlock(x, y, z, Block.Getter.Condition.TYPE));
  }

  @Override
  public byte[] blockEntityAt(int x, int y, int z) {
    Block type = instance.getBlock(x, y, z, Block.Getter.Condition.TYPE);
    if (!type.registry().isBlockEntity()) return null;
    Block full = instance.getBlock(x, y, z);
    CompoundBinaryTag nbt = full.nbt();
    return CanonicalNbt.encode(nbt == null ? CompoundBinaryTag.empty() : nbt);
  }

  @Override
  public boolean mayHaveBlockEntity(String state) {
    Block b = BlockStates.parse(state);
    return b == null || b.registry().isBlockEntity();
  }

  @Override
  public String checkState(String state) {
    Block b = BlockStates.parse(state);
    if (b == null) return "unknown block state " + shorten(state);
    String canonical = states.canonical(b);
    if (!canonical.equals(state)) return "not a canonical state string (expected " + shorten(canonical) + ")";
    return null;
  }

  @Override
  public String checkData(String state, byte[] data) {
    Block b = BlockStates.parse(state);
    if (b == null || !b.registry().isBlockEntity()) return "block-entity data for a block without a block entity";
    try {
      CanonicalNbt.decode(data);
      return null;
    } catch (IOException | RuntimeException e) {
      return "block-entity data is not an uncompressed NBT compound";
    }
  }

  @Override
  public void set(int x, int y, int z, String state, byte[] data) {
    Block block = BlockStates.parse(state);
    if (block == null) throw new IllegalArgumentException("unknown state " + state); // validated before
    if (block.registry().isBlockEntity()) {
      CompoundBinaryTag nbt = null;
      if (data != null) {
        try {
          nbt = CanonicalNbt.decode(data);
        } catch (IOException e) {
          throw new IllegalArgumentException("bad block-entity data", e); // validated before
        }
      } else {
        Block current = instance.getBlock(x, y, z);
        if (current.key().equals(block.key()) && current.nbt() != null) nbt = current.nbt();
      }
      if (nbt != null) block = block.withNbt(nbt);
    }
    Chunk chunk = instance.getChunk(x >> 4, z >> 4);
    chunk.setBlock(x, y, z, block); // no per-block packet: endOfJob sends one per section
    changes.add(x, y, z, block.stateId());
    markDirty(x, z);
  }

  @Override
  public void endOfJob() {
    changes.send(instance);
  }

  void markDirty(int x, int z) {
    synchronized (dirty) {
      dirty.add(chunkKey(x >> 4, z >> 4));
    }
  }

  /** Chunk keys written since the last call. */
  Set<Long> takeDirty() {
    synchronized (dirty) {
      Set<Long> out = new HashSet<>(dirty);
      dirty.clear();
      return out;
    }
  }

  static long chunkKey(int cx, int cz) {
    return ((long) cx << 32) | (cz & 0xFFFFFFFFL);
  }

  private static String shorten(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "…";
  }
}
