package dev.mcb.port.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.destroystokyo.paper.event.server.ServerTickEndEvent;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.bukkit.Material;
import org.bukkit.block.Block;
import org.bukkit.block.BlockState;
import org.bukkit.event.block.BlockPlaceEvent;
import org.bukkit.inventory.EquipmentSlot;
import org.bukkit.inventory.ItemStack;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockbukkit.mockbukkit.MockBukkit;
import org.mockbukkit.mockbukkit.ServerMock;
import org.mockbukkit.mockbukkit.entity.PlayerMock;
import org.mockbukkit.mockbukkit.world.WorldMock;

/**
 * The plugin on a mock Paper server (MockBukkit, the `-Ppaper` build only): it loads and enables,
 * keeps its token where config.yml's `token-file` says, a player's block placement reaches the
 * port's event log at the end of the tick, and a compare-and-set sent over HTTP is run by the
 * plugin's tick task and writes the block, and a ghost preview reaches the player alone (the world
 * keeps its blocks).
 */
class PaperPortPluginTest {
  private ServerMock server;
  private WorldMock world;
  private PaperPortPlugin plugin;
  private Path folder;
  private int httpPort;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    server = MockBukkit.mock();
    world = server.addSimpleWorld("world");
    world.getChunkAt(0, 0).load();
    try (ServerSocket s = new ServerSocket(0)) {
      httpPort = s.getLocalPort();
    }
    // The plugin's data folder as MockBukkit will give it (name-version): config.yml is there before it enables.
    folder = server.getPluginManager().createTemporaryDirectory("mcb-port-0.1.0").toPath();
    Files.writeString(folder.resolve("config.yml"), "world: world\nbind: 127.0.0.1\nhttp-port: " + httpPort + "\nbudget-ms: 5\ntoken-file: secrets/mcb-token\n");
    plugin = MockBukkit.load(PaperPortPlugin.class);
  }

  @AfterEach
  void stop() {
    MockBukkit.unmock();
  }

  private String token() throws Exception {
    return Files.readString(folder.resolve("secrets/mcb-token")).strip();
  }

  /** A port call, ticking the mock server until it is answered (world work runs in the plugin's tick task). */
  private JsonObject call(String method, String body) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/v1/" + method))
        .header("Authorization", "Bearer " + token())
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
    CompletableFuture<HttpResponse<String>> answer = http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    for (int i = 0; i < 2_000 && !answer.isDone(); i++) {
      server.getScheduler().performOneTick();
      Thread.sleep(2);
    }
    HttpResponse<String> r = answer.get();
    assertEquals(200, r.statusCode(), r.body());
    return JsonParser.parseString(r.body()).getAsJsonObject().getAsJsonObject("result");
  }

  @Test
  void itEnablesWithItsTokenWhereTokenFileSays() throws Exception {
    assertTrue(plugin.isEnabled());
    Path file = folder.resolve("secrets/mcb-token");
    assertTrue(token().matches("[0-9a-f]{64}"));
    assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE), Files.getPosixFilePermissions(file));
    assertTrue(Files.notExists(folder.resolve("port-token")), "no token at the default place");
    JsonObject info = call("info", "{}");
    assertEquals(1, info.get("protocol").getAsInt());
  }

  @Test
  void aPlayersBlockPlacementReachesTheEventLog() throws Exception {
    String cursor = call("events", "{\"cursor\":null}").get("cursor").getAsString();
    PlayerMock player = server.addPlayer();
    Block block = world.getBlockAt(3, 64, 3);
    BlockState replaced = block.getState();
    block.setType(Material.STONE);
    server.getPluginManager().callEvent(new BlockPlaceEvent(block, replaced, world.getBlockAt(3, 63, 3), new ItemStack(Material.STONE), player, true, EquipmentSlot.HAND));
    server.getPluginManager().callEvent(new ServerTickEndEvent(server.getCurrentTick(), 1.0, 0)); // the tick ends: its edits are recorded
    JsonArray events = call("events", "{\"cursor\":\"" + cursor + "\"}").getAsJsonArray("events");
    assertEquals(1, events.size(), events.toString());
    JsonObject e = events.get(0).getAsJsonObject();
    assertEquals(3, e.get("x").getAsInt());
    assertEquals(64, e.get("y").getAsInt());
    assertEquals("minecraft:stone", e.get("state").getAsString());
  }

  @Test
  void aCompareAndSetRunsInTheTickTaskAndWritesTheBlock() throws Exception {
    assertEquals(Material.AIR, world.getBlockAt(5, 64, 5).getType());
    JsonObject r = call("cas", "{\"states\":[\"minecraft:air\",\"minecraft:stone\"],\"digests\":[],\"checks\":[],\"writes\":[[5,64,5,0,-1,1]]}");
    assertEquals(1, r.get("written").getAsInt(), r.toString());
    assertEquals(Material.STONE, world.getBlockAt(5, 64, 5).getType());
    // and the port's own write is not a person's edit: nothing in the event log for it
    JsonObject again = call("cas", "{\"states\":[\"minecraft:stone\",\"minecraft:air\"],\"digests\":[],\"checks\":[],\"writes\":[[5,64,5,0,-1,1]]}");
    assertEquals(1, again.get("written").getAsInt());
    assertEquals(Material.AIR, world.getBlockAt(5, 64, 5).getType());
  }

  @Test
  void aGhostPreviewGoesToThePlayerAloneAndLeavesTheWorld() throws Exception {
    PlayerMock player = server.addPlayer();
    player.teleport(world.getSpawnLocation());
    String id = player.getUniqueId().toString();
    JsonObject info = call("info", "{}");
    assertTrue(info.getAsJsonArray("capabilities").toString().contains("\"ghosts\""), info.toString());
    JsonObject shown = call("ghost_show", "{\"player_id\":\"" + id + "\",\"palette\":[\"minecraft:stone\"],\"blocks\":[6,64,6,0,6,65,6,0]}");
    assertTrue(shown.get("delivered").getAsBoolean(), shown.toString());
    assertEquals(2, shown.get("shown").getAsInt());
    assertEquals(Material.AIR, world.getBlockAt(6, 64, 6).getType());
    assertEquals(2, call("ghost_clear", "{\"player_id\":\"" + id + "\"}").get("cleared").getAsInt());
    assertEquals(Material.AIR, world.getBlockAt(6, 65, 6).getType());
  }
}
