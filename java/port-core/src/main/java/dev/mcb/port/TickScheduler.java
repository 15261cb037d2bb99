package dev.mcb.port;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Runs port jobs (reads, compare-and-set slices, test edits) on the game thread within a time budget
 * per tick: a job starts only while the time used so far plus a typical job's time (a running
 * average) fits the budget, so the jobs of a tick end near the budget instead of one job past it;
 * at least one job per tick, so a slice larger than the budget still progresses. The time each
 * tick's jobs took is recorded in {@link TickStats}. A queued job that its caller gave up on is
 * never run.
 */
public final class TickScheduler {
  /** A queued unit of work; {@link #cancel()} succeeds only before it starts. */
  public static final class Job<T> {
    private static final int QUEUED = 0, RUNNING = 1, CANCELLED = 2;
    private final Supplier<T> work;
    private final AtomicInteger state = new AtomicInteger(QUEUED);
    final CompletableFuture<T> result = new CompletableFuture<>();

    Job(Supplier<T> work) { this.work = work; }

    public CompletableFuture<T> result() { return result; }

    /** True when the job had not started and never will. */
    public boolean cancel() {
      boolean cancelled = state.compareAndSet(QUEUED, CANCELLED);
      if (cancelled) result.cancel(false);
      return cancelled;
    }

    boolean start() { return state.compareAndSet(QUEUED, RUNNING); }

    void run() {
      try {
        result.complete(work.get());
      } catch (RuntimeException | Error e) { // never lets a job's failure escape into the game thread
        result.completeExceptionally(e);
      }
    }
  }

  private final GameThread game;
  private final long budgetNanos;
  private final int maxQueued;
  private final LongSupplier clock;
  private final TickStats stats;
  private final ArrayDeque<Job<?>> queue = new ArrayDeque<>();
  private long periodTick = Long.MIN_VALUE;
  private long usedNanos;
  private int ranThisTick;
  /** Running average of a job's time (the newest weighs a quarter). */
  private long typicalNanos;

  public TickScheduler(GameThread game, long budgetNanos, int maxQueued, LongSupplier clock, TickStats stats) {
    if (budgetNanos <= 0) throw new IllegalArgumentException("budget must be positive");
    this.game = game;
    this.budgetNanos = budgetNanos;
    this.maxQueued = maxQueued;
    this.clock = clock;
    this.stats = stats;
  }

  public long budgetNanos() { return budgetNanos; }

  /** Queues work for the game thread; busy (retryable) when the queue is full. */
  public <T> Job<T> submit(Supplier<T> work) {
    Job<T> job = new Job<>(work);
    synchronized (queue) {
      if (queue.size() >= maxQueued) throw PortError.busy("the port's game-thread queue is full (" + maxQueued + " jobs)", "queue_full");
      queue.addLast(job);
    }
    game.wake();
    return job;
  }

  /**
   * Called by the host on the game thread. Runs queued jobs while this tick's budget lasts.
   * Returns true when jobs remain (the budget ran out): call again next tick.
   */
  public boolean drain() {
    long tick = game.tick();
    if (tick != periodTick) {
      periodTick = tick;
      usedNanos = 0;
      ranThisTick = 0;
    }
    while (true) {
      Job<?> job;
      synchronized (queue) {
        if (queue.isEmpty()) return false;
        if (ranThisTick > 0 && usedNanos + typicalNanos > budgetNanos) return true;
        job = queue.pollFirst();
      }
      if (!job.start()) continue; // cancelled by its caller
      long t0 = clock.getAsLong();
      job.run();
      long spent = clock.getAsLong() - t0;
      usedNanos += spent;
      typicalNanos = typicalNanos == 0 ? spent : (3 * typicalNanos + spent) / 4;
      ranThisTick++;
      stats.portWork(tick, spent);
    }
  }

  /** Jobs queued and not yet started (cancelled ones included until the drain skips them). */
  public int queueDepth() {
    synchronized (queue) {
      return queue.size();
    }
  }

  public int maxQueued() {
    return maxQueued;
  }

  public boolean hasPending() {
    synchronized (queue) {
      return !queue.isEmpty();
    }
  }
}
