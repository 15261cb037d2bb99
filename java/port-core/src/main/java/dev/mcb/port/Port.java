package dev.mcb.port;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The port protocol's methods over a host's world (java/PROTOCOL.md): decode and bound the request
 * on the caller's thread, run world work as one game-thread job, encode the result. The HTTP layer
 * ({@link PortServer}) adds authentication and size limits.
 */
public final class Port {
  public static final int PROTOCOL = 1;
  public static final int MAX_WRITES = 512;
  public static final int MAX_CHECKS = 4096;
  public static final int MAX_STATE = 1024;
  public static final int MAX_DATA = 1 << 20;
  public static final int MAX_EVENTS_PAGE = 16_384;

  private final WorldAccess world;
  private final TickScheduler scheduler;
  private final EventLog events;
  private final ChatQueue chat;
  private final ChatSink sink;
  private final TickStats stats;
  private final PortConfig config;
  private final CompareAndSet cas;
  private final SaveLedger ledger;
  /** Null: the host does not report saved writes (no {@code saved_writes} capability, no {@code flush}). */
  private final Saves saves;
  /** The methods by name: the protocol's own (java/PROTOCOL.md), in its order, then any the host added. */
  private final Map<String, PortMethod> methods = new LinkedHashMap<>();
  /** Null: the host shows players nothing of their own (its chat sink is no {@link PlayerViews}). */
  private final Ghosts ghosts;
  private final GhostMethods ghostMethods;

  /** Runs work as one game-thread job and waits for it (bounded; see {@link #onGameThread}). */
  @FunctionalInterface
  interface GameJobs {
    <T> T run(Supplier<T> work);
  }

  public Port(WorldAccess world, TickScheduler scheduler, EventLog events, ChatQueue chat, ChatSink sink, TickStats stats, PortConfig config) {
    this(world, scheduler, events, chat, sink, stats, config, new SaveLedger(), null);
  }

  public Port(WorldAccess world, TickScheduler scheduler, EventLog events, ChatQueue chat, ChatSink sink, TickStats stats, PortConfig config,
      SaveLedger ledger, Persistence persistence) {
    this(world, scheduler, events, chat, sink, stats, config, ledger, persistence, new CompareAndSet());
  }

  /** With the compare-and-set rule given (a test double in the tests' sources; the rule itself everywhere else). */
  public Port(WorldAccess world, TickScheduler scheduler, EventLog events, ChatQueue chat, ChatSink sink, TickStats stats, PortConfig config,
      SaveLedger ledger, Persistence persistence, CompareAndSet cas) {
    this.ledger = ledger;
    this.saves = persistence == null ? null : new Saves(persistence, ledger, scheduler, config.jobTimeoutMillis());
    this.world = world;
    this.scheduler = scheduler;
    this.events = events;
    this.chat = chat;
    this.sink = sink;
    this.stats = stats;
    this.config = config;
    this.cas = cas;
    methods.put("info", this::info);
    methods.put("read", p -> read(p, false));
    methods.put("read_block_entities", p -> read(p, true));
    methods.put("cas", this::cas);
    methods.put("cas_batch", p -> {
      throw PortError.invalid("cas_batch takes a binary body (Content-Type: " + PortServer.BINARY + ")", "content-type");
    });
    methods.put("events", this::events);
    methods.put("chat_poll", this::chatPoll);
    methods.put("chat_reply", this::chatReply);
    methods.put("stats", this::stats);
    methods.put("flush", this::flush);
    if (sink instanceof PlayerViews views) {
      ghosts = new Ghosts(world, views, sink);
      events.listen(ghosts::changed);
      ghostMethods = new GhostMethods(world, ghosts, scheduler, this::onGameThread);
      methods.put("ghost_show", ghostMethods::show);
      methods.put("ghost_clear", ghostMethods::clear);
    } else {
      ghosts = null;
      ghostMethods = null;
    }
  }

  /**
   * Runs a method of the table. {@code cas_batch} is in the table as a name only: it takes a binary
   * body, which {@link PortServer} decodes and hands to {@link #casBatch}.
   */
  public JsonObject call(String method, JsonObject params) {
    PortMethod m = methods.get(method);
    if (m == null)
      throw new PortError(PortError.Code.NOT_FOUND, "unknown method " + Json.shorten(method), Map.of("allowed", List.copyOf(methods.keySet())));
    return m.call(params);
  }

  /** Adds a method of the host's own, before the port serves; a name already in the table is refused. */
  public void addMethod(String name, PortMethod method) {
    if (methods.putIfAbsent(name, method) != null) throw new IllegalArgumentException("the port already has a method " + name);
  }

  private JsonObject info(JsonObject p) {
    Json.onlyKeys(p, "", Set.of());
    WorldFacts f = world.facts();
    JsonObject o = new JsonObject();
    o.addProperty("protocol", PROTOCOL);
    o.addProperty("world_id", f.worldId());
    o.addProperty("epoch", f.epoch());
    o.addProperty("minecraft_version", f.minecraftVersion());
    o.addProperty("data_version", f.dataVersion());
    o.addProperty("min_y", f.minY());
    o.addProperty("max_y", f.maxY());
    JsonArray caps = new JsonArray();
    f.capabilities().forEach(caps::add);
    if (ghosts != null) caps.add("ghosts");
    o.add("capabilities", caps);
    JsonObject limits = new JsonObject();
    limits.addProperty("max_read", RegionRead.MAX_POSITIONS);
    limits.addProperty("max_writes", MAX_WRITES);
    limits.addProperty("max_checks", MAX_CHECKS);
    limits.addProperty("max_body", config.maxBodyBytes());
    limits.addProperty("tick_budget_ms", config.budgetNanos() / 1e6);
    o.add("limits", limits);
    addSaved(o);
    return o;
  }

  /** The host session and, with the saved_writes capability, the write and saved marks. */
  private void addSaved(JsonObject o) {
    o.addProperty("session", ledger.session());
    if (saves == null) return;
    o.addProperty("write_seq", ledger.writeSeq());
    o.addProperty("saved_through", ledger.savedThrough());
  }

  /**
   * Saves every chunk the port wrote and answers when they are written: afterwards
   * {@code saved_through} covers every write made before the call.
   */
  private JsonObject flush(JsonObject p) {
    Json.onlyKeys(p, "", Set.of());
    if (saves == null)
      throw new PortError(PortError.Code.NOT_FOUND, "this host does not report saved writes (no saved_writes capability)", Map.of("reason", "no_saved_writes"));
    long t0 = System.nanoTime();
    Saves.Done done;
    try {
      done = saves.save().get(config.jobTimeoutMillis() * 4, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw PortError.busy("the save did not finish within " + config.jobTimeoutMillis() * 4 + " ms; saved_through tells what is on disk", "save_timeout");
    } catch (InterruptedException | ExecutionException | CancellationException e) {
      throw unwrap(e);
    }
    JsonObject o = new JsonObject();
    addSaved(o);
    o.addProperty("chunks", done.chunks());
    o.addProperty("ms", (System.nanoTime() - t0) / 1e6);
    return o;
  }

  /** The host's autosave timer: a save pass unless one is queued (no-op without saved writes). */
  public void autosave() {
    if (saves != null) saves.autosave();
  }

  /** A save pass (tests, shutdown): completes when its chunks are on disk. */
  public java.util.concurrent.CompletableFuture<Saves.Done> save() {
    if (saves == null) return java.util.concurrent.CompletableFuture.completedFuture(new Saves.Done(0, 0, 0, 0));
    return saves.save();
  }

  /** At shutdown: waits for queued saves and stops the saver thread. */
  public void close() {
    if (ghostMethods != null) ghostMethods.close();
    if (saves != null) saves.close();
  }

  static RegionRead.Box box(JsonObject p, String key) {
    JsonObject b = Json.object(p, key, "");
    Json.onlyKeys(b, key, Set.of("min", "max"));
    JsonObject min = Json.object(b, "min", key), max = Json.object(b, "max", key);
    Json.onlyKeys(min, key + ".min", Set.of("x", "y", "z"));
    Json.onlyKeys(max, key + ".max", Set.of("x", "y", "z"));
    RegionRead.Box box = new RegionRead.Box(Json.integer(min, "x", key + ".min"), Json.integer(min, "y", key + ".min"), Json.integer(min, "z", key + ".min"),
        Json.integer(max, "x", key + ".max"), Json.integer(max, "y", key + ".max"), Json.integer(max, "z", key + ".max"));
    RegionRead.validate(box);
    return box;
  }

  private JsonObject read(JsonObject p, boolean withData) {
    Json.onlyKeys(p, "", Set.of("box"));
    RegionRead.Box box = box(p, "box");
    RegionRead r = onGameThread(() -> RegionRead.read(world, box, withData));
    JsonObject o = new JsonObject();
    if (withData) {
      JsonArray entities = new JsonArray();
      r.data().forEach((i, d) -> {
        JsonArray pair = new JsonArray();
        pair.add(i);
        pair.add(Base64.getEncoder().encodeToString(d));
        entities.add(pair);
      });
      o.add("entities", entities);
      return o;
    }
    JsonArray palette = new JsonArray();
    r.palette().forEach(palette::add);
    int bits = PackedIndices.bitsFor(r.palette().size());
    o.add("palette", palette);
    o.addProperty("bits", bits);
    o.addProperty("indices", Base64.getEncoder().encodeToString(PackedIndices.pack(r.indices(), bits)));
    o.add("digests", pairs(r.digests()));
    return o;
  }

  static JsonArray pairs(Map<Integer, String> m) {
    JsonArray a = new JsonArray();
    m.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
      JsonArray pair = new JsonArray();
      pair.add(e.getKey());
      pair.add(e.getValue());
      a.add(pair);
    });
    return a;
  }

  private JsonObject cas(JsonObject p) {
    CompareAndSet.Prepared req = CompareAndSet.prepare(world, CasCodec.decode(p)); // a bad state refuses the whole slice
    long[] seq = {0};
    CasResult r = onGameThread(() -> runSlice(req, seq));
    JsonObject o = CasCodec.encode(r);
    addSaved(o);
    if (saves != null) o.addProperty("write_seq", seq[0]); // this slice's number (0: it wrote nothing)
    return o;
  }

  /** One slice as one game-thread job (its states were checked when it was decoded). */
  private CasResult runSlice(CompareAndSet.Prepared req, long[] seq) {
    try {
      CasResult res = cas.run(world, req);
      stats.slice(res.written());
      if (ghosts != null) ghosts.written(req.req().writes(), res.written());
      // Numbered in the job, so no save can fall between the writes and their number.
      seq[0] = res.written() > 0 ? ledger.recordWrite() : 0;
      return res;
    } finally {
      world.endOfJob();
    }
  }

  /**
   * Several slices (the binary body of java/PROTOCOL.md "cas_batch"): decoded and checked here, off
   * the game thread, then run in order by {@link CasBatch}. A slice the host cannot place stops the
   * batch at it (the slices before it still run, as they would one call at a time).
   */
  public JsonObject casBatch(byte[] body) {
    List<CasRequest> decoded = CasBatchCodec.decode(body);
    List<CompareAndSet.Prepared> slices = new ArrayList<>(decoded.size());
    PortError refused = null;
    for (CasRequest r : decoded) {
      try {
        slices.add(CompareAndSet.prepare(world, r));
      } catch (PortError e) {
        refused = e;
        break;
      }
    }
    JsonObject o = new CasBatch(scheduler, config.jobTimeoutMillis(), saves != null).run(slices, refused, this::runSlice);
    addSaved(o);
    return o;
  }

  private JsonObject events(JsonObject p) {
    Json.onlyKeys(p, "", Set.of("cursor"));
    String cursor = Json.string(p, "cursor", "", 200, true);
    EventLog.Page page = events.after(cursor);
    if (page.events().size() > MAX_EVENTS_PAGE) page = new EventLog.Page(List.of(), page.cursor(), true);
    JsonObject o = new JsonObject();
    JsonArray list = new JsonArray();
    for (EventLog.Event e : page.events()) {
      JsonObject j = new JsonObject();
      j.addProperty("x", e.x());
      j.addProperty("y", e.y());
      j.addProperty("z", e.z());
      j.addProperty("state", e.state());
      j.add("digest", Json.orNull(e.digest()));
      list.add(j);
    }
    o.add("events", list);
    o.addProperty("cursor", page.cursor());
    o.addProperty("gap", page.gap());
    return o;
  }

  private JsonObject chatPoll(JsonObject p) {
    Json.onlyKeys(p, "", Set.of("max"));
    int max = p.has("max") ? Json.integer(p, "max", "") : 16;
    if (max < 1 || max > 64) throw PortError.invalid("must be 1..64", "max");
    ChatQueue.Poll poll = chat.poll(max);
    JsonArray list = new JsonArray();
    for (ChatQueue.Message m : poll.messages()) {
      JsonObject j = new JsonObject();
      j.addProperty("id", m.id());
      j.addProperty("player_id", m.playerId());
      j.addProperty("player_name", m.playerName());
      j.addProperty("text", m.text());
      if (m.x() != null) {
        JsonObject pos = new JsonObject();
        pos.addProperty("x", m.x());
        pos.addProperty("y", m.y());
        pos.addProperty("z", m.z());
        j.add("position", pos);
      }
      if (m.yaw() != null && m.pitch() != null) {
        JsonObject look = new JsonObject();
        look.addProperty("yaw", m.yaw());
        look.addProperty("pitch", m.pitch());
        j.add("look", look);
      }
      list.add(j);
    }
    JsonObject o = new JsonObject();
    o.add("messages", list);
    o.addProperty("dropped", poll.dropped());
    return o;
  }

  private JsonObject chatReply(JsonObject p) {
    Json.onlyKeys(p, "", Set.of("player_id", "text"));
    String player = Json.string(p, "player_id", "", 36, false);
    if (!player.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")) throw PortError.invalid("must be a lowercase UUID", "player_id");
    String text = Json.string(p, "text", "", ChatQueue.MAX_TEXT, false);
    JsonObject o = new JsonObject();
    o.addProperty("delivered", sink.send(player, text));
    return o;
  }

  private JsonObject stats(JsonObject p) {
    Json.onlyKeys(p, "", Set.of("reset", "last_ticks"));
    int last = p.has("last_ticks") ? Json.integer(p, "last_ticks", "") : stats.capacity();
    if (last < 1 || last > stats.capacity()) throw PortError.invalid("must be 1.." + stats.capacity(), "last_ticks");
    TickStats.Snapshot s = stats.snapshot(Json.bool(p, "reset", "", false), last);
    JsonObject o = new JsonObject();
    o.addProperty("ticks", s.ticks());
    o.addProperty("tick_ms_max", s.tickMsMax());
    o.addProperty("tick_ms_p99", s.tickMsP99());
    o.addProperty("tick_ms_mean", s.tickMsMean());
    o.addProperty("port_ms_total", s.portMsTotal());
    o.addProperty("slices", s.slices());
    o.addProperty("blocks_written", s.blocksWritten());
    o.addProperty("budget_ms", scheduler.budgetNanos() / 1e6);
    o.addProperty("queue_depth", scheduler.queueDepth());
    o.addProperty("max_queue", scheduler.maxQueued());
    if (saves != null) {
      Saves.Done d = saves.last();
      JsonObject save = new JsonObject();
      save.addProperty("saved_through", d.savedThrough());
      save.addProperty("chunks", d.chunks());
      save.addProperty("ms", d.ms());
      save.addProperty("game_thread_jobs", d.jobs());
      o.add("last_save", save);
    }
    addSaved(o);
    return o;
  }

  /** Runs work as one game-thread job; a job not started within the timeout is dropped (busy, nothing done). */
  private <T> T onGameThread(Supplier<T> work) {
    TickScheduler.Job<T> job = scheduler.submit(work);
    try {
      return job.result().get(config.jobTimeoutMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      if (job.cancel()) throw PortError.busy("the game thread did not take the request within " + config.jobTimeoutMillis() + " ms; nothing was done", "game_thread_timeout");
      try {
        return job.result().get(); // started: it finishes (bounded work), so its result is known
      } catch (InterruptedException | ExecutionException | CancellationException e2) {
        throw unwrap(e2);
      }
    } catch (InterruptedException | ExecutionException | CancellationException e) {
      throw unwrap(e);
    }
  }

  static RuntimeException unwrap(Exception e) {
    Throwable c = e instanceof ExecutionException ? e.getCause() : e;
    if (c instanceof PortError pe) return pe;
    if (e instanceof InterruptedException) Thread.currentThread().interrupt();
    return new PortError(PortError.Code.FAILED, "the host failed while running the request: " + Json.shorten(String.valueOf(c)), Map.of("reason", "host_error"), c);
  }
}
