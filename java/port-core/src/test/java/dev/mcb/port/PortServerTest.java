package dev.mcb.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PortServerTest {
  static final String TOKEN = "test-token-0123456789";
  MapWorld world;
  AutoGame game;
  EventLog events;
  PortServer server;
  HttpClient http = HttpClient.newHttpClient();
  ChatQueue chat;
  Port port;

  @BeforeEach
  void start() throws Exception {
    world = new MapWorld();
    game = new AutoGame();
    TickStats stats = new TickStats(100);
    PortConfig config = new PortConfig("127.0.0.1", 0, TOKEN, 5_000_000, 64 * 1024, 300, 100);
    TickScheduler scheduler = new TickScheduler(game, config.budgetNanos(), 16, System::nanoTime, stats);
    game.start(scheduler);
    events = new EventLog(100);
    chat = new ChatQueue(4);
    port = new Port(world, scheduler, events, chat, (player, text) -> player.startsWith("0"), stats, config);
    server = new PortServer(port, config);
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  HttpResponse<String> post(String method, String body, String token) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/" + method)).POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) b.header("Authorization", "Bearer " + token);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  JsonObject error(HttpResponse<String> r) {
    JsonObject o = JsonParser.parseString(r.body()).getAsJsonObject();
    assertFalse(o.get("ok").getAsBoolean());
    return o.getAsJsonObject("error");
  }

  static final String WRITE = "{\"states\":[\"minecraft:air\",\"minecraft:stone\"],\"digests\":[],\"checks\":[],\"writes\":[[1,64,1,0,-1,1]]}";

  @Test
  void refusesAMissingOrWrongTokenWithoutTouchingTheWorldOrEchoingIt() throws Exception {
    for (String t : new String[] {null, "nope", TOKEN + "x", TOKEN.substring(1)}) {
      HttpResponse<String> r = post("cas", WRITE, t);
      assertEquals(401, r.statusCode());
      assertEquals("permission_denied", error(r).get("code").getAsString());
      assertFalse(r.body().contains(TOKEN.substring(4)));
    }
    assertEquals(0, world.sets);
    HttpResponse<String> ok = post("cas", WRITE, TOKEN);
    assertEquals(200, ok.statusCode(), ok.body());
    assertEquals("minecraft:stone", world.stateAt(1, 64, 1));
  }

  @Test
  void healthNeedsNoTokenAndSaysNothingPrivate() throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health")).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode());
    assertFalse(r.body().contains(TOKEN));
    assertTrue(r.body().contains("\"protocol\":1"));
  }

  @Test
  void oversizedRequestsAreRefusedBeforeAnyWork() throws Exception {
    HttpResponse<String> big = post("cas", "{\"states\":[],\"digests\":[],\"checks\":[],\"writes\":[],\"pad\":\"" + "x".repeat(70_000) + "\"}", TOKEN);
    assertEquals(413, big.statusCode());
    assertEquals("budget_exceeded", error(big).get("code").getAsString());
    StringBuilder many = new StringBuilder("{\"states\":[\"minecraft:air\",\"minecraft:stone\"],\"digests\":[],\"checks\":[],\"writes\":[");
    for (int i = 0; i < 513; i++) many.append(i == 0 ? "" : ",").append("[").append(i % 16).append(",").append(i / 16).append(",0,0,-1,1]");
    HttpResponse<String> r = post("cas", many.append("]}").toString(), TOKEN);
    assertEquals("budget_exceeded", error(r).get("code").getAsString());
    assertEquals("max_writes", error(r).getAsJsonObject("details").get("limit").getAsString());
    HttpResponse<String> read = post("read", "{\"box\":{\"min\":{\"x\":0,\"y\":0,\"z\":0},\"max\":{\"x\":31,\"y\":32,\"z\":31}}}", TOKEN);
    assertEquals("budget_exceeded", error(read).get("code").getAsString());
    assertEquals(0, world.sets);
  }

  @Test
  void malformedRequestsGetStructuredErrorsWithThePathAndChangeNothing() throws Exception {
    String head = "{\"states\":[\"minecraft:air\",\"minecraft:stone\"],\"digests\":[],\"checks\":[],";
    String[][] cases = {
        {"{", ""},
        {"[]", ""},
        {head + "\"writes\":[[1.5,64,1,0,-1,1]]}", "writes[0][0]"},
        {head + "\"writes\":[[1,64,1,0,-1]]}", "writes[0]"},
        {head + "\"writes\":[[1,64,1,0,0,1]]}", "writes[0][4]"},
        {head + "\"writes\":[[1,64,1,0,-1,7]]}", "writes[0][5]"},
        {"{\"states\":[],\"digests\":[\"ABC\"],\"checks\":[],\"writes\":[]}", "digests[0]"},
        {head + "\"writes\":[],\"extra\":1}", "extra"},
        {head + "\"writes\":[[1,64,1,0,-1,1]],\"group_ends\":[2]}", "group_ends[0]"},
        {head + "\"writes\":[[1,64,1,0,-1,1]],\"data\":[[0,\"%%%\"]]}", "data[0][1]"},
        {head + "\"writes\":[[1,64,1,0,-1,1],[1,64,1,0,-1,1]]}", "writes[1]"},
        {"{\"a\":" + "[".repeat(100) + "]".repeat(100) + "}", ""},
    };
    for (String[] c : cases) {
      HttpResponse<String> r = post("cas", c[0], TOKEN);
      assertEquals(400, r.statusCode(), c[0]);
      JsonObject e = error(r);
      assertEquals("invalid_request", e.get("code").getAsString());
      if (!c[1].isEmpty()) assertEquals(c[1], e.getAsJsonObject("details").get("path").getAsString(), r.body());
    }
    // A bad state anywhere in the slice refuses the whole slice before its first write.
    String badState = "{\"states\":[\"minecraft:air\",\"minecraft:stone\",\"not a state\"],\"digests\":[],\"checks\":[],\"writes\":[[1,64,1,0,-1,1],[2,64,1,0,-1,2]]}";
    HttpResponse<String> r = post("cas", badState, TOKEN);
    assertEquals("unsupported_block", error(r).get("code").getAsString());
    assertEquals("writes[1].after", error(r).getAsJsonObject("details").get("path").getAsString());
    assertEquals(404, post("format_disk", "{}", TOKEN).statusCode());
    assertEquals(0, world.sets);
  }

  @Test
  void readsReturnPackedIndicesInYzxOrderWithDigests() throws Exception {
    world.set(1, 64, 0, "minecraft:stone", null);
    world.set(0, 65, 1, "minecraft:chest[facing=north,type=single,waterlogged=false]", null);
    HttpResponse<String> r = post("read", "{\"box\":{\"min\":{\"x\":0,\"y\":64,\"z\":0},\"max\":{\"x\":1,\"y\":65,\"z\":1}}}", TOKEN);
    JsonObject res = JsonParser.parseString(r.body()).getAsJsonObject().getAsJsonObject("result");
    var palette = res.getAsJsonArray("palette").asList().stream().map(e -> e.getAsString()).toList();
    int[] idx = PackedIndices.unpack(Base64.getDecoder().decode(res.get("indices").getAsString()), res.get("bits").getAsInt(), 8);
    String[] want = {"minecraft:air", "minecraft:stone", "minecraft:air", "minecraft:air", "minecraft:air", "minecraft:air", "minecraft:chest[facing=north,type=single,waterlogged=false]", "minecraft:air"};
    for (int i = 0; i < 8; i++) assertEquals(want[i], palette.get(idx[i]), "index " + i);
    assertEquals(6, res.getAsJsonArray("digests").get(0).getAsJsonArray().get(0).getAsInt());
    assertEquals(Digests.sha256(MapWorld.EMPTY), res.getAsJsonArray("digests").get(0).getAsJsonArray().get(1).getAsString());
  }

  @Test
  void aJobTheGameThreadDoesNotTakeInTimeIsDroppedAsBusy() throws Exception {
    game.paused = true;
    HttpResponse<String> r = post("cas", WRITE, TOKEN);
    assertEquals(503, r.statusCode());
    JsonObject e = error(r);
    assertEquals("busy", e.get("code").getAsString());
    assertTrue(e.get("retryable").getAsBoolean());
    game.resume();
    Thread.sleep(100);
    assertEquals(0, world.sets, "the dropped job never runs later");
  }

  @Test
  void compareAndSetWritesDoNotFeedTheEventLog() throws Exception {
    String start = events.after(null).cursor();
    assertEquals(200, post("cas", WRITE, TOKEN).statusCode());
    events.record(3, 64, 3, "minecraft:glass", null); // an edit from outside the port (a player's), as the host's hooks record it
    HttpResponse<String> r = post("events", "{\"cursor\":\"" + start + "\"}", TOKEN);
    JsonObject res = JsonParser.parseString(r.body()).getAsJsonObject().getAsJsonObject("result");
    assertEquals(1, res.getAsJsonArray("events").size());
    assertEquals(3, res.getAsJsonArray("events").get(0).getAsJsonObject().get("x").getAsInt());
  }

  @Test
  void unknownMethodsAreRefusedNamingTheTableAndAHostMayAddItsOwn() throws Exception {
    JsonObject e = error(post("test_edit", "{}", TOKEN));
    assertEquals("not_found", e.get("code").getAsString());
    assertEquals("[\"info\",\"read\",\"read_block_entities\",\"cas\",\"cas_batch\",\"events\",\"chat_poll\",\"chat_reply\",\"stats\",\"flush\"]",
        e.getAsJsonObject("details").getAsJsonArray("allowed").toString());
    port.addMethod("echo", p -> p);
    assertEquals(200, post("echo", "{\"a\":1}", TOKEN).statusCode());
    assertThrows(IllegalArgumentException.class, () -> port.addMethod("cas", p -> p));
  }

  @Test
  void chatPollCarriesTheServersPositionAndLook() throws Exception {
    chat.offer("00000000-0000-0000-0000-000000000001", "Steve", "camera save gate", 4, 65, -7, 90.5f, -12.25f);
    chat.offer("00000000-0000-0000-0000-000000000002", "Alex", "build", null, null, null);
    JsonObject r = JsonParser.parseString(post("chat_poll", "{}", TOKEN).body()).getAsJsonObject().getAsJsonObject("result");
    JsonObject first = r.getAsJsonArray("messages").get(0).getAsJsonObject();
    assertEquals(-7, first.getAsJsonObject("position").get("z").getAsInt());
    assertEquals(90.5f, first.getAsJsonObject("look").get("yaw").getAsFloat());
    assertEquals(-12.25f, first.getAsJsonObject("look").get("pitch").getAsFloat());
    JsonObject second = r.getAsJsonArray("messages").get(1).getAsJsonObject();
    assertFalse(second.has("position"));
    assertFalse(second.has("look"));
  }

  @Test
  void chatRepliesNeedAPlayerUuid() throws Exception {
    assertEquals(400, post("chat_reply", "{\"player_id\":\"Steve\",\"text\":\"hi\"}", TOKEN).statusCode());
    HttpResponse<String> r = post("chat_reply", "{\"player_id\":\"00000000-0000-0000-0000-000000000001\",\"text\":\"hi\"}", TOKEN);
    assertTrue(r.body().contains("\"delivered\":true"), r.body());
  }

  @Test
  void bindsToLoopbackOnly() {
    assertThrows(IllegalArgumentException.class, () -> new PortConfig("0.0.0.0", 0, TOKEN, 5_000_000, 1024, 100, 10).bindAddress());
    assertThrows(IllegalArgumentException.class, () -> new PortConfig("127.0.0.1", 0, "short", 5_000_000, 1024, 100, 10));
  }
}
