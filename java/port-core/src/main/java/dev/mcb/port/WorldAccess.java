package dev.mcb.port;

/**
 * The host's world, as the port sees it: canonical state strings ({@code minecraft:id[k=v,...]},
 * every property, keys sorted) and block-entity data as canonical NBT bytes (unnamed root compound,
 * keys sorted, no position or id keys). Every method that reads or writes the world is called on the
 * game thread (or exclusive of the game's tick), never concurrently; {@link #checkState},
 * {@link #checkData}, {@link #mayHaveBlockEntity} only look at the registry and are called from any thread (a slice
 * is checked where it is decoded). Nothing here loads or generates a chunk. A host that keeps blocks
 * as numbers implements {@link StateNumbers} as well; the port then compares, writes and reads plain
 * blocks by number.
 */
public interface WorldAccess {
  WorldFacts facts();

  /** True when the chunk column holding block (x, z) is loaded. */
  boolean isLoaded(int x, int z);

  /** Canonical state at a position inside the build height of a loaded chunk. */
  String stateAt(int x, int y, int z);

  /** Canonical NBT of the block entity at a position, or null for a plain block. */
  byte[] blockEntityAt(int x, int y, int z);

  /**
   * False when a block in this state never carries a block entity, so readers skip
   * {@link #blockEntityAt} (a second lookup per position) for plain blocks. True is always safe.
   */
  boolean mayHaveBlockEntity(String state);

  /** Null when the string is a canonical state the host can place; otherwise the reason. */
  String checkState(String state);

  /** Null when the bytes are NBT the host accepts as block-entity data for this state; otherwise the reason. */
  String checkData(String state, byte[] data);

  /**
   * Places a state. {@code data} null: a block of the same type keeps its block-entity data, a new
   * block entity gets defaults. Raises no event of the port's own log.
   */
  void set(int x, int y, int z, String state, byte[] data);

  /**
   * Called on the game thread at the end of every job that may have written (one compare-and-set
   * slice): a host that batches what players are sent (one packet per section) sends it here.
   */
  default void endOfJob() {}
}
