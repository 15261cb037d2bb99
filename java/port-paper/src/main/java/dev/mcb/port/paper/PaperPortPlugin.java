package dev.mcb.port.paper;

import dev.mcb.port.ChatQueue;
import dev.mcb.port.EventLog;
import dev.mcb.port.Port;
import dev.mcb.port.PortConfig;
import dev.mcb.port.PortServer;
import dev.mcb.port.PortToken;
import dev.mcb.port.TickScheduler;
import dev.mcb.port.TickStats;
import dev.mcb.port.WorldFacts;
import dev.mcb.port.WorldIdentity;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.bukkit.Bukkit;
import org.bukkit.World;
import org.bukkit.plugin.java.JavaPlugin;

/**
 * The Paper plugin (mirror of port-minestom's Main): reads config.yml, hosts port-core on loopback
 * for one world. All logic lives in port-core; this file only wires Paper's pieces to it. Not final:
 * test servers such as MockBukkit load a plugin through a subclass of its main class.
 */
public class PaperPortPlugin extends JavaPlugin {
  private PortServer http;

  @Override
  public void onEnable() {
    saveDefaultConfig();
    Path folder = getDataFolder().toPath();
    try {
      PaperConfig c = PaperConfig.from(getConfig(), folder);
      World world = Bukkit.getWorld(c.world());
      if (world == null) throw new IllegalArgumentException("no world named " + c.world());
      WorldIdentity identity = WorldIdentity.loadOrCreate(folder);
      String token = PortToken.resolve(System.getenv("MCB_PORT_TOKEN"), c.tokenFile());
      PortConfig config = new PortConfig(c.bind(), c.httpPort(), token, (long) (c.budgetMs() * 1_000_000), 8 << 20, 10_000, 16_384);
      WorldFacts facts = new WorldFacts(identity.worldId(), identity.epoch(), Bukkit.getMinecraftVersion(), dataVersion(),
          world.getMinHeight(), world.getMaxHeight() - 1, List.of("events", "block_entities", "persistence"));
      PaperWorld port = new PaperWorld(world, facts);
      TickStats stats = new TickStats(72_000);
      EventLog events = new EventLog(config.eventRetention());
      ChatQueue chat = new ChatQueue(64);
      PaperPlayerHooks hooks = new PaperPlayerHooks(world, port, events, chat);
      PaperTickGate gate = new PaperTickGate(stats, hooks::flushEdits);
      TickScheduler scheduler = new TickScheduler(gate, config.budgetNanos(), 256, System::nanoTime, stats);
      gate.start(this, scheduler);
      Bukkit.getPluginManager().registerEvents(hooks, this);
      getCommand("ai").setExecutor(hooks);
      http = new PortServer(new Port(port, scheduler, events, chat, hooks, stats, config), config);
      http.start();
      getLogger().info("mcb world port on " + c.bind() + ":" + http.port() + " for world " + c.world() + " (" + identity.worldId() + ", epoch " + identity.epoch() + ")");
    } catch (IOException | IllegalArgumentException e) {
      getLogger().severe("mcb world port not started: " + e.getMessage());
      Bukkit.getPluginManager().disablePlugin(this);
    }
  }

  /**
   * The game's data version. paper-api (26.1.2 and 26.2) offers it only through the deprecated
   * {@code UnsafeValues}: {@code ServerBuildInfo} names the version, not its number. Kept here, in
   * one place, until the API has another way.
   */
  @SuppressWarnings("deprecation")
  private static int dataVersion() {
    return Bukkit.getUnsafe().getDataVersion();
  }

  @Override
  public void onDisable() {
    if (http != null) http.close();
  }
}
