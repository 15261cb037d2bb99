package dev.mcb.port;

import java.util.ArrayDeque;
import java.util.ArrayList;
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
 *
 * <p>A job's outcome reaches its caller only after the run of jobs it belongs to ({@link #publish}):
 * completing a future wakes the thread waiting on it (the port's HTTP worker, which then encodes
 * and sends an answer), and on a machine with few cores the kernel let that woken thread take the
 * game thread's core at once. Measured on two cores: the last slice of a batch, 0.1 ms of work,
 * took 3-11 ms of the tick while the answer went out. Published after the game thread's lock is
 * let go, the wake costs the tick nothing.
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

    private T value;
    private Throwable failure;

    /** Runs the work and keeps its outcome for {@link #publish()}. */
    void run() {
      try {
        value = work.get();
      } catch (RuntimeException | Error e) { // never lets a job's failure escape into the game thread
        failure = e;
      }
    }

    void publish() {
      if (failure != null) result.completeExceptionally(failure);
      else result.complete(value);
      value = null;
    }
  }

  private final GameThread game;
  private final long budgetNanos;
  private final int maxQueued;
  private final LongSupplier clock;
  private final TickStats stats;
  private final ArrayDeque<Job<?>> queue = new ArrayDeque<>();
  /** Jobs run by the game thread whose outcomes are not yet published (game thread only). */
  private final ArrayList<Job<?>> ran = new ArrayList<>();
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
   * Called by the host on the game thread, inside the tick (Paper): {@link #runWithinBudget()}, then
   * {@link #publish()}. Returns true when jobs remain (the budget ran out): call again next tick.
   */
  public boolean drain() {
    try {
      return runWithinBudget();
    } finally {
      publish();
    }
  }

  /**
   * Runs queued jobs on the game thread while this tick's budget lasts, keeping their outcomes
   * until {@link #publish()}. Returns true when jobs remain (the budget ran out): call again next tick.
   */
  public boolean runWithinBudget() {
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
      ran.add(job);
      long spent = clock.getAsLong() - t0;
      usedNanos += spent;
      typicalNanos = typicalNanos == 0 ? spent : (3 * typicalNanos + spent) / 4;
      ranThisTick++;
      stats.portWork(tick, spent);
    }
  }

  /**
   * Hands the outcomes of the jobs run since the last call to their callers; by the thread that ran
   * them, once it no longer holds the game's lock.
   */
  public void publish() {
    for (Job<?> j : ran) j.publish();
    ran.clear();
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
