package dev.mcb.port.paper;

import dev.mcb.port.WorldAccess;
import dev.mcb.port.WorldFacts;
import org.bukkit.World;
import org.bukkit.block.Block;
import org.bukkit.block.data.BlockData;

/**
 * The port's view of one Bukkit world (mirror of port-minestom's MinestomWorld). Called only on the
 * server thread by drained jobs. Writes use {@code setBlockData(data, false)}: no physics, the
 * engine wrote every state it wants.
 */
final class PaperWorld implements WorldAccess {
  private final World world;
  private final WorldFacts facts;
  private final PaperBlockStates states = new PaperBlockStates();

  PaperWorld(World world, WorldFacts facts) {
    this.world = world;
    this.facts = facts;
  }

  @Override
  public WorldFacts facts() {
    return facts;
  }

  @Override
  public boolean isLoaded(int x, int z) {
    return world.isChunkLoaded(x >> 4, z >> 4);
  }

  @Override
  public String stateAt(int x, int y, int z) {
    return states.canonical(world.getBlockAt(x, y, z).getBlockData());
  }

  @Override
  public byte[] blockEntityAt(int x, int y, int z) {
    Block b = world.getBlockAt(x, y, z);
    return BlockEntityDigest.bytesOf(b.getState(false));
  }

  @Override
  public boolean mayHaveBlockEntity(String state) {
    return true; // Bukkit has no state-level block-entity flag; blockEntityAt answers per position
  }

  @Override
  public String checkState(String state) {
    BlockData d = states.parse(state);
    if (d == null) return "unknown block state " + (state.length() <= 80 ? state : state.substring(0, 80) + "…");
    String canonical = states.canonical(d);
    return canonical.equals(state) ? null : "not a canonical state string (expected " + canonical + ")";
  }

  @Override
  public String checkData(String state, byte[] data) {
    return "this host cannot write block-entity data (Paper exposes no block-entity NBT); paste without data or use another host";
  }

  @Override
  public void set(int x, int y, int z, String state, byte[] data) {
    world.getBlockAt(x, y, z).setBlockData(states.parse(state), false); // validated before; same-type data stays
  }
}
