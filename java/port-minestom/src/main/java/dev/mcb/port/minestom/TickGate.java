package dev.mcb.port.minestom;

import dev.mcb.port.GameThread;
import dev.mcb.port.TickScheduler;
import dev.mcb.port.TickStats;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import net.minestom.server.MinecraftServer;
import net.minestom.server.timer.ExecutionType;
import net.minestom.server.timer.TaskSchedule;

/**
 * Minestom's side of {@link GameThread}. The server tick holds {@code tickLock} from TICK_START to
 * TICK_END; the port's executor thread drains jobs under the same lock between ticks, so a job is
 * atomic with respect to game logic (player edits happen inside the tick) and the port is not
 * limited to one slice per 50 ms tick. The scheduler's budget is charged per tick period: work
 * done after tick N ended counts toward tick N+1, whose start it delays.
 */
final class TickGate implements GameThread {
  private final ReentrantLock tickLock = new ReentrantLock();
  private final ReentrantLock wakeLock = new ReentrantLock();
  private final Condition woken = wakeLock.newCondition();
  private final TickStats stats;
  private volatile long period;
  private boolean wakeRequested;
  private long tickStart;
  private TickScheduler scheduler;
  private Runnable atTickEnd = () -> {};
  private Runnable atTickStart = () -> {};

  TickGate(TickStats stats) {
    this.stats = stats;
  }

  /**
   * {@code atTickStart} runs first in every tick (what jobs changed since the last one goes to
   * players before their own actions), {@code atTickEnd} last; both under the tick lock.
   */
  void start(TickScheduler scheduler, Runnable atTickStart, Runnable atTickEnd) {
    this.scheduler = scheduler;
    this.atTickStart = atTickStart;
    this.atTickEnd = atTickEnd;
    var sched = MinecraftServer.getSchedulerManager();
    sched.submitTask(() -> {
      while (tickLock.isHeldByCurrentThread()) tickLock.unlock(); // a tick that threw before TICK_END
      tickLock.lock();
      urgent();
      tickStart = System.nanoTime();
      atTickStart.run();
      return TaskSchedule.nextTick();
    }, ExecutionType.TICK_START);
    sched.submitTask(() -> {
      try {
        atTickEnd.run();
      } finally {
        stats.tickEnded(period, System.nanoTime() - tickStart);
        period++;
        if (tickLock.isHeldByCurrentThread()) tickLock.unlock();
      }
      if (scheduler.hasPending()) wake();
      return TaskSchedule.nextTick();
    }, ExecutionType.TICK_END);
    Thread executor = new Thread(this::loop, "mcb-port-game");
    executor.setDaemon(true);
    executor.setPriority(Thread.MAX_PRIORITY);
    executor.start();
  }

  /**
   * The threads a tick waits for (Minestom's tick thread, its dispatcher thread through {@link
   * PortChunk#tick}, the port's executor) at the highest priority, where the system lets the JVM
   * raise one ({@code -XX:ThreadPriorityPolicy=1}, with the highest priority at nice -10, run as
   * root or with CAP_SYS_NICE; elsewhere this changes nothing). Measured with JFR on two busy cores
   * (the port bench: bridge and server on one machine): the tick thread waited 1.5-4.7 ms for its
   * dispatcher thread, which had no core, and ticks reached 10-15 ms; at nice -10, 6-9 ms in nearly
   * every run (README, benchmarks).
   */
  static void urgent() {
    Thread t = Thread.currentThread();
    if (t.getPriority() != Thread.MAX_PRIORITY) t.setPriority(Thread.MAX_PRIORITY);
  }

  /**
   * Runs work exclusive of the tick and of port jobs (shutdown: the final save reads live chunks).
   * A tick that does not let go within 5 s (the server's loop already gone) does not hold up the
   * shutdown: the work then runs as it did before this gate existed.
   */
  void exclusive(Runnable work) {
    boolean locked = false;
    try {
      locked = tickLock.tryLock(5, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      work.run();
    } finally {
      if (locked) tickLock.unlock();
    }
  }

  @Override
  public void wake() {
    wakeLock.lock();
    try {
      wakeRequested = true;
      woken.signal();
    } finally {
      wakeLock.unlock();
    }
  }

  @Override
  public long tick() {
    return period;
  }

  private void loop() {
    while (!Thread.currentThread().isInterrupted()) {
      wakeLock.lock();
      try {
        while (!wakeRequested) woken.awaitUninterruptibly();
        wakeRequested = false;
      } finally {
        wakeLock.unlock();
      }
      tickLock.lock();
      try {
        scheduler.runWithinBudget(); // jobs left over (budget spent) are woken again at the next TICK_END
      } finally {
        tickLock.unlock();
        scheduler.publish(); // the callers woken now do not hold up the next tick
      }
    }
  }
}
