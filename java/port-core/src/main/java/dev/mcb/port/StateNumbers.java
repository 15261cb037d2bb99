package dev.mcb.port;

/**
 * What a host that keeps blocks as numbers (Minestom's state ids) offers beside {@link WorldAccess}:
 * the port compares and writes plain blocks (no block entity, no data) by number and reads boxes by
 * number, which saves a string per position. A host without numbers (Paper's glue) does not
 * implement it, and the port compares, writes and reads state strings. The world methods follow
 * {@link WorldAccess}'s threading: the game thread; {@link #stateNumber} and {@link #stateOfId}
 * look at the registry only and are called from any thread.
 */
public interface StateNumbers {
  /**
   * The number of a canonical state, or -1 when this state has none (it is then compared and
   * written as a string). Only asked for states without a block entity.
   */
  int stateNumber(String state);

  /** The number of the state at a position of a loaded chunk, inside the build height. */
  int numberAt(int x, int y, int z);

  /** Places the state of a number {@link #stateNumber} gave (a block without a block entity), as {@link WorldAccess#set} would. */
  void setNumber(int x, int y, int z, int number);

  /**
   * Fills {@code ids} with the number of the state at each position of the box (ordered y, then z,
   * then x; -1 outside the build height) and returns true, or returns false, leaving {@code ids}
   * unspecified, when a chunk of the box is not one whose numbers the host can read directly (the
   * reader then asks position by position). Every chunk of the box is loaded (checked before).
   */
  boolean readIds(RegionRead.Box box, int[] ids);

  /** The canonical state of a number {@link #readIds} or {@link #stateNumber} gave (any thread). */
  String stateOfId(int id);
}
