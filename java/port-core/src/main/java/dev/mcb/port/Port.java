package dev.mcb.port;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.Base64;
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
  private final Persistence persistence;

  public Port(WorldAccess world, TickScheduler scheduler, EventLog events, ChatQueue chat, ChatSink sink, TickStats stats, PortConfig config) {
    this(world, scheduler, events, chat, sink, stats, config, new SaveLedger(), null);
  }

  public Port(WorldAccess world, TickScheduler scheduler, EventLog events, ChatQueue chat, ChatSink sink, TickStats stats, PortConfig config,
      SaveLedger ledger, Persistence persistence) {
    this.ledger = ledger;
    this.persistence = persistence;
    this.world = world;
    this.scheduler = scheduler;
    this.events = events;
    this.chat = chat;
    this.sink = sink;
    this.stats = stats;
    this.config = config;
    this.cas = new CompareAndSet(config.plantedCasBug());
  }

  public JsonObject call(String method, JsonObject params) {
    return switch (method) {
      case "info" -> info(params);
      case "read" -> read(params, false);
      case "read_block_entities" -> read(params, true);
      case "cas" -> cas(params);
      case "events" -> events(params);
      case "chat_poll" -> chatPoll(params);
      case "chat_reply" -> chatReply(params);
      case "stats" -> stats(params);
      case "flush" -> flush(params);
      case "test_edit" -> {
        if (!config.testHooks()) throw new PortError(PortError.Code.NOT_FOUND, "unknown method " + Json.shorten(method));
        yield testEdit(params);
      }
      default -> throw new PortError(PortError.Code.NOT_FOUND, "unknown method " + Json.shorten(method),
          Map.of("allowed", List.of("info", "read", "read_block_entities", "cas", "events", "chat_poll", "chat_reply", "stats", "flush")));
    };
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
    if (persistence == null) return;
    o.addProperty("write_seq", ledger.writeSeq());
    o.addProperty("saved_through", ledger.savedThrough());
  }

  /**
   * Saves every chunk the port wrote and answers when they are written: afterwards
   * {@code saved_through} covers every write made before the call.
   */
  private JsonObject flush(JsonObject p) {
    Json.onlyKeys(p, "", Set.of());
    if (persistence == null)
      throw new PortError(PortError.Code.NOT_FOUND, "this host does not report saved writes (no saved_writes capability)", Map.of("reason", "no_saved_writes"));
    long t0 = System.nanoTime();
    int chunks = onGameThread(() -> saveNow());
    JsonObject o = new JsonObject();
    addSaved(o);
    o.addProperty("chunks", chunks);
    o.addProperty("ms", (System.nanoTime() - t0) / 1e6);
    return o;
  }

  /** On the game thread: saves what the port wrote, moving the saved mark. Used by flush and the host's autosave. */
  public int saveNow() {
    if (persistence == null) return 0;
    long upTo = ledger.beginSave();
    int chunks = persistence.saveWritten();
    ledger.saved(upTo);
    return chunks;
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
    CasRequest req = CasCodec.decode(p);
    long[] seq = {0};
    CasResult r = onGameThread(() -> {
      CasCodec.validateStates(world, req); // before any write: a bad state refuses the whole slice
      try {
        CasResult res = cas.run(world, req);
        stats.slice(res.written());
        // Numbered in the job, so no save can fall between the writes and their number.
        seq[0] = res.written() > 0 ? ledger.recordWrite() : 0;
        return res;
      } finally {
        world.endOfJob();
      }
    });
    JsonObject o = CasCodec.encode(r);
    addSaved(o);
    if (persistence != null) o.addProperty("write_seq", seq[0]); // this slice's number (0: it wrote nothing)
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
    Json.onlyKeys(p, "", Set.of("reset"));
    TickStats.Snapshot s = stats.snapshot(Json.bool(p, "reset", "", false));
    JsonObject o = new JsonObject();
    o.addProperty("ticks", s.ticks());
    o.addProperty("tick_ms_max", s.tickMsMax());
    o.addProperty("tick_ms_p99", s.tickMsP99());
    o.addProperty("tick_ms_mean", s.tickMsMean());
    o.addProperty("port_ms_total", s.portMsTotal());
    o.addProperty("slices", s.slices());
    o.addProperty("blocks_written", s.blocksWritten());
    o.addProperty("budget_ms", scheduler.budgetNanos() / 1e6);
    addSaved(o);
    return o;
  }

  /** Test hook (only with test hooks on): an edit from outside the engine, with or without an event. */
  private JsonObject testEdit(JsonObject p) {
    Json.onlyKeys(p, "", Set.of("x", "y", "z", "state", "event"));
    int x = Json.integer(p, "x", ""), y = Json.integer(p, "y", ""), z = Json.integer(p, "z", "");
    String state = Json.string(p, "state", "", MAX_STATE, false);
    boolean event = Json.bool(p, "event", "", true);
    onGameThread(() -> {
      CompareAndSet.requireLoaded(world, world.facts(), x, y, z);
      String why = world.checkState(state);
      if (why != null) throw new PortError(PortError.Code.UNSUPPORTED_BLOCK, why, Map.of("path", "state"));
      world.set(x, y, z, state, null);
      world.endOfJob();
      String now = world.stateAt(x, y, z);
      if (event) events.record(x, y, z, now, Digests.at(world, now, x, y, z));
      return null;
    });
    return new JsonObject();
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

  private static RuntimeException unwrap(Exception e) {
    Throwable c = e instanceof ExecutionException ? e.getCause() : e;
    if (c instanceof PortError pe) return pe;
    if (e instanceof InterruptedException) Thread.currentThread().interrupt();
    return new PortError(PortError.Code.FAILED, "the host failed while running the request: " + Json.shorten(String.valueOf(c)), Map.of("reason", "host_error"), c);
  }
}
