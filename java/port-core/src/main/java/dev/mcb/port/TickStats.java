package dev.mcb.port;

import java.util.Arrays;

/**
 * Game-thread time per tick: the host's own tick work plus the port's jobs charged to that tick
 * (what a player would feel as MSPT). Keeps the last {@code capacity} ticks for max and p99.
 */
public final class TickStats {
  private final long[] ring;
  private int count;
  private int next;
  private long currentTick = Long.MIN_VALUE;
  private long currentPort;
  private long portTotal;
  private long slices;
  private long blocksWritten;

  /** Ticks kept for max and p99. */
  public int capacity() {
    return ring.length;
  }

  public TickStats(int capacity) {
    ring = new long[capacity];
  }

  /** Port work on the game thread charged to a tick. */
  public synchronized void portWork(long tick, long nanos) {
    if (tick != currentTick) {
      currentTick = tick;
      currentPort = 0;
    }
    currentPort += nanos;
    portTotal += nanos;
  }

  /** The host finished a tick whose own work took {@code tickNanos}; adds the port's share of it. */
  public synchronized void tickEnded(long tick, long tickNanos) {
    record(tickNanos + (tick == currentTick ? currentPort : 0));
  }

  /** A host whose port jobs run inside the tick (Paper): the tick's duration already includes them. */
  public synchronized void tickEndedIncludingPort(long tickNanos) {
    record(tickNanos);
  }

  private void record(long nanos) {
    ring[next] = nanos;
    next = (next + 1) % ring.length;
    if (count < ring.length) count++;
  }

  public synchronized void slice(int written) {
    slices++;
    blocksWritten += written;
  }

  public synchronized Snapshot snapshot(boolean reset) {
    return snapshot(reset, Integer.MAX_VALUE);
  }

  /** Max, p99 and mean over the newest {@code last} ticks recorded (all since the last reset when fewer). */
  public synchronized Snapshot snapshot(boolean reset, int last) {
    int n = Math.min(count, Math.max(0, last));
    long[] v = new long[n];
    for (int i = 0; i < n; i++) v[i] = ring[(next - n + i + ring.length) % ring.length];
    Arrays.sort(v);
    double max = n == 0 ? 0 : v[n - 1] / 1e6;
    double p99 = n == 0 ? 0 : v[Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)] / 1e6;
    double mean = n == 0 ? 0 : Arrays.stream(v).average().orElse(0) / 1e6;
    Snapshot s = new Snapshot(n, max, p99, mean, portTotal / 1e6, slices, blocksWritten);
    if (reset) {
      count = 0;
      next = 0;
      portTotal = 0;
      slices = 0;
      blocksWritten = 0;
    }
    return s;
  }


  public record Snapshot(int ticks, double tickMsMax, double tickMsP99, double tickMsMean, double portMsTotal, long slices, long blocksWritten) {}
}
