package dev.mcb.port.minestom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.minestom.server.coordinate.Pos;
import net.minestom.server.coordinate.Vec;
import net.minestom.server.instance.block.Block;
import net.minestom.server.instance.block.BlockFace;
import net.minestom.server.instance.block.rule.BlockPlacementRule;
import net.minestom.server.item.ItemStack;
import org.junit.jupiter.api.Test;

/**
 * A player's placement on the Minestom host follows the same test vectors as the engine's plans
 * and {@code mcb edit} (packages/bridge/test/vectors/placement.json, from the game's documentation
 * and its block classes): each case's blocks are set, its blocks placed one by one through
 * {@link ConnectionRule#blockPlace}, and the neighbours asked as Minestom's
 * InstanceContainer#executeNeighboursBlockPlacementRule asks them (each of the six faces, the
 * update from the face towards the change, a changed neighbour updating its own, up to
 * {@code maxUpdateDistance}).
 */
class ConnectionRuleTest {
  private static final BlockFace[] FACES = {BlockFace.WEST, BlockFace.EAST, BlockFace.NORTH, BlockFace.SOUTH, BlockFace.BOTTOM, BlockFace.TOP};
  private final Connections rules = new Connections();
  private final Map<String, Block> world = new HashMap<>();
  private final Block.Getter getter = (x, y, z, c) -> world.getOrDefault(x + "," + y + "," + z, Block.AIR);
  private int turned;

  private static Block parse(String state) {
    int open = state.indexOf('[');
    Block b = Block.fromKey(open < 0 ? state : state.substring(0, open));
    if (open >= 0)
      for (String kv : state.substring(open + 1, state.length() - 1).split(",")) {
        String[] p = kv.split("=");
        b = b.withProperty(p[0], p[1]);
      }
    return b;
  }

  private BlockPlacementRule rule(Block b) {
    Connections.Kind k = rules.kind(b);
    return k == null || k == Connections.Kind.GATE ? null : new ConnectionRule(b, rules, p -> turned++);
  }

  private void neighbours(int x, int y, int z, int distance) {
    for (BlockFace face : FACES) {
      int nx = x + face.toDirection().normalX(), ny = y + face.toDirection().normalY(), nz = z + face.toDirection().normalZ();
      Block nb = getter.getBlock(nx, ny, nz);
      BlockPlacementRule r = nb.isAir() ? null : rule(nb);
      if (r == null || distance >= r.maxUpdateDistance()) continue;
      Block next = r.blockUpdate(new BlockPlacementRule.UpdateState(getter, new Vec(nx, ny, nz), nb, face.getOppositeFace()));
      if (next == nb) continue;
      world.put(nx + "," + ny + "," + nz, next);
      neighbours(nx, ny, nz, distance + 1);
    }
  }

  /** The player looks the way a placed stair is to face (StairBlock: facing is the player's horizontal direction). */
  private static float yawFor(String facing) {
    return switch (facing == null ? "south" : facing) {
      case "west" -> 90;
      case "north" -> 180;
      case "east" -> -90;
      default -> 0;
    };
  }

  private void place(int x, int y, int z, Block item) {
    Block placed = Block.fromKey(item.key()); // the item's default state, as Minestom hands it to the rule
    BlockPlacementRule r = rule(placed);
    Pos player = new Pos(x + 0.5, y + 1, z - 2, yawFor(item.getProperty("facing")), 30);
    Block result = r == null ? item
        : r.blockPlace(new BlockPlacementRule.PlacementState(getter, placed, BlockFace.TOP, new Vec(x, y, z), new Vec(0.5, 1, 0.5), player, ItemStack.AIR, false));
    world.put(x + "," + y + "," + z, result);
    neighbours(x, y, z, 0);
  }

  private static List<JsonObject> cases() throws IOException {
    JsonObject doc = JsonParser.parseString(Files.readString(Path.of("../../packages/bridge/test/vectors/placement.json"))).getAsJsonObject();
    List<JsonObject> out = new ArrayList<>();
    for (JsonElement e : doc.getAsJsonArray("cases")) out.add(e.getAsJsonObject());
    return out;
  }

  @Test
  void everyVectorOfTheGamesPlacementHolds() throws IOException {
    List<JsonObject> cases = cases();
    assertTrue(cases.size() >= 13, "the vectors are there");
    List<String> wrong = new ArrayList<>();
    for (JsonObject c : cases) {
      world.clear();
      for (JsonElement s : c.getAsJsonArray("setup")) {
        JsonArray a = s.getAsJsonArray();
        world.put(a.get(0).getAsInt() + "," + a.get(1).getAsInt() + "," + a.get(2).getAsInt(), parse(a.get(3).getAsString()));
      }
      JsonObject pl = c.getAsJsonObject("place");
      JsonArray min = pl.getAsJsonArray("min"), max = pl.getAsJsonArray("max");
      Block item = parse(pl.get("state").getAsString());
      for (int y = min.get(1).getAsInt(); y <= max.get(1).getAsInt(); y++)
        for (int z = min.get(2).getAsInt(); z <= max.get(2).getAsInt(); z++)
          for (int x = min.get(0).getAsInt(); x <= max.get(0).getAsInt(); x++) place(x, y, z, item);
      for (Map.Entry<String, JsonElement> e : c.getAsJsonObject("expect").entrySet()) {
        Block got = world.get(e.getKey());
        for (Map.Entry<String, JsonElement> p : e.getValue().getAsJsonObject().entrySet()) {
          String have = got == null ? null : got.getProperty(p.getKey());
          if (!p.getValue().getAsString().equals(have))
            wrong.add(c.get("name").getAsString() + ": " + e.getKey() + " " + p.getKey() + "=" + have + ", the game gives " + p.getValue().getAsString());
        }
      }
    }
    assertEquals(List.of(), wrong);
  }

  @Test
  void aPaneBetweenTwoSolidBlocksPlacedByHandJoinsBoth() {
    world.put("-1,64,0", Block.ANDESITE);
    world.put("1,64,0", Block.ANDESITE);
    place(0, 64, 0, Block.GLASS_PANE);
    Block pane = world.get("0,64,0");
    assertEquals("true", pane.getProperty("east"));
    assertEquals("true", pane.getProperty("west"));
    assertEquals("false", pane.getProperty("north"));
    // breaking the andesite on the east (Minestom updates the neighbours of a break): the pane's east side opens
    world.remove("1,64,0");
    turned = 0;
    neighbours(1, 64, 0, 0);
    assertEquals("false", world.get("0,64,0").getProperty("east"));
    assertEquals("true", world.get("0,64,0").getProperty("west"));
    assertEquals(1, turned, "the pane it turned is reported as an edit");
  }
}
