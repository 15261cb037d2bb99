package dev.mcb.port;

/**
 * The host's game thread, as the tick scheduler needs it. The host runs {@link TickScheduler#drain()}
 * on the game thread (Paper: a task every tick) or exclusive of the game's tick (Minestom: between
 * ticks, under the lock the tick holds), so a drained job is atomic with respect to game logic.
 */
public interface GameThread {
  /** Asks the host to call {@code drain()} soon (this tick if it can, else the next). Any thread. */
  void wake();

  /** The current tick number; the scheduler charges its time budget per tick. */
  long tick();
}
