package dev.mcb.port.minestom;

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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.minestom.server.Auth;
import net.minestom.server.MinecraftServer;
import net.minestom.server.instance.Chunk;
import net.minestom.server.instance.InstanceContainer;
import net.minestom.server.instance.anvil.AnvilLoader;
import net.minestom.server.instance.block.Block;
import net.minestom.server.timer.TaskSchedule;
import net.minestom.server.world.DimensionType;

/**
 * A runnable Minecraft 26.1.2 server (Minestom, offline mode, a flat Anvil world) hosting the
 * world port. Prints one line {@code mcb-port ready ...} on stdout when both listeners are up.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    HostOptions o;
    try {
      o = HostOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.print(HostOptions.USAGE);
      System.exit(2);
      return;
    }
    WorldIdentity identity = WorldIdentity.loadOrCreate(o.worldDir());
    String token = PortToken.resolve(o.tokenFile(), System.getenv("MCB_PORT_TOKEN"), o.worldDir());
    PortConfig config = PortConfig.defaults(token, o.httpPort())
        .withBudgetNanos((long) (o.budgetMs() * 1_000_000))
        .withTestHooks(o.testHooks(), o.plantedCasBug());
    config.bindAddress(); // refuses a non-loopback address before anything starts

    MinecraftServer server = MinecraftServer.init(new Auth.Offline());
    InstanceContainer instance = MinecraftServer.getInstanceManager().createInstanceContainer(DimensionType.OVERWORLD,
        new AnvilLoader(o.worldDir()));
    instance.setGenerator(unit -> {
      unit.modifier().fillHeight(-64, -63, Block.BEDROCK);
      unit.modifier().fillHeight(-63, -61, Block.DIRT);
      unit.modifier().fillHeight(-61, -60, Block.GRASS_BLOCK);
    });
    var dim = instance.getCachedDimensionType();
    WorldFacts facts = new WorldFacts(identity.worldId(), identity.epoch(), MinecraftServer.VERSION_NAME, MinecraftServer.DATA_VERSION,
        dim.minY(), dim.minY() + dim.height() - 1, List.of("events", "block_entities", "block_entity_data", "persistence"));
    List<CompletableFuture<Chunk>> loads = new ArrayList<>();
    for (int cx = -o.loadRadius(); cx <= o.loadRadius(); cx++)
      for (int cz = -o.loadRadius(); cz <= o.loadRadius(); cz++) loads.add(instance.loadChunk(cx, cz));
    CompletableFuture.allOf(loads.toArray(CompletableFuture[]::new)).join();

    MinestomWorld world = new MinestomWorld(instance, facts);
    TickStats stats = new TickStats(72_000);
    TickGate gate = new TickGate(stats);
    TickScheduler scheduler = new TickScheduler(gate, config.budgetNanos(), 256, System::nanoTime, stats);
    EventLog events = new EventLog(config.eventRetention());
    ChatQueue chat = new ChatQueue(64);
    PlayerHooks hooks = new PlayerHooks(instance, world, events, chat);
    hooks.register();
    gate.start(scheduler, hooks::flushEdits);
    Saver saver = new Saver(instance, world);
    MinecraftServer.getSchedulerManager().buildTask(saver::saveDirty).repeat(TaskSchedule.millis(o.autosaveMs())).schedule();

    PortServer http = new PortServer(new Port(world, scheduler, events, chat, hooks, stats, config), config);
    server.start(o.gameHost(), o.gamePort());
    http.start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      http.close();
      saver.saveAll();
      MinecraftServer.stopCleanly();
    }, "mcb-port-shutdown"));
    System.out.println("mcb-port ready game=" + o.gameHost() + ":" + o.gamePort() + " http=127.0.0.1:" + http.port()
        + " world=" + identity.worldId() + " epoch=" + identity.epoch() + " version=" + MinecraftServer.VERSION_NAME
        + (o.testHooks() ? " test-hooks" : "") + (o.plantedCasBug() ? " planted-bug" : ""));
    System.out.flush();
  }
}
