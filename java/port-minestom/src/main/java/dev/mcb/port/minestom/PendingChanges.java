package dev.mcb.port.minestom;

/**
 * One chunk's changes the port made that its viewers have not been sent yet: a 4096-bit set per
 * 16³ section, how many positions, and when (in ticks of {@link SectionChanges#send}) the chunk was
 * first and last written since its last flush. Decides whether a flush waits ({@link #waits}): a
 * chunk changed after a quiet tick goes out at once; one the port keeps writing tick after tick is
 * held until a tick passes without writes or {@link #HOLD_TICKS} ticks have passed. Game thread only.
 */
final class PendingChanges {
  /** The longest a chunk the port keeps writing waits before what it holds goes out (0.5 s). */
  static final int HOLD_TICKS = 10;

  private final int sectionCount;
  private long[][] bits;
  private int count;
  private long since;
  private long lastWrite = Long.MIN_VALUE;
  private long lastFlush = Long.MIN_VALUE / 2;

  PendingChanges(int sectionCount) {
    this.sectionCount = sectionCount;
  }

  /**
   * Records a change at {@code index} ({@code y << 8 | z << 4 | x} inside the section) of section
   * {@code section} (0 = the lowest), made in tick {@code tick}; true when the chunk had nothing
   * pending before (the caller lists it).
   */
  boolean add(int section, int index, long tick) {
    boolean first = bits == null;
    if (first) {
      bits = new long[sectionCount][];
      since = tick; // count is 0: flush() left it so
    }
    lastWrite = tick;
    long[] s = bits[section];
    if (s == null) s = bits[section] = new long[64];
    long bit = 1L << index;
    if ((s[index >>> 6] & bit) == 0) {
      s[index >>> 6] |= bit;
      count++;
    }
    return first;
  }

  boolean isEmpty() {
    return bits == null;
  }

  /** Distinct positions pending. */
  int count() {
    return count;
  }

  /** At the send that ends tick {@code now}: true when the chunk is still being written and should wait for more. */
  boolean waits(long now) {
    if (bits == null) return false;
    boolean busy = since == now ? lastFlush == now - 1 : lastWrite == now;
    return busy && now - since < HOLD_TICKS;
  }

  /** Takes what is pending (a 4096-bit set per section, null where none) at the send that ends tick {@code now}. */
  long[][] flush(long now) {
    long[][] taken = bits;
    bits = null;
    count = 0;
    lastFlush = now;
    return taken;
  }
}
