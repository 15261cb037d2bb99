package dev.mcb.port.minestom;

import dev.mcb.port.ChatQueue;
import dev.mcb.port.CompareAndSet;
import dev.mcb.port.EventLog;
import dev.mcb.port.Port;
import dev.mcb.port.PortConfig;
import dev.mcb.port.PortLog;
import dev.mcb.port.PortServer;
import dev.mcb.port.PortToken;
import dev.mcb.port.SaveLedger;
import dev.mcb.port.TickScheduler;
import dev.mcb.port.TickStats;
import dev.mcb.port.WorldFacts;
import dev.mcb.port.WorldIdentity;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;
import net.minestom.server.Auth;
import net.minestom.server.MinecraftServer;
import net.minestom.server.instance.Chunk;
import net.minestom.server.instance.InstanceContainer;
import net.minestom.server.instance.block.Block;
import net.minestom.server.timer.TaskSchedule;
import net.minestom.server.world.DimensionType;

/**
 * A runnable Minecraft server (Minestom 26.2, or 26.1.2 built with -Pmc-26.1.2; offline mode, a flat Anvil world) hosting the
 * world port. Prints one line {@code mcb-port ready ...} on stdout when both listeners are up; logs
 * one line per event on stderr. Every option is checked before a file is created: a bad option or
 * token exits 2, a port in use or a world another server holds exits 1, each with one message.
 */
public final class Main {
  private static final Logger LOG = PortLog.get(Main.class);

  private Main() {}

  /** A start that cannot go on: the message, and the exit status. */
  private static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;

    Refusal(int status, String message) {
      super(message, null, false, false);
      this.status = status;
    }
  }

  public static void main(String[] args) {
    run(args, new CompareAndSet(), "", Extras.NONE);
  }

  /**
   * What a host built on this one adds to the port before it serves: the tests' hosts (in the tests'
   * sources only) add their hooks. This host adds nothing.
   */
  interface Extras {
    Extras NONE = (port, world, scheduler, events) -> {};

    void install(Port port, MinestomWorld world, TickScheduler scheduler, EventLog events);
  }

  /**
   * Runs the host with the compare-and-set rule given ({@link #main}: the rule; the tests' planted
   * bug host: a double that breaks it) and the extras given, named by {@code readyNote} on the ready line.
   */
  static void run(String[] args, CompareAndSet cas, String readyNote, Extras extras) {
    HostOptions o;
    try {
      o = HostOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("mcb-port: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (o.help()) {
      System.out.print(HostOptions.USAGE);
      return;
    }
    PortLog.configure(PortLog.level(o.logLevel()));
    try {
      start(o, cas, readyNote, extras);
    } catch (Refusal r) {
      LOG.severe(r.getMessage()); // one line on stderr
      System.exit(r.status);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.SEVERE, "the host could not start: " + e.getMessage(), e);
      System.exit(1);
    }
  }

  private static void start(HostOptions o, CompareAndSet cas, String readyNote, Extras extras) throws Refusal, IOException {
    // Checks that create nothing come first: the token's length, then both ports.
    String token = givenToken(o);
    requireFree(InetAddress.getLoopbackAddress(), o.httpPort(), "--http-port");
    requireFree(InetAddress.getByName(o.gameHost()), o.gamePort(), "--game-port");
    try {
      SessionLock.acquire(o.worldDir());
    } catch (IllegalStateException e) {
      throw new Refusal(1, e.getMessage());
    }
    WorldIdentity identity = WorldIdentity.loadOrCreate(o.worldDir());
    if (token == null) token = PortToken.resolve(null, o.worldDir().resolve("port-token")); // created once, mode 0600
    PortConfig config;
    try {
      config = PortConfig.defaults(token, o.httpPort())
          .withBudgetNanos((long) (o.budgetMs() * 1_000_000));
      config.bindAddress(); // refuses a non-loopback address before anything starts
    } catch (IllegalArgumentException e) {
      throw new Refusal(2, e.getMessage());
    }

    MinecraftServer server = MinecraftServer.init(new Auth.Offline());
    SaveLoader loader;
    try {
      loader = SaveLoader.open(o.worldDir());
    } catch (IllegalStateException e) {
      throw new Refusal(1, e.getMessage());
    }
    if (!Files.isDirectory(o.worldDir().resolve("region"))) FlatSave.createIfMissing(o.worldDir(), MinecraftServer.DATA_VERSION, MinecraftServer.VERSION_NAME);
    InstanceContainer instance = MinecraftServer.getInstanceManager().createInstanceContainer(DimensionType.OVERWORLD, loader);
    instance.setChunkSupplier(PortChunk::new);
    instance.setGenerator(FlatSave.generator());
    var dim = instance.getCachedDimensionType();
    WorldFacts facts = new WorldFacts(identity.worldId(), identity.epoch(), MinecraftServer.VERSION_NAME, MinecraftServer.DATA_VERSION,
        dim.minY(), dim.minY() + dim.height() - 1, List.of("events", "block_entities", "block_entity_data", "persistence", "saved_writes"));
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
    gate.start(scheduler, world::sendChanges, hooks::flushEdits);
    Saver saver = new Saver(instance, world, loader);
    SaveLedger ledger = new SaveLedger();
    Port port = new Port(world, scheduler, events, chat, hooks, stats, config, ledger, saver, cas);
    extras.install(port, world, scheduler, events);
    // The autosave copies chunks in port jobs (exclusive of slices, so the saved mark is exact) and writes them on the saver thread.
    MinecraftServer.getSchedulerManager().buildTask(port::autosave).repeat(TaskSchedule.millis(o.autosaveMs())).schedule();

    PortServer http;
    try {
      http = new PortServer(port, config);
    } catch (BindException e) {
      throw new Refusal(1, "port " + o.httpPort() + " (--http-port) is in use");
    }
    try {
      server.start(o.gameHost(), o.gamePort());
    } catch (RuntimeException e) {
      http.close();
      if (e.getCause() instanceof BindException || e instanceof java.io.UncheckedIOException) throw new Refusal(1, "port " + o.gamePort() + " (--game-port) is in use");
      throw e;
    }
    http.start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      LOG.info("stopping: saving the world");
      http.close();
      port.close(); // queued saves finish first
      gate.exclusive(saver::saveAll); // copies every loaded chunk between ticks, as a save's copy jobs do
      MinecraftServer.stopCleanly();
      LOG.info("stopped");
    }, "mcb-port-shutdown"));
    LOG.info(() -> "started: world " + o.worldDir().toAbsolutePath() + " (" + identity.worldId() + ", epoch " + identity.epoch() + "), session " + ledger.session()
        + ", game " + o.gameHost() + ":" + o.gamePort() + ", port http://127.0.0.1:" + http.port());
    System.out.println("mcb-port ready game=" + o.gameHost() + ":" + o.gamePort() + " http=127.0.0.1:" + http.port()
        + " world=" + identity.worldId() + " epoch=" + identity.epoch() + " session=" + ledger.session() + " version=" + MinecraftServer.VERSION_NAME
        + readyNote);
    System.out.flush();
  }

  /** The token from --token-file or MCB_PORT_TOKEN, checked; null when the world folder's file is used. */
  private static String givenToken(HostOptions o) throws Refusal {
    String token;
    String source;
    if (o.tokenFile() != null) {
      source = "the token file " + o.tokenFile();
      try {
        token = Files.readString(o.tokenFile()).strip();
      } catch (IOException e) {
        throw new Refusal(2, "cannot read " + source + " (" + e.getClass().getSimpleName() + ")");
      }
    } else {
      String env = System.getenv("MCB_PORT_TOKEN");
      if (env == null || env.isBlank()) return null;
      source = "MCB_PORT_TOKEN";
      token = env.strip();
    }
    if (token.length() < PortConfig.MIN_TOKEN_LENGTH)
      throw new Refusal(2, source + " holds " + token.length() + " characters; the port token needs at least " + PortConfig.MIN_TOKEN_LENGTH);
    return token;
  }

  /** Port 0 asks for any free port. A taken one is a refusal naming it; nothing is left bound. */
  private static void requireFree(InetAddress host, int port, String flag) throws Refusal {
    if (port == 0) return;
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(host, port));
    } catch (IOException e) {
      throw new Refusal(1, "port " + port + " (" + flag + ") is in use");
    }
  }
}
