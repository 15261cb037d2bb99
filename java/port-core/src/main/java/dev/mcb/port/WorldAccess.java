package dev.mcb.port;

/**
 * The host's world, as the port sees it: canonical state strings ({@code minecraft:id[k=v,...]},
 * every property, keys sorted) and block-entity data as canonical NBT bytes (unnamed root compound,
 * keys sorted, no position or id keys). Every method that reads or writes the world is called on the
 * game thread (or exclusive of the game's tick), never concurrently; {@link #checkState},
 * {@link #checkData}, {@link #mayHaveBlockEntity} and {@link #stateNumber} only look at the
 * registry and are called from any thread (a slice is checked where it is decoded). Nothing here
 * loads or generates a chunk.
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
   * Optional numbers for states, for hosts that keep blocks as numbers (Minestom's state ids): the
   * number of a canonical state, or -1 when the host has none (then the port compares and writes
   * strings). Only asked for states without a block entity.
   */
  default int stateNumber(String state) {
    return -1;
  }

  /** The number of the state at a position (only on hosts whose {@link #stateNumber} gives numbers). */
  default int numberAt(int x, int y, int z) {
    return -1;
  }

  /** Places the state of a number {@link #stateNumber} gave (a block without a block entity), as {@link #set} would. */
  default void setNumber(int x, int y, int z, int number) {
    throw new UnsupportedOperationException("this host has no state numbers");
  }

  /**
   * Optional fast path for reads: fills {@code ids} with the host's number for the state at each
   * position of the box (ordered y, then z, then x; -1 outside the build height) and returns true,
   * or returns false when the host has no such numbers (the reader then asks position by
   * position). Every chunk of the box is loaded (checked before).
   */
  default boolean readIds(RegionRead.Box box, int[] ids) {
    return false;
  }

  /** The canonical state of a number {@link #readIds} or {@link #stateNumber} gave (any thread). */
  default String stateOfId(int id) {
    throw new UnsupportedOperationException("this host has no state numbers");
  }

  /**
   * Called on the game thread at the end of every job that may have written (one compare-and-set
   * slice): a host that batches what players are sent (one packet per section) sends it here.
   */
  default void endOfJob() {}
}
