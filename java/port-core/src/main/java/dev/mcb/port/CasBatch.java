package dev.mcb.port;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * Runs the slices of one {@code cas_batch} (java/PROTOCOL.md): each its own game-thread job, queued
 * together and run in order; the batch stops after the first slice with mismatches, refused or
 * failed, and the slices after it never run. The stop is decided inside the game thread (a job that
 * stops sets the bound before the next job can start), so a slice already queued behind it does not
 * run. Answers the results of the slices that ran and why the batch stopped.
 */
final class CasBatch {
  private final TickScheduler scheduler;
  private final long jobTimeoutMillis;
  /** The host numbers writes (saved_writes): each result carries its write_seq. */
  private final boolean numbered;

  CasBatch(TickScheduler scheduler, long jobTimeoutMillis, boolean numbered) {
    this.scheduler = scheduler;
    this.jobTimeoutMillis = jobTimeoutMillis;
    this.numbered = numbered;
  }

  /**
   * {@code slices} checked and ready; {@code refused}: why the slice after them cannot run (null:
   * none). {@code run} runs one slice on the game thread and sets its write number in the array.
   */
  JsonObject run(List<CompareAndSet.Prepared> slices, PortError refused, BiFunction<CompareAndSet.Prepared, long[], CasResult> run) {
    // Slices from this index on must not run: set by a job that stopped (mismatch, refusal,
    // failure) before the next job can start, or by this thread when it gives up waiting.
    AtomicInteger runBelow = new AtomicInteger(Integer.MAX_VALUE);
    List<TickScheduler.Job<CasResult>> jobs = new ArrayList<>(slices.size());
    long[][] seqs = new long[slices.size()][1];
    PortError queueFull = null;
    for (int i = 0; i < slices.size(); i++) {
      CompareAndSet.Prepared req = slices.get(i);
      long[] seq = seqs[i];
      int index = i;
      try {
        jobs.add(scheduler.submit(() -> {
          if (index >= runBelow.get()) return null; // not run
          try {
            CasResult r = run.apply(req, seq);
            if (!r.mismatches().isEmpty()) runBelow.accumulateAndGet(index + 1, Math::min);
            return r;
          } catch (RuntimeException | Error e) {
            runBelow.accumulateAndGet(index + 1, Math::min);
            throw e;
          }
        }));
      } catch (PortError busy) {
        queueFull = busy; // this slice and those after it are not queued
        runBelow.accumulateAndGet(index, Math::min);
        break;
      }
    }
    JsonArray results = new JsonArray();
    JsonObject stopped = null;
    for (int i = 0; i < jobs.size() && stopped == null; i++) {
      TickScheduler.Job<CasResult> job = jobs.get(i);
      CasResult r;
      try {
        r = job.result().get(jobTimeoutMillis, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        runBelow.accumulateAndGet(i, Math::min);
        if (!job.cancel()) {
          try {
            r = job.result().get(); // it had started: bounded work, its outcome is coming
          } catch (InterruptedException | ExecutionException | CancellationException e2) {
            stopped = failure(i, e2);
            break;
          }
        } else r = null;
      } catch (InterruptedException | ExecutionException | CancellationException e) {
        stopped = failure(i, e);
        break;
      }
      if (r == null) {
        stopped = stopped(i, "refused", PortError.busy("the game thread did not take slice " + i + " within " + jobTimeoutMillis + " ms; it and the slices after it were not run", "game_thread_timeout"));
        break;
      }
      JsonObject o = CasCodec.encode(r);
      if (numbered) o.addProperty("write_seq", seqs[i][0]);
      results.add(o);
      if (!r.mismatches().isEmpty()) stopped = stopped(i, "mismatch", null);
    }
    if (stopped == null && queueFull != null) stopped = stopped(jobs.size(), "refused", queueFull);
    if (stopped == null && refused != null) stopped = stopped(slices.size(), "refused", refused);
    runBelow.accumulateAndGet(results.size() + 1, Math::min); // this thread was interrupted: nothing after the answer runs
    for (TickScheduler.Job<CasResult> j : jobs) j.cancel(); // the ones after a stop: never run
    JsonObject o = new JsonObject();
    o.add("results", results);
    o.add("stopped", stopped == null ? JsonNull.INSTANCE : stopped);
    return o;
  }

  /** A slice whose job threw: refused before writing (a PortError that is not a host failure), or failed mid-job. */
  private static JsonObject failure(int slice, Exception e) {
    RuntimeException err = Port.unwrap(e);
    PortError pe = err instanceof PortError x ? x : new PortError(PortError.Code.FAILED, "the host failed while running slice " + slice, Map.of("reason", "host_error"));
    return stopped(slice, pe.kind() == PortError.Code.FAILED ? "failed" : "refused", pe);
  }

  private static JsonObject stopped(int slice, String reason, PortError error) {
    JsonObject s = new JsonObject();
    s.addProperty("slice", slice);
    s.addProperty("reason", reason);
    if (error != null) s.add("error", PortServer.errorObject(error));
    return s;
  }
}
