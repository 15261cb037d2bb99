package dev.mcb.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The saved-writes protocol over real HTTP: write_seq per slice, saved_through, flush, and the 64-bit read bounds. */
class SavedWritesTest {
  static final String TOKEN = "test-token-0123456789";
  final MapWorld world = new MapWorld();
  /** What a save wrote: the world's states at the last save (a host's files). */
  final Map<String, String> disk = new HashMap<>();
  int saves;
  PortServer server;
  Port port;
  final HttpClient http = HttpClient.newHttpClient();

  void start(boolean persistent) throws Exception {
    AutoGame game = new AutoGame();
    TickStats stats = new TickStats(10);
    PortConfig config = new PortConfig("127.0.0.1", 0, TOKEN, 5_000_000, 64 * 1024, 1000, 100);
    TickScheduler scheduler = new TickScheduler(game, config.budgetNanos(), 16, System::nanoTime, stats);
    game.start(scheduler);
    // A host's files: begin copies the world on the game thread, write stores the copy on the saver thread.
    Persistence files = () -> {
      Map<String, String> copy = new HashMap<>(world.states);
      return new Persistence.Pass() {
        @Override
        public boolean copy(long budgetNanos) {
          return false;
        }

        @Override
        public void abandon() {}

        @Override
        public int write() {
          saves++;
          disk.clear();
          disk.putAll(copy);
          return 1;
        }
      };
    };
    port = new Port(world, scheduler, new EventLog(10), new ChatQueue(4), (p, t) -> false, stats, config, new SaveLedger(), persistent ? files : null);
    server = new PortServer(port, config);
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
    port.close();
  }

  JsonObject call(String method, String body) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/" + method))
        .header("Authorization", "Bearer " + TOKEN).POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    JsonObject o = JsonParser.parseString(r.body()).getAsJsonObject();
    o.addProperty("http", r.statusCode());
    return o;
  }

  static String write(int x, String before, String after) {
    return "{\"states\":[\"" + before + "\",\"" + after + "\"],\"digests\":[],\"checks\":[],\"writes\":[[" + x + ",64,1,0,-1,1]]}";
  }

  @Test
  void everySliceThatWritesGetsTheNextNumberAndFlushSavesThemAll() throws Exception {
    start(true);
    JsonObject info = call("info", "{}").getAsJsonObject("result");
    String session = info.get("session").getAsString();
    assertEquals(0, info.get("saved_through").getAsLong());
    JsonObject a = call("cas", write(1, "minecraft:air", "minecraft:stone")).getAsJsonObject("result");
    JsonObject b = call("cas", write(2, "minecraft:air", "minecraft:stone")).getAsJsonObject("result");
    JsonObject none = call("cas", write(2, "minecraft:air", "minecraft:stone")).getAsJsonObject("result"); // a mismatch: writes nothing
    assertEquals(1, a.get("write_seq").getAsLong());
    assertEquals(2, b.get("write_seq").getAsLong());
    assertEquals(0, none.get("write_seq").getAsLong());
    assertEquals(session, b.get("session").getAsString());
    assertEquals(0, b.get("saved_through").getAsLong());
    assertFalse(disk.containsKey("2,64,1"));

    JsonObject flushed = call("flush", "{}").getAsJsonObject("result");
    assertEquals(2, flushed.get("saved_through").getAsLong());
    assertEquals(1, flushed.get("chunks").getAsLong());
    assertEquals("minecraft:stone", disk.get("2,64,1")); // what saved_through covers is in the files
    assertEquals(2, call("stats", "{}").getAsJsonObject("result").get("saved_through").getAsLong());

    call("cas", write(3, "minecraft:air", "minecraft:stone"));
    assertEquals(1, port.save().join().chunks()); // the host's autosave moves the same mark
    assertEquals(3, call("info", "{}").getAsJsonObject("result").get("saved_through").getAsLong());
    assertEquals(2, saves);
  }

  @Test
  void aHostWithoutSavedWritesSaysSo() throws Exception {
    start(false);
    JsonObject info = call("info", "{}").getAsJsonObject("result");
    assertTrue(info.has("session"));
    assertFalse(info.has("saved_through"));
    JsonObject r = call("flush", "{}");
    assertEquals(404, r.get("http").getAsInt());
    assertEquals("no_saved_writes", r.getAsJsonObject("error").getAsJsonObject("details").get("reason").getAsString());
    assertFalse(call("cas", write(1, "minecraft:air", "minecraft:stone")).getAsJsonObject("result").has("write_seq"));
  }

  @Test
  void readBoxesAreSizedIn64BitsSoHugeOnesAre413() throws Exception {
    start(false);
    String[] boxes = {
      "{\"min\":{\"x\":0,\"y\":-2147483648,\"z\":0},\"max\":{\"x\":0,\"y\":2147483647,\"z\":0}}",
      "{\"min\":{\"x\":0,\"y\":0,\"z\":0},\"max\":{\"x\":2147483647,\"y\":0,\"z\":0}}",
      "{\"min\":{\"x\":-2147483648,\"y\":-2147483648,\"z\":-2147483648},\"max\":{\"x\":2147483647,\"y\":2147483647,\"z\":2147483647}}",
    };
    for (String box : boxes) {
      JsonObject r = call("read", "{\"box\":" + box + "}");
      assertEquals(413, r.get("http").getAsInt(), box);
      assertEquals("budget_exceeded", r.getAsJsonObject("error").get("code").getAsString());
    }
    assertEquals(Long.MAX_VALUE, new RegionRead.Box(Integer.MIN_VALUE, Integer.MIN_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE).volume());
    assertEquals(1L << 32, new RegionRead.Box(0, Integer.MIN_VALUE, 0, 0, Integer.MAX_VALUE, 0).volume());
  }
}
