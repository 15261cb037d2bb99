package dev.mcb.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Ghost previews through the port's methods: one player's view changes, the world and everyone else's do not. */
class GhostsTest {
  static final String ANNA = "00000000-0000-0000-0000-00000000000a";
  static final String BOB = "00000000-0000-0000-0000-00000000000b";
  static final String GONE = "00000000-0000-0000-0000-00000000000c";

  /** Each online player's client view: what the world sent them, overlaid by what the port sent only them. */
  static final class Clients implements ChatSink, PlayerViews {
    final Map<String, Map<String, String>> views = new ConcurrentHashMap<>();
    final List<String> told = new CopyOnWriteArrayList<>();

    Clients() {
      views.put(ANNA, new ConcurrentHashMap<>());
      views.put(BOB, new ConcurrentHashMap<>());
    }

    @Override
    public boolean send(String playerId, String text) {
      told.add(playerId + ": " + text);
      return views.containsKey(playerId);
    }

    @Override
    public boolean online(String playerId) {
      return views.containsKey(playerId);
    }

    @Override
    public void sendStates(String playerId, long[] positions, String[] states) {
      for (int i = 0; i < positions.length; i++)
        views.get(playerId).put(Ghosts.x(positions[i]) + "," + Ghosts.y(positions[i]) + "," + Ghosts.z(positions[i]), states[i]);
    }

    String sees(String player, String pos, MapWorld world) {
      String ghost = views.get(player).get(pos);
      if (ghost != null) return ghost;
      String[] p = pos.split(",");
      return world.stateAt(Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]));
    }
  }

  MapWorld world;
  EventLog events;
  Clients clients;
  Port port;
  AutoGame game;

  @BeforeEach
  void start() {
    world = new MapWorld();
    game = new AutoGame();
    TickStats stats = new TickStats(100);
    PortConfig config = new PortConfig("127.0.0.1", 0, "test-token-0123456789", 5_000_000, 64 * 1024, 300, 100);
    TickScheduler scheduler = new TickScheduler(game, config.budgetNanos(), 16, System::nanoTime, stats);
    game.start(scheduler);
    events = new EventLog(100);
    clients = new Clients();
    port = new Port(world, scheduler, events, new ChatQueue(4), clients, stats, config);
  }

  @AfterEach
  void stop() {
    if (port != null) port.close();
  }

  static JsonObject json(String s) {
    return JsonParser.parseString(s).getAsJsonObject();
  }

  /** A 3-block tower of stone at x 1, z 1, y 64..66. */
  JsonObject showTower(String player, int ttl) {
    return port.call("ghost_show", json("{\"player_id\":\"" + player + "\",\"palette\":[\"minecraft:stone\"],\"blocks\":[1,64,1,0,1,65,1,0,1,66,1,0],\"ttl_s\":" + ttl + "}"));
  }

  JsonObject cas(String before, String after) {
    return port.call("cas", json("{\"states\":[\"" + before + "\",\"" + after + "\"],\"digests\":[],\"checks\":[],\"writes\":[[1,65,1,0,-1,1]]}"));
  }

  @Test
  void showsOnePlayerOnlyAndLeavesTheWorldItsLogAndTheOthersAlone() {
    JsonObject r = showTower(ANNA, 60);
    assertTrue(r.get("delivered").getAsBoolean());
    assertEquals(3, r.get("shown").getAsInt());
    for (int y = 64; y <= 66; y++) {
      assertEquals("minecraft:stone", clients.sees(ANNA, "1," + y + ",1", world));
      assertEquals("minecraft:air", clients.sees(BOB, "1," + y + ",1", world));
      assertEquals("minecraft:air", world.stateAt(1, y, 1));
    }
    assertEquals(0, world.sets);
    assertTrue(events.after(null).events().isEmpty());
    assertTrue(port.call("info", new JsonObject()).getAsJsonArray("capabilities").toString().contains("\"ghosts\""));
    assertEquals(3, port.call("ghost_clear", json("{\"player_id\":\"" + ANNA + "\"}")).get("cleared").getAsInt());
    for (int y = 64; y <= 66; y++) assertEquals("minecraft:air", clients.sees(ANNA, "1," + y + ",1", world));
    assertEquals(0, port.call("ghost_clear", json("{\"player_id\":\"" + ANNA + "\"}")).get("cleared").getAsInt());
  }

  @Test
  void aWriteOfThePortUnderTheGhostClearsItAndTellsThePlayer() {
    showTower(ANNA, 60);
    assertEquals(1, cas("minecraft:air", "minecraft:oak_planks").get("written").getAsInt());
    assertEquals("minecraft:oak_planks", clients.sees(ANNA, "1,65,1", world));
    assertEquals("minecraft:air", clients.sees(ANNA, "1,64,1", world)); // the whole ghost is gone
    assertTrue(clients.told.stream().anyMatch(t -> t.startsWith(ANNA + ": [mcb] preview #") && t.contains("the world changed under it at 1 65 1")), clients.told.toString());
  }

  @Test
  void aRefusedWriteLeavesTheGhost() {
    showTower(ANNA, 60);
    assertEquals(0, cas("minecraft:dirt", "minecraft:oak_planks").get("written").getAsInt());
    assertEquals("minecraft:stone", clients.sees(ANNA, "1,65,1", world));
    assertTrue(clients.told.isEmpty());
  }

  @Test
  void aPlayersEditUnderTheGhostClearsIt() throws Exception {
    showTower(ANNA, 60);
    world.states.put("1,66,1", "minecraft:glass"); // Bob places glass; his host records it on the game thread
    game.scheduler.submit(() -> {
      events.record(1, 66, 1, "minecraft:glass", null);
      return null;
    }).result().get();
    assertEquals("minecraft:glass", clients.sees(ANNA, "1,66,1", world));
    assertEquals("minecraft:air", clients.sees(ANNA, "1,64,1", world));
    // an edit elsewhere leaves a new ghost alone
    showTower(ANNA, 60);
    game.scheduler.submit(() -> {
      events.record(5, 64, 5, "minecraft:glass", null);
      return null;
    }).result().get();
    assertEquals("minecraft:stone", clients.sees(ANNA, "1,64,1", world));
  }

  @Test
  void aNewPreviewReplacesTheOldOneAndRestoresWhatItLeavesOut() {
    showTower(ANNA, 60);
    port.call("ghost_show", json("{\"player_id\":\"" + ANNA + "\",\"palette\":[\"minecraft:gold_block\"],\"blocks\":[1,64,1,0,2,64,1,0]}"));
    assertEquals("minecraft:gold_block", clients.sees(ANNA, "1,64,1", world));
    assertEquals("minecraft:gold_block", clients.sees(ANNA, "2,64,1", world));
    assertEquals("minecraft:air", clients.sees(ANNA, "1,65,1", world));
    assertEquals("minecraft:air", clients.sees(ANNA, "1,66,1", world));
  }

  @Test
  void aGhostEndsWhenItsTimeRunsOut() throws Exception {
    showTower(ANNA, 1);
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (clients.told.isEmpty() && System.nanoTime() < deadline) Thread.sleep(50);
    assertTrue(clients.told.get(0).contains("its time ran out"), clients.told.toString());
    assertEquals("minecraft:air", clients.sees(ANNA, "1,64,1", world));
  }

  @Test
  void aPlayerWhoLeavesLosesTheGhostWithNothingSent() throws Exception {
    showTower(ANNA, 60);
    clients.views.remove(ANNA); // Anna leaves
    Thread.sleep(2_500); // the port looks for players who left once a second
    clients.views.put(ANNA, new ConcurrentHashMap<>()); // and comes back: no ghost is kept for her
    assertEquals(0, port.call("ghost_clear", json("{\"player_id\":\"" + ANNA + "\"}")).get("cleared").getAsInt());
    assertTrue(clients.views.get(ANNA).isEmpty(), "nothing was sent to the player who left");
    assertTrue(clients.told.isEmpty());
  }

  @Test
  void anOfflinePlayerGetsNothingStored() {
    JsonObject r = showTower(GONE, 60);
    assertFalse(r.get("delivered").getAsBoolean());
    assertEquals(0, r.get("shown").getAsInt());
    assertEquals(0, port.call("ghost_clear", json("{\"player_id\":\"" + GONE + "\"}")).get("cleared").getAsInt());
  }

  @Test
  void boundsAreEnforcedBeforeAnythingIsShown() {
    StringBuilder many = new StringBuilder();
    for (int i = 0; i <= Ghosts.MAX_BLOCKS; i++) many.append(i == 0 ? "" : ",").append(i % 64).append(",64,").append(i / 64 % 64).append(",0");
    Map<String, String> bad = new HashMap<>();
    bad.put("{\"player_id\":\"" + ANNA + "\",\"palette\":[\"minecraft:stone\"],\"blocks\":[" + many + "]}", "budget_exceeded");
    bad.put("{\"player_id\":\"" + ANNA + "\",\"palette\":[\"stone please\"],\"blocks\":[1,64,1,0]}", "unsupported_block");
    bad.put("{\"player_id\":\"" + ANNA + "\",\"palette\":[\"minecraft:stone\"],\"blocks\":[1,64,1,1]}", "invalid_request");
    bad.put("{\"player_id\":\"" + ANNA + "\",\"palette\":[\"minecraft:stone\"],\"blocks\":[1,64,1]}", "invalid_request");
    bad.put("{\"player_id\":\"" + ANNA + "\",\"palette\":[\"minecraft:stone\"],\"blocks\":[1,999,1,0]}", "out_of_bounds");
    bad.put("{\"player_id\":\"" + ANNA + "\",\"palette\":[\"minecraft:stone\"],\"blocks\":[1,64,1,0],\"ttl_s\":0}", "invalid_request");
    bad.put("{\"player_id\":\"Anna\",\"palette\":[\"minecraft:stone\"],\"blocks\":[1,64,1,0]}", "invalid_request");
    bad.put("{\"player_id\":\"" + ANNA + "\",\"palette\":[\"minecraft:stone\"],\"blocks\":[1,64,1,0],\"world\":\"x\"}", "invalid_request");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      PortError err = assertThrows(PortError.class, () -> port.call("ghost_show", json(e.getKey())));
      assertEquals(e.getValue(), err.code(), e.getKey().length() > 200 ? "many blocks" : e.getKey());
    }
    assertTrue(clients.views.get(ANNA).isEmpty());
  }

  @Test
  void aHostThatShowsPlayersNothingHasNoGhostMethods() {
    Port plain = new Port(world, game.scheduler, new EventLog(10), new ChatQueue(4), (p, t) -> true, new TickStats(10),
        new PortConfig("127.0.0.1", 0, "test-token-0123456789", 5_000_000, 64 * 1024, 300, 100));
    PortError err = assertThrows(PortError.class, () -> plain.call("ghost_show", json("{}")));
    assertEquals("not_found", err.code());
    assertFalse(plain.call("info", new JsonObject()).getAsJsonArray("capabilities").toString().contains("ghosts"));
  }
}
