package dev.mcb.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TickSchedulerTest {
  /** A clock that advances only when a job says it spent time. */
  static final class FakeClock {
    long now;
  }

  private static TickScheduler scheduler(ManualGame game, FakeClock clock, long budgetMs, TickStats stats) {
    return new TickScheduler(game, budgetMs * 1_000_000, 100, () -> clock.now, stats);
  }

  @Test
  void runsSeveralJobsPerTickWhileTheBudgetLasts() {
    ManualGame game = new ManualGame();
    FakeClock clock = new FakeClock();
    TickStats stats = new TickStats(100);
    TickScheduler s = scheduler(game, clock, 5, stats);
    List<Long> ranAt = new ArrayList<>();
    for (int i = 0; i < 8; i++) s.submit(() -> {
      ranAt.add(game.tick);
      clock.now += 2_000_000; // each slice costs 2 ms
      return null;
    });
    assertEquals(8, game.wakes);
    assertTrue(s.drain(), "jobs remain after the budget");
    assertEquals(2, ranAt.size(), "2 + 2 ms used, and a typical job (2 ms) would go past 5 ms: the tick's jobs stop at 4 ms");
    assertTrue(s.drain(), "the same tick's budget is spent");
    assertEquals(2, ranAt.size());
    stats.tickEnded(0, 1_000_000);
    assertEquals(5.0, stats.snapshot(false).tickMsMax(), 1e-9, "tick work + the port's 4 ms charged to the tick: never over the budget");
    for (long t = 1; t <= 3; t++) {
      game.tick = t;
      assertEquals(t < 3, s.drain());
    }
    assertEquals(List.of(0L, 0L, 1L, 1L, 2L, 2L, 3L, 3L), ranAt);
  }

  @Test
  void aJobLargerThanTheBudgetStillRunsOncePerTick() {
    ManualGame game = new ManualGame();
    FakeClock clock = new FakeClock();
    TickScheduler s = scheduler(game, clock, 5, new TickStats(10));
    List<Long> ranAt = new ArrayList<>();
    for (int i = 0; i < 3; i++) s.submit(() -> {
      ranAt.add(game.tick);
      clock.now += 20_000_000;
      return null;
    });
    for (long t = 0; t < 3; t++) {
      game.tick = t;
      s.drain();
    }
    assertEquals(List.of(0L, 1L, 2L), ranAt);
  }

  @Test
  void aCancelledJobNeverRunsAndAFullQueueIsBusy() {
    ManualGame game = new ManualGame();
    FakeClock clock = new FakeClock();
    TickScheduler s = new TickScheduler(game, 5_000_000, 2, () -> clock.now, new TickStats(10));
    int[] ran = {0};
    TickScheduler.Job<Integer> a = s.submit(() -> ++ran[0]);
    s.submit(() -> ++ran[0]);
    PortError full = assertThrows(PortError.class, () -> s.submit(() -> ++ran[0]));
    assertEquals("busy", full.code());
    assertTrue(full.retryable());
    assertTrue(a.cancel());
    s.drain();
    assertEquals(1, ran[0]);
    assertTrue(a.result().isCancelled());
  }

  @Test
  void aThrowingJobFailsItsCallerAndNotTheGameThread() {
    ManualGame game = new ManualGame();
    TickScheduler s = scheduler(game, new FakeClock(), 5, new TickStats(10));
    TickScheduler.Job<Object> bad = s.submit(() -> {
      throw new IllegalStateException("boom");
    });
    TickScheduler.Job<String> good = s.submit(() -> "ok");
    s.drain();
    assertTrue(bad.result().isCompletedExceptionally());
    assertEquals("ok", good.result().join());
  }

  @Test
  void outcomesReachTheirCallersOnlyWhenPublished() {
    ManualGame game = new ManualGame();
    FakeClock clock = new FakeClock();
    TickScheduler s = scheduler(game, clock, 5, new TickStats(10));
    TickScheduler.Job<Integer> ok = s.submit(() -> 7);
    TickScheduler.Job<Integer> bad = s.submit(() -> {
      throw new IllegalStateException("planted");
    });
    assertFalse(s.runWithinBudget(), "both ran");
    assertFalse(ok.result().isDone(), "not woken while the game thread may still hold the tick's lock");
    assertFalse(bad.result().isDone());
    s.publish();
    assertEquals(7, ok.result().join());
    assertTrue(bad.result().isCompletedExceptionally());
    TickScheduler.Job<Integer> third = s.submit(() -> 8);
    s.drain();
    assertEquals(8, third.result().getNow(null), "drain (a host that runs jobs inside its tick) publishes at its end");
  }
}
