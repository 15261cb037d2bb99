package dev.mcb.port;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * Saves of the chunks the port wrote, off the game thread: each pass marks the ledger and copies
 * the changed chunks in game-thread jobs (each within the tick budget, so a save of many chunks
 * spreads over ticks instead of stalling one), then writes the copies on the saver thread while
 * the game goes on. Passes run one after another, so {@code saved_through} only moves forward, and
 * a pass started after a call covers every write numbered before it (the {@code flush} contract).
 */
public final class Saves implements AutoCloseable {
  private static final Logger LOG = PortLog.get(Saves.class);

  /** What one pass did. */
  public record Done(long savedThrough, int chunks, double ms, int jobs) {}

  private final Persistence persistence;
  private final SaveLedger ledger;
  private final TickScheduler scheduler;
  private final long jobTimeoutMillis;
  private final ExecutorService saver = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "mcb-port-saver");
    t.setPriority(Thread.MIN_PRIORITY); // files written behind the tick's threads (TickGate.urgent), where the system allows priorities
    t.setDaemon(true);
    return t;
  });
  /** An autosave is queued and not yet started: another would save nothing more. */
  private final AtomicBoolean autosaveQueued = new AtomicBoolean();
  private volatile Done last = new Done(0, 0, 0, 0);

  public Saves(Persistence persistence, SaveLedger ledger, TickScheduler scheduler, long jobTimeoutMillis) {
    this.persistence = persistence;
    this.ledger = ledger;
    this.scheduler = scheduler;
    this.jobTimeoutMillis = jobTimeoutMillis;
  }

  /** Queues a pass; completes when its chunks are on disk and the ledger's mark has moved. */
  public CompletableFuture<Done> save() {
    return CompletableFuture.supplyAsync(this::pass, saver);
  }

  /** The host's timer: a pass, unless one is already queued. */
  public void autosave() {
    if (!autosaveQueued.compareAndSet(false, true)) return;
    CompletableFuture.supplyAsync(() -> {
      autosaveQueued.set(false);
      return pass();
    }, saver).exceptionally(e -> {
      LOG.warning("autosave failed: " + e.getMessage());
      return null;
    });
  }

  /** The last completed pass (for stats). */
  public Done last() {
    return last;
  }

  private Done pass() {
    long t0 = System.nanoTime();
    // A quarter of the tick budget per copy job: a save's copies never make a tick much longer than
    // the slices it shares the budget with would.
    long budget = Math.max(1, scheduler.budgetNanos() / 4);
    long[] upTo = {0};
    Persistence.Pass[] pass = {null};
    int jobs = 1;
    int chunks;
    try {
      boolean more = onGameThread(() -> {
        upTo[0] = ledger.beginSave();
        pass[0] = persistence.begin();
        return pass[0].copy(budget);
      });
      while (more) {
        jobs++;
        more = onGameThread(() -> pass[0].copy(budget));
      }
      chunks = pass[0].write();
    } catch (RuntimeException | Error e) {
      // Nothing of this pass counts as saved, and its chunks go into the next one: a later pass's
      // mark must not cover writes whose chunks this one took and never wrote.
      if (pass[0] != null) pass[0].abandon();
      throw e;
    }
    ledger.saved(upTo[0]);
    Done d = new Done(upTo[0], chunks, (System.nanoTime() - t0) / 1e6, jobs);
    last = d;
    if (chunks > 0) LOG.info(() -> String.format("saved %d chunks in %.1f ms (%d game-thread jobs)", d.chunks(), d.ms(), d.jobs()));
    return d;
  }

  private <T> T onGameThread(java.util.function.Supplier<T> work) {
    TickScheduler.Job<T> job = scheduler.submit(work);
    try {
      return job.result().get(jobTimeoutMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      if (job.cancel()) throw PortError.busy("the game thread did not take the save within " + jobTimeoutMillis + " ms", "game_thread_timeout");
      return job.result().join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw PortError.busy("interrupted while saving", "interrupted");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    }
  }

  /** Waits for queued passes (at shutdown), then stops the saver thread. */
  @Override
  public void close() {
    saver.shutdown();
    try {
      if (!saver.awaitTermination(60, TimeUnit.SECONDS)) LOG.warning("a save was still running at shutdown");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
