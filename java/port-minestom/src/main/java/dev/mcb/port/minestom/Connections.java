package dev.mcb.port.minestom;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import net.minestom.server.collision.BoundingBox;
import net.minestom.server.collision.Shape;
import net.minestom.server.collision.ShapeImpl;
import net.minestom.server.instance.block.Block;

/**
 * The game's connection rules for fences, panes and bars, walls and stairs (FenceBlock,
 * IronBarsBlock, WallBlock, StairBlock), as the engine's {@code ConnectionRules} states them for
 * plans and {@code mcb edit} (packages/engine/src/plan/ConnectionRules.ts): which neighbours they
 * join, wall heights and posts, stair corners. The same test vectors check both
 * (packages/bridge/test/vectors/placement.json). Pure functions of the blocks around a position,
 * read through {@link At}.
 */
final class Connections {
  enum Kind { FENCE, NETHER_FENCE, PANE, WALL, STAIRS, GATE, NONE }

  /** Horizontal directions, in the engine's order, with their steps. */
  enum Dir {
    NORTH(0, -1), EAST(1, 0), SOUTH(0, 1), WEST(-1, 0);

    final int dx, dz;

    Dir(int dx, int dz) {
      this.dx = dx;
      this.dz = dz;
    }

    String key() { return name().toLowerCase(); }
    Dir opposite() { return values()[(ordinal() + 2) % 4]; }
    Dir ccw() { return values()[(ordinal() + 3) % 4]; }
    boolean alongX() { return this == EAST || this == WEST; }

    static Dir of(String s) {
      for (Dir d : values()) if (d.key().equals(s)) return d;
      return null;
    }
  }

  /** The block at a position; null where it is not known (read as nothing). */
  @FunctionalInterface
  interface At {
    Block at(int x, int y, int z);
  }

  /** Rectangles (u0, v0, u1, v1 in sixteenths) of the bottom face of the block above a wall that make a side tall or keep the post. */
  private static final Map<Dir, int[]> WALL_TEST = Map.of(Dir.NORTH, new int[] {7, 0, 9, 9}, Dir.EAST, new int[] {7, 7, 16, 9}, Dir.SOUTH,
      new int[] {7, 7, 9, 16}, Dir.WEST, new int[] {0, 7, 9, 9});
  private static final int[] POST_TEST = {7, 7, 9, 9};
  private static final int[] FULL = {0, 0, 16, 16};
  private static final Set<String> EXCEPTIONS = Set.of("minecraft:barrier", "minecraft:carved_pumpkin", "minecraft:jack_o_lantern", "minecraft:melon", "minecraft:pumpkin");

  private final Map<Integer, Kind> kinds = new ConcurrentHashMap<>();

  /** The connection kind of a block (cached by block type), null for one that takes nothing from its neighbours. */
  Kind kind(Block b) {
    if (b == null) return null;
    Kind k = kinds.computeIfAbsent(b.id(), i -> classify(b));
    return k == Kind.NONE ? null : k;
  }

  private static Kind classify(Block b) {
    String id = b.key().asString();
    Map<String, String> p = b.properties();
    boolean sides = p.containsKey("north") && p.containsKey("east") && p.containsKey("south") && p.containsKey("west");
    if (id.equals("minecraft:nether_brick_fence")) return Kind.NETHER_FENCE;
    if (id.endsWith("_fence") && sides) return Kind.FENCE;
    if ((id.endsWith("glass_pane") || id.endsWith("_bars")) && sides) return Kind.PANE;
    if (id.endsWith("_wall") && sides && p.containsKey("up")) return Kind.WALL;
    if (id.endsWith("_stairs") && p.containsKey("shape")) return Kind.STAIRS;
    if (id.endsWith("_fence_gate")) return Kind.GATE;
    return Kind.NONE;
  }

  /** FenceBlock/IronBarsBlock/WallBlock isExceptionForConnection: full blocks they never join. */
  private static boolean isException(String id) {
    return id.endsWith("_leaves") || id.endsWith("shulker_box") || EXCEPTIONS.contains(id);
  }

  /** Blocks on a wall that keep its post (tag wall_post_override, approximated by id as the engine does). */
  private static boolean isPostOverride(String id) {
    return (id.endsWith("torch") && !id.endsWith("wall_torch")) || id.endsWith("_sign") || id.endsWith("_banner") || id.endsWith("_pressure_plate")
        || id.equals("minecraft:tripwire");
  }

  /** Whether the collision boxes of {@code b} lying on a face cover the rectangle (the engine's BlockShapes.covers). */
  static boolean covers(Block b, String face, int[] rect) {
    Shape shape = b.registry().collisionShape();
    List<BoundingBox> boxes = shape instanceof ShapeImpl s ? s.boundingBoxes() : shape instanceof BoundingBox bb ? List.of(bb) : List.of();
    int[][] rects = new int[boxes.size()][];
    int n = 0;
    for (BoundingBox box : boxes) {
      double x0 = box.minX(), y0 = box.minY(), z0 = box.minZ(), x1 = box.maxX(), y1 = box.maxY(), z1 = box.maxZ();
      boolean on = switch (face) {
        case "down" -> y0 <= 0;
        case "north" -> z0 <= 0;
        case "south" -> z1 >= 1;
        case "west" -> x0 <= 0;
        case "east" -> x1 >= 1;
        default -> y1 >= 1;
      };
      if (!on) continue;
      rects[n++] = switch (face) {
        case "down", "up" -> new int[] {s16(x0), s16(z0), s16(x1), s16(z1)};
        case "north", "south" -> new int[] {s16(x0), s16(y0), s16(x1), s16(y1)};
        default -> new int[] {s16(z0), s16(y0), s16(z1), s16(y1)};
      };
    }
    for (int u = rect[0]; u < rect[2]; u++)
      for (int v = rect[1]; v < rect[3]; v++) {
        boolean hit = false;
        for (int i = 0; i < n && !hit; i++) hit = u >= rects[i][0] && u < rects[i][2] && v >= rects[i][1] && v < rects[i][3];
        if (!hit) return false;
      }
    return true;
  }

  private static int s16(double v) {
    return (int) Math.round(v * 16);
  }

  private boolean sturdy(Block b, Dir face) {
    return b != null && !isException(b.key().asString()) && covers(b, face.key(), FULL);
  }

  /** Whether a block of {@code kind} joins {@code nb}, its neighbour towards {@code dir}. */
  boolean joins(Kind kind, Block nb, Dir dir) {
    Kind k = kind(nb);
    boolean gateInLine = false;
    if (k == Kind.GATE) {
      Dir facing = Dir.of(nb.getProperty("facing"));
      gateInLine = facing != null && facing.alongX() == dir.ccw().alongX();
    }
    return switch (kind) {
      case FENCE, NETHER_FENCE -> k == kind || gateInLine || sturdy(nb, dir.opposite());
      case PANE -> k == Kind.PANE || k == Kind.WALL || sturdy(nb, dir.opposite());
      case WALL -> k == Kind.WALL || k == Kind.PANE || gateInLine || sturdy(nb, dir.opposite());
      default -> false;
    };
  }

  /**
   * The connection properties of {@code b} at (x, y, z). {@code only}: recompute just these sides (a
   * neighbour's change), keep the others; null: every side (a placement).
   */
  Block connect(Block b, int x, int y, int z, At at, Set<Dir> only) {
    Kind kind = kind(b);
    if (kind == null || kind == Kind.GATE) return b;
    if (kind == Kind.STAIRS) {
      if (only != null && only.isEmpty()) return b;
      return b.withProperty("shape", stairShape(b, x, y, z, at));
    }
    if (kind == Kind.WALL) {
      Block above = at.at(x, y + 1, z);
      Block out = b;
      for (Dir d : Dir.values()) {
        boolean connected = only != null && !only.contains(d) ? !"none".equals(b.getProperty(d.key())) : joins(kind, at.at(x + d.dx, y, z + d.dz), d);
        boolean tall = above != null && covers(above, "down", WALL_TEST.get(d));
        out = out.withProperty(d.key(), connected ? (tall ? "tall" : "low") : "none");
      }
      return out.withProperty("up", String.valueOf(raisePost(out, above)));
    }
    Block out = b;
    for (Dir d : Dir.values())
      if (only == null || only.contains(d)) out = out.withProperty(d.key(), String.valueOf(joins(kind, at.at(x + d.dx, y, z + d.dz), d)));
    return out;
  }

  /** WallBlock.shouldRaisePost. */
  private boolean raisePost(Block wall, Block above) {
    if (above != null && kind(above) == Kind.WALL && "true".equals(above.getProperty("up"))) return true;
    boolean n = none(wall, Dir.NORTH), s = none(wall, Dir.SOUTH), e = none(wall, Dir.EAST), w = none(wall, Dir.WEST);
    if ((n && s && e && w) || n != s || w != e) return true;
    if (("tall".equals(wall.getProperty("north")) && "tall".equals(wall.getProperty("south")))
        || ("tall".equals(wall.getProperty("east")) && "tall".equals(wall.getProperty("west")))) return false;
    return above != null && (isPostOverride(above.key().asString()) || covers(above, "down", POST_TEST));
  }

  private static boolean none(Block wall, Dir d) {
    return "none".equals(wall.getProperty(d.key()));
  }

  /** StairBlock.getStairsShape (the engine's stairShape). */
  private String stairShape(Block b, int x, int y, int z, At at) {
    Dir facing = Dir.of(b.getProperty("facing"));
    String half = b.getProperty("half");
    if (facing == null) return "straight";
    Block front = sameHalfStair(at, x, y, z, facing, half);
    if (front != null) {
      Dir f = Dir.of(front.getProperty("facing"));
      if (f != null && f.alongX() != facing.alongX() && canTakeShape(at, x, y, z, f.opposite(), facing, half))
        return f == facing.ccw() ? "outer_left" : "outer_right";
    }
    Block back = sameHalfStair(at, x, y, z, facing.opposite(), half);
    if (back != null) {
      Dir f = Dir.of(back.getProperty("facing"));
      if (f != null && f.alongX() != facing.alongX() && canTakeShape(at, x, y, z, f, facing, half)) return f == facing.ccw() ? "inner_left" : "inner_right";
    }
    return "straight";
  }

  private Block sameHalfStair(At at, int x, int y, int z, Dir d, String half) {
    Block s = at.at(x + d.dx, y, z + d.dz);
    return kind(s) == Kind.STAIRS && String.valueOf(half).equals(s.getProperty("half")) ? s : null;
  }

  private boolean canTakeShape(At at, int x, int y, int z, Dir d, Dir facing, String half) {
    Block s = at.at(x + d.dx, y, z + d.dz);
    return kind(s) != Kind.STAIRS || Dir.of(s.getProperty("facing")) != facing || !String.valueOf(half).equals(s.getProperty("half"));
  }
}
