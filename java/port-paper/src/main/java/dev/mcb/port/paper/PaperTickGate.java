package dev.mcb.port.paper;

import com.destroystokyo.paper.event.server.ServerTickEndEvent;
import dev.mcb.port.GameThread;
import dev.mcb.port.TickScheduler;
import dev.mcb.port.TickStats;
import org.bukkit.Bukkit;
import org.bukkit.event.EventHandler;
import org.bukkit.event.Listener;
import org.bukkit.plugin.Plugin;

/**
 * Paper's side of {@link GameThread} (mirror of port-minestom's TickGate): a task every tick drains
 * the port's jobs on the server thread within the budget; Paper's tick events measure each tick.
 * Unlike Minestom there is no safe point between ticks, so one engine's sequential slices advance
 * one round trip per tick (several slices run per tick only when several are queued).
 */
final class PaperTickGate implements GameThread, Listener {
  private final TickStats stats;
  private final Runnable atTickEnd;
  private TickScheduler scheduler;

  PaperTickGate(TickStats stats, Runnable atTickEnd) {
    this.stats = stats;
    this.atTickEnd = atTickEnd;
  }

  void start(Plugin plugin, TickScheduler scheduler) {
    this.scheduler = scheduler;
    Bukkit.getPluginManager().registerEvents(this, plugin);
    Bukkit.getScheduler().runTaskTimer(plugin, () -> this.scheduler.drain(), 1L, 1L);
  }

  @Override
  public void wake() {
    // The next tick's task drains the queue.
  }

  @Override
  public long tick() {
    return Bukkit.getCurrentTick();
  }

  @EventHandler
  public void onTickEnd(ServerTickEndEvent e) {
    atTickEnd.run();
    stats.tickEndedIncludingPort((long) (e.getTickDuration() * 1_000_000));
  }
}
