package dev.mcb.port.minestom;

import dev.mcb.port.minestom.Connections.Dir;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Consumer;
import net.minestom.server.coordinate.BlockVec;
import net.minestom.server.coordinate.Point;
import net.minestom.server.instance.block.Block;
import net.minestom.server.instance.block.BlockFace;
import net.minestom.server.instance.block.rule.BlockPlacementRule;

/**
 * A player's fence, pane, bars, wall or stair placed as the game places it ({@link Connections}):
 * joined to its neighbours when placed, and turned again when a neighbour changes (Minestom asks
 * the blocks around a player's placement or break: {@link #blockUpdate}). A stair faces the way
 * the player looks and sits in the half they clicked, as StairBlock#getStateForPlacement has it.
 * Blocks it turns are reported to {@code changed}, so they reach the port's event log like the
 * player's own edit. The port's own writes raise no rule: the engine writes the states it wants.
 */
final class ConnectionRule extends BlockPlacementRule {
  private final Connections rules;
  private final Consumer<Point> changed;

  ConnectionRule(Block block, Connections rules, Consumer<Point> changed) {
    super(block);
    this.rules = rules;
    this.changed = changed;
  }

  /** Every block type the rules shape, each with its rule. */
  static void registerAll(Connections rules, Consumer<Point> changed, Consumer<BlockPlacementRule> register) {
    for (Block b : Block.values()) {
      Connections.Kind k = rules.kind(b);
      if (k != null && k != Connections.Kind.GATE) register.accept(new ConnectionRule(b, rules, changed));
    }
  }

  private static Connections.At at(Block.Getter world) {
    return (x, y, z) -> {
      try {
        return world.getBlock(x, y, z, Block.Getter.Condition.TYPE);
      } catch (RuntimeException unloaded) { // an unloaded chunk: not known, as the engine reads it
        return null;
      }
    };
  }

  @Override
  public Block blockPlace(PlacementState s) {
    Block b = s.block();
    if (rules.kind(b) == Connections.Kind.STAIRS) b = stairPlaced(b, s);
    Point p = s.placePosition();
    return rules.connect(b, p.blockX(), p.blockY(), p.blockZ(), at(s.instance()), null);
  }

  /** Facing: the player's horizontal look; half: the top when the click was under a block or on the upper half of a side. */
  private static Block stairPlaced(Block b, PlacementState s) {
    float yaw = s.playerPosition() == null ? 0 : s.playerPosition().yaw();
    int quarter = Math.floorMod(Math.round(yaw / 90f), 4); // 0 south, 1 west, 2 north, 3 east
    String facing = switch (quarter) {
      case 0 -> "south";
      case 1 -> "west";
      case 2 -> "north";
      default -> "east";
    };
    BlockFace face = s.blockFace();
    double cursorY = s.cursorPosition() == null ? 0 : s.cursorPosition().y();
    boolean bottom = face != BlockFace.BOTTOM && (face == BlockFace.TOP || cursorY <= 0.5);
    return b.withProperty("facing", facing).withProperty("half", bottom ? "bottom" : "top");
  }

  @Override
  public Block blockUpdate(UpdateState s) {
    Block current = s.currentBlock();
    Point p = s.blockPosition();
    Dir towards = switch (s.fromFace()) {
      case NORTH -> Dir.NORTH;
      case SOUTH -> Dir.SOUTH;
      case EAST -> Dir.EAST;
      case WEST -> Dir.WEST;
      default -> null; // above or below: a wall's heights and post, nothing else
    };
    Set<Dir> only = towards == null ? EnumSet.noneOf(Dir.class) : EnumSet.of(towards);
    Block next = rules.connect(current, p.blockX(), p.blockY(), p.blockZ(), at(s.instance()), only);
    if (next.stateId() != current.stateId()) changed.accept(new BlockVec(p.blockX(), p.blockY(), p.blockZ()));
    return next;
  }
}
