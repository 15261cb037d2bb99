package dev.mcb.port.minestom;

import dev.mcb.port.RegionRead;
import dev.mcb.port.StateNumbers;
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
 * the tick), so reads of several positions are one snapshot. Writes go into the chunk's section
 * palette ({@code Chunk.setBlock}: no neighbour updates, as the engine wrote every state it wants);
 * each touched chunk is marked for the next save once, and each touched section is sent to players
 * once per tick ({@link SectionChanges}). Recent chunks are kept in a small cache: a slice or a read
 * box walks the same few chunks row after row.
 */
final class MinestomWorld implements WorldAccess, StateNumbers {
  private final InstanceContainer instance;
  private final WorldFacts facts;
  private final BlockStates states = new BlockStates();
  private final SectionChanges changes = new SectionChanges();
  /** Chunks written since the last save, as chunk keys. */
  private final Set<Long> dirty = new HashSet<>();
  private final PortChunk[] cache = new PortChunk[64];
  /** Chunks given plain writes in the current job (their heightmaps go stale once, at the end). */
  private final java.util.List<PortChunk> touched = new java.util.ArrayList<>();
  private String parsedA, parsedB;
  private Block blockA, blockB;

  MinestomWorld(InstanceContainer instance, WorldFacts facts) {
    this.instance = instance;
    this.facts = facts;
  }

  @Override
  public WorldFacts facts() {
    return facts;
  }

  /**
   * The loaded chunk holding block (x, z), or null. A direct-mapped cache of 64 chunks (by the low
   * three bits of each chunk coordinate) spares the instance's synchronized map: a slice or a read
   * box walks the same few chunks row after row.
   */
  private PortChunk chunkAt(int x, int z) {
    int cx = x >> 4, cz = z >> 4;
    int slot = (cx & 7) << 3 | (cz & 7);
    PortChunk c = cache[slot];
    if (c != null && c.getChunkX() == cx && c.getChunkZ() == cz && c.isLoaded()) return c;
    Chunk found = instance.getChunk(cx, cz);
    if (!(found instanceof PortChunk pc) || !pc.isLoaded()) return null;
    cache[slot] = pc;
    return pc;
  }

  /**
   * The block of a state string, the last two remembered by identity (a slice compares one state
   * and writes another, over and over).
   */
  private Block parse(String state) {
    if (state == parsedA) return blockA;
    if (state == parsedB) return blockB;
    Block b = BlockStates.parse(state);
    parsedB = parsedA;
    blockB = blockA;
    parsedA = state;
    blockA = b;
    return b;
  }

  @Override
  public boolean isLoaded(int x, int z) {
    return chunkAt(x, z) != null;
  }

  @Override
  public String stateAt(int x, int y, int z) {
    PortChunk c = chunkAt(x, z);
    if (c == null) return states.canonical(instance.getBlock(x, y, z, Block.Getter.Condition.TYPE));
    return states.canonical(c.stateIdAt(x, y, z));
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
    Block b = BlockStates.parse(state); // any thread: a slice is checked where it is decoded
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
    Block block = parse(state);
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
    PortChunk chunk = chunkAt(x, z);
    if (chunk == null) throw new IllegalStateException("chunk of " + x + "," + z + " is not loaded"); // checked before
    // No per-block packet: the section goes out once at the next tick.
    if (block.handler() == null && !block.hasNbt() && !block.registry().isBlockEntity()) place(chunk, x, y, z, block.stateId());
    else {
      chunk.setBlock(x, y, z, block);
      changed(chunk, x, y, z);
    }
  }

  /** A plain block: straight into the section palette where no block entity stands, else through the chunk. */
  private void place(PortChunk chunk, int x, int y, int z, int stateId) {
    if (chunk.plainAt(x, y, z)) {
      chunk.setPlain(x, y, z, stateId);
      if (!chunk.plainTouched) { // its heightmaps and packet go stale at the end of the job (endOfJob)
        chunk.plainTouched = true;
        touched.add(chunk);
      }
    } else chunk.setBlock(x, y, z, Block.fromStateId(stateId));
    changed(chunk, x, y, z);
  }

  /** A written position: sent to players at the next tick, its chunk saved at the next save. */
  private void changed(PortChunk chunk, int x, int y, int z) {
    changes.add(chunk, x, y, z);
    if (!chunk.dirty) {
      chunk.dirty = true;
      markDirty(x, z);
    }
  }

  @Override
  public void endOfJob() {
    for (PortChunk c : touched) {
      c.afterPlainWrites();
      c.plainTouched = false;
    }
    touched.clear();
  }

  @Override
  public boolean readIds(RegionRead.Box box, int[] ids) {
    int i = 0;
    int minY = facts.minY(), maxY = facts.maxY();
    for (int y = box.minY(); y <= box.maxY(); y++) {
      boolean outside = y < minY || y > maxY;
      for (int z = box.minZ(); z <= box.maxZ(); z++) {
        if (outside) {
          java.util.Arrays.fill(ids, i, i + box.maxX() - box.minX() + 1, -1);
          i += box.maxX() - box.minX() + 1;
          continue;
        }
        for (int x = box.minX(); x <= box.maxX(); ) {
          PortChunk c = chunkAt(x, z);
          if (c == null) return false; // checked loaded before; a host without our chunks reads position by position
          var palette = c.getSectionAt(y).blockPalette();
          int end = Math.min(box.maxX(), (x & ~15) + 15);
          for (; x <= end; x++) ids[i++] = palette.get(x & 15, y & 15, z & 15);
        }
      }
    }
    return true;
  }

  @Override
  public int stateNumber(String state) {
    Block b = BlockStates.parse(state); // any thread
    return b == null ? -1 : b.stateId();
  }

  @Override
  public int numberAt(int x, int y, int z) {
    PortChunk c = chunkAt(x, z);
    return c == null ? -1 : c.stateIdAt(x, y, z);
  }

  @Override
  public void setNumber(int x, int y, int z, int number) {
    PortChunk chunk = chunkAt(x, z);
    if (chunk == null) throw new IllegalStateException("chunk of " + x + "," + z + " is not loaded"); // checked before
    place(chunk, x, y, z, number);
  }

  @Override
  public String stateOfId(int id) {
    return states.canonical(id);
  }

  /** At the start of a tick (the tick lock held): the sections the port changed since the last one, to their chunks' viewers. */
  void sendChanges() {
    changes.send(instance);
  }

  void markDirty(int x, int z) {
    synchronized (dirty) {
      dirty.add(chunkKey(x >> 4, z >> 4));
    }
  }

  /** Chunk keys a failed save had taken: changed again, for the next save (any thread). */
  void markDirty(Set<Long> keys) {
    synchronized (dirty) {
      dirty.addAll(keys);
    }
  }

  /** Chunk keys written since the last call. */
  Set<Long> takeDirty() {
    Set<Long> out;
    synchronized (dirty) {
      out = new HashSet<>(dirty);
      dirty.clear();
    }
    for (long key : out) // the next write marks the chunk again (game thread, as every write)
      if (instance.getChunk((int) (key >> 32), (int) key) instanceof PortChunk c) c.dirty = false;
    return out;
  }

  static long chunkKey(int cx, int cz) {
    return ((long) cx << 32) | (cz & 0xFFFFFFFFL);
  }

  private static String shorten(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "…";
  }
}
