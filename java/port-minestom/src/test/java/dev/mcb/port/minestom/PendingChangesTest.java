package dev.mcb.port.minestom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PendingChangesTest {
  @Test
  void aQuietChunksChangeGoesOutAtTheNextTick() {
    PendingChanges p = new PendingChanges(24);
    assertTrue(p.add(5, 17, 100));
    assertFalse(p.add(5, 17, 100)); // the same position twice: still one
    assertEquals(1, p.count());
    assertFalse(p.waits(100));
    long[][] bits = p.flush(100);
    assertEquals(1L << 17, bits[5][0]);
    assertNull(bits[4]);
    assertTrue(p.isEmpty());
    // Quiet for a tick, then a change again: out at once.
    p.add(0, 4095, 102);
    assertFalse(p.waits(102));
    assertEquals(1L << 63, p.flush(102)[0][63]);
  }

  @Test
  void aChunkWrittenTickAfterTickWaitsAtMostTheHoldAndGoesOutWhenTheWritesStop() {
    PendingChanges p = new PendingChanges(24);
    p.add(0, 0, 0);
    assertFalse(p.waits(0)); // the first tick of a burst goes out at once
    p.flush(0);
    long tick = 1;
    int held = 0;
    for (; tick < 100; tick++) {
      p.add(0, (int) tick, tick);
      if (!p.waits(tick)) break;
      held++;
    }
    assertEquals(PendingChanges.HOLD_TICKS, held); // written every tick: held HOLD_TICKS ticks, then flushed
    assertEquals(PendingChanges.HOLD_TICKS + 1, p.count());
    p.flush(tick);
    // The next write continues the burst: held again; a tick without writes releases it.
    p.add(1, 0, tick + 1);
    assertTrue(p.waits(tick + 1));
    assertFalse(p.waits(tick + 2));
    long[][] bits = p.flush(tick + 2);
    assertArrayEquals(new long[] {1L}, java.util.Arrays.copyOf(bits[1], 1));
  }

  @Test
  void nothingPendingNeverWaits() {
    PendingChanges p = new PendingChanges(24);
    assertFalse(p.waits(7));
    assertTrue(p.isEmpty());
    assertNull(p.flush(7));
  }
}
