package dev.mcb.port;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** cas_batch: the binary body (the shared vector, every malformed form refused) and its run-in-order, stop-at-the-first rule over HTTP. */
class CasBatchTest {
  static final String TOKEN = "test-token-0123456789";
  MapWorld world;
  PortServer server;
  Port port;
  final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    world = new MapWorld();
    AutoGame game = new AutoGame();
    TickStats stats = new TickStats(100);
    PortConfig config = new PortConfig("127.0.0.1", 0, TOKEN, 5_000_000, 1 << 20, 2000, 100);
    TickScheduler scheduler = new TickScheduler(game, config.budgetNanos(), 256, System::nanoTime, stats);
    game.start(scheduler);
    port = new Port(world, scheduler, new EventLog(10), new ChatQueue(4), (p, t) -> false, stats, config);
    server = new PortServer(port, config);
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  static byte[] vectorBody() throws Exception {
    JsonObject doc = JsonParser.parseString(Files.readString(Path.of("../protocol-vectors.json"))).getAsJsonObject();
    return HexFormat.of().parseHex(doc.getAsJsonObject("cas_batch").get("body_hex").getAsString());
  }

  @Test
  void decodesTheSharedVector() throws Exception {
    JsonObject v = JsonParser.parseString(Files.readString(Path.of("../protocol-vectors.json"))).getAsJsonObject().getAsJsonObject("cas_batch");
    List<CasRequest> slices = CasBatchCodec.decode(vectorBody());
    JsonArray states = v.getAsJsonArray("states");
    JsonArray want = v.getAsJsonArray("slices");
    assertEquals(want.size(), slices.size());
    for (int s = 0; s < slices.size(); s++) {
      JsonObject ws = want.get(s).getAsJsonObject();
      CasRequest got = slices.get(s);
      assertEquals(ws.getAsJsonArray("checks").size(), got.checks().size());
      for (int c = 0; c < got.checks().size(); c++) {
        JsonObject wc = ws.getAsJsonArray("checks").get(c).getAsJsonObject();
        assertEquals(states.get(wc.get("state").getAsInt()).getAsString(), got.checks().get(c).state());
        assertEquals(wc.get("y").getAsInt(), got.checks().get(c).y());
      }
      JsonArray writes = ws.getAsJsonArray("writes");
      for (int w = 0; w < writes.size(); w++) {
        JsonObject ww = writes.get(w).getAsJsonObject();
        CasRequest.Write g = got.writes().get(w);
        assertEquals(List.of(ww.get("x").getAsInt(), ww.get("y").getAsInt(), ww.get("z").getAsInt()), List.of(g.x(), g.y(), g.z()));
        assertEquals(states.get(ww.get("before").getAsInt()).getAsString(), g.before());
        assertEquals(states.get(ww.get("after").getAsInt()).getAsString(), g.after());
        int d = ww.get("before_digest").getAsInt();
        assertEquals(d < 0 ? null : v.getAsJsonArray("digests").get(d).getAsString(), g.beforeDigest());
        if (ww.get("data").isJsonNull()) assertNull(g.afterData());
        else assertArrayEquals(HexFormat.of().parseHex(ww.get("data").getAsString()), g.afterData());
      }
      int[] ends = ws.getAsJsonArray("group_ends").isEmpty() ? java.util.stream.IntStream.rangeClosed(1, writes.size()).toArray()
          : ws.getAsJsonArray("group_ends").asList().stream().mapToInt(e -> e.getAsInt()).toArray();
      assertArrayEquals(ends, got.groupEnds());
    }
  }

  @Test
  void everyCutTamperedOrOversizedBodyIsRefusedWithTheFieldNamed() throws Exception {
    byte[] body = vectorBody();
    for (int n = 0; n < body.length; n++) { // every prefix: the body ends inside something
      byte[] cut = java.util.Arrays.copyOf(body, n);
      PortError e = assertThrows(PortError.class, () -> CasBatchCodec.decode(cut), "prefix " + n);
      assertEquals("invalid_request", e.code(), "prefix " + n);
      assertTrue(e.details().containsKey("path"), "prefix " + n);
    }
    byte[] trailing = java.util.Arrays.copyOf(body, body.length + 1);
    assertEquals("slices", assertThrows(PortError.class, () -> CasBatchCodec.decode(trailing)).details().get("path"));
    byte[] magic = body.clone();
    magic[0] = 'X';
    assertEquals("header", assertThrows(PortError.class, () -> CasBatchCodec.decode(magic)).details().get("path"));
    // Slices, writes and checks over their limits: budget_exceeded naming the limit.
    assertEquals("max_slices", assertThrows(PortError.class, () -> CasBatchCodec.decode(batch(65, 1, 0))).details().get("limit"));
    assertEquals("max_writes", assertThrows(PortError.class, () -> CasBatchCodec.decode(batch(1, 513, 0))).details().get("limit"));
    assertEquals("max_checks", assertThrows(PortError.class, () -> CasBatchCodec.decode(batch(1, 1, 4097))).details().get("limit"));
    // A state index past the table, a position written twice, a bad group end.
    byte[] index = batch(1, 1, 0);
    ByteBuffer.wrap(index).order(ByteOrder.LITTLE_ENDIAN).putInt(index.length - 4 - 4 - 4 - 4 - 4, 7);
    assertEquals("slices[0].writes[0].before", assertThrows(PortError.class, () -> CasBatchCodec.decode(index)).details().get("path"));
    assertTrue(assertThrows(PortError.class, () -> CasBatchCodec.decode(batch(1, 2, 0, true))).getMessage().contains("repeats"));
  }

  /** A batch of `slices` slices of `writes` air→stone writes at distinct positions, `checks` checks each. */
  static byte[] batch(int slices, int writes, int checks) {
    return batch(slices, writes, checks, false);
  }

  static byte[] batch(int slices, int writes, int checks, boolean repeat) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer b = ByteBuffer.allocate(64 * 1024 * 1024).order(ByteOrder.LITTLE_ENDIAN);
    b.put("MCBC".getBytes(StandardCharsets.US_ASCII)).put((byte) 1);
    b.putInt(2);
    for (String s : List.of("minecraft:air", "minecraft:stone")) b.putShort((short) s.length()).put(s.getBytes(StandardCharsets.UTF_8));
    b.putInt(0);
    b.putShort((short) slices);
    int k = 0;
    for (int s = 0; s < slices; s++) {
      b.putInt(checks);
      for (int c = 0; c < checks; c++) b.putInt(0).putInt(63).putInt(0).putInt(0).putInt(-1);
      b.putInt(writes);
      for (int w = 0; w < writes; w++, k++) b.putInt(repeat ? 0 : k % 32).putInt(64 + k / 1024).putInt(repeat ? 0 : (k / 32) % 32).putInt(0).putInt(-1).putInt(1).putInt(-1);
      b.putInt(0);
    }
    out.write(b.array(), 0, b.position());
    return out.toByteArray();
  }

  JsonObject call(byte[] body, String type) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/cas_batch"))
        .header("Authorization", "Bearer " + TOKEN).header("Content-Type", type).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    JsonObject o = JsonParser.parseString(r.body()).getAsJsonObject();
    o.addProperty("http", r.statusCode());
    return o;
  }

  @Test
  void runsInOrderAndStopsAtTheFirstSliceWithAMismatchNothingAfterItRuns() throws Exception {
    // 16 slices of 32 writes; a person's block sits in slice 3: slices 0-2 are written, slice 3 up to its failing group, 4-15 never.
    world.states.put("3,64,3", "minecraft:dirt"); // k = 3*32+... : position of write 3 of slice 3 is (3 + 96) % 32 = 3, z = 99/32 = 3
    JsonObject r = call(batch(16, 32, 0), PortServer.BINARY);
    assertEquals(200, r.get("http").getAsInt(), r.toString());
    JsonObject res = r.getAsJsonObject("result");
    JsonArray results = res.getAsJsonArray("results");
    assertEquals(4, results.size());
    for (int s = 0; s < 3; s++) assertEquals(32, results.get(s).getAsJsonObject().get("written").getAsInt());
    assertEquals(3, results.get(3).getAsJsonObject().get("written").getAsInt());
    assertEquals("mismatch", res.getAsJsonObject("stopped").get("reason").getAsString());
    assertEquals(3, res.getAsJsonObject("stopped").get("slice").getAsInt());
    long stone = world.states.values().stream().filter("minecraft:stone"::equals).count();
    assertEquals(3 * 32 + 3, stone); // the slices queued behind the stop never ran
  }

  @Test
  void aRefusedSliceWritesNothingAndStopsTheBatchAJsonBodyIsRefused() throws Exception {
    world.loaded.clear(); // every chunk unloaded: slice 0 is refused before writing
    JsonObject r = call(batch(2, 4, 0), PortServer.BINARY).getAsJsonObject("result");
    assertEquals(0, r.getAsJsonArray("results").size());
    JsonObject stopped = r.getAsJsonObject("stopped");
    assertEquals("refused", stopped.get("reason").getAsString());
    assertEquals("out_of_bounds", stopped.getAsJsonObject("error").get("code").getAsString());
    assertTrue(world.states.isEmpty());
    JsonObject json = call("{}".getBytes(StandardCharsets.UTF_8), "application/json");
    assertEquals(400, json.get("http").getAsInt());
    assertEquals("content-type", json.getAsJsonObject("error").getAsJsonObject("details").get("path").getAsString());
    assertFalse(json.get("ok").getAsBoolean());
  }

  @Test
  void aBatchLargerThanTheQueueRunsWhatWasQueuedAndSaysWhereItStopped() throws Exception {
    PortConfig config = new PortConfig("127.0.0.1", 0, TOKEN, 5_000_000, 1 << 20, 2000, 100);
    ManualGame game = new ManualGame();
    TickScheduler small = new TickScheduler(game, config.budgetNanos(), 2, System::nanoTime, new TickStats(10));
    Port p = new Port(world, small, new EventLog(10), new ChatQueue(4), (a, t) -> false, new TickStats(10), config);
    Thread drainer = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        game.tick++;
        small.drain();
        Thread.onSpinWait();
      }
    });
    drainer.setDaemon(true);
    List<JsonObject> out = new ArrayList<>();
    Thread caller = new Thread(() -> out.add(p.casBatch(batch(5, 2, 0))));
    caller.start(); // five slices, a queue of two: slices 2-4 are refused busy before they are queued
    // The caller waits for its results only once it has queued what it could: then the game runs
    // (waiting on the thread's state, not a fixed time, which a busy machine can overrun).
    for (long deadline = System.nanoTime() + 10_000_000_000L; caller.getState() != Thread.State.TIMED_WAITING; Thread.sleep(1))
      assertTrue(System.nanoTime() < deadline, "the caller never waited for its results");
    drainer.start();
    caller.join(5000);
    drainer.interrupt();
    JsonObject r = out.get(0);
    assertEquals(2, r.getAsJsonArray("results").size());
    assertEquals(2, r.getAsJsonObject("stopped").get("slice").getAsInt());
    assertEquals("busy", r.getAsJsonObject("stopped").getAsJsonObject("error").get("code").getAsString());
    assertEquals(4, world.states.size());
  }
}
