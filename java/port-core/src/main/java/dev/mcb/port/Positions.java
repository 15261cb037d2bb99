package dev.mcb.port;

import java.util.Arrays;

/** Block positions packed in a long (26 bits x, 12 bits y, 26 bits z: every position of a world), and the slice rule that each is written once. */
final class Positions {
  private Positions() {}

  static long key(int x, int y, int z) {
    return ((long) x & 0x3FFFFFF) << 38 | ((long) (y & 0xFFF)) << 26 | ((long) z & 0x3FFFFFF);
  }

  /** The index of the first entry (in order) whose key an earlier entry has, or -1: sorted copies, no boxing. */
  static int firstRepeat(long[] keys) {
    long[] sorted = keys.clone();
    Arrays.sort(sorted);
    boolean any = false;
    for (int i = 1; i < sorted.length && !any; i++) any = sorted[i] == sorted[i - 1];
    if (!any) return -1;
    java.util.HashSet<Long> seen = new java.util.HashSet<>(); // only on a refused slice
    for (int i = 0; i < keys.length; i++) if (!seen.add(keys[i])) return i;
    return -1;
  }
}
