package dev.mcb.port.paper;

import dev.mcb.port.ChatQueue;
import dev.mcb.port.ChatSink;
import dev.mcb.port.Digests;
import dev.mcb.port.EventLog;
import dev.mcb.port.Ghosts;
import dev.mcb.port.PlayerViews;
import io.papermc.paper.math.BlockPosition;
import io.papermc.paper.math.Position;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import net.kyori.adventure.text.Component;
import org.bukkit.Bukkit;
import org.bukkit.Location;
import org.bukkit.World;
import org.bukkit.block.Block;
import org.bukkit.block.data.BlockData;
import org.bukkit.command.Command;
import org.bukkit.command.CommandExecutor;
import org.bukkit.command.CommandSender;
import org.bukkit.entity.Player;
import org.bukkit.event.EventHandler;
import org.bukkit.event.EventPriority;
import org.bukkit.event.Listener;
import org.bukkit.event.block.BlockBreakEvent;
import org.bukkit.event.block.BlockBurnEvent;
import org.bukkit.event.block.BlockExplodeEvent;
import org.bukkit.event.block.BlockFadeEvent;
import org.bukkit.event.block.BlockFormEvent;
import org.bukkit.event.block.BlockFromToEvent;
import org.bukkit.event.block.BlockGrowEvent;
import org.bukkit.event.block.BlockMultiPlaceEvent;
import org.bukkit.event.block.BlockPistonExtendEvent;
import org.bukkit.event.block.BlockPistonRetractEvent;
import org.bukkit.event.block.BlockPlaceEvent;
import org.bukkit.event.block.LeavesDecayEvent;
import org.bukkit.event.entity.EntityChangeBlockEvent;
import org.bukkit.event.entity.EntityExplodeEvent;

/**
 * Block changes made by players, other plugins and the game (mirror of port-minestom's
 * PlayerHooks) feed the port's event log at the end of the tick they happened in, with the state
 * the world then holds; {@code /ai} feeds the chat queue with the sender's UUID and position.
 * Changes through paths that raise no event (some plugins) are caught by the engine's content
 * checks instead. Ghost previews go to one player with {@code Player#sendMultiBlockChange}.
 */
final class PaperPlayerHooks implements Listener, CommandExecutor, ChatSink, PlayerViews {
  private final World world;
  private final PaperWorld port;
  private final EventLog events;
  private final ChatQueue chat;
  private final ConcurrentLinkedQueue<long[]> pending = new ConcurrentLinkedQueue<>();

  PaperPlayerHooks(World world, PaperWorld port, EventLog events, ChatQueue chat) {
    this.world = world;
    this.port = port;
    this.events = events;
    this.chat = chat;
  }

  private void touched(Block b) {
    if (b.getWorld().equals(world)) pending.add(new long[] {b.getX(), b.getY(), b.getZ()});
  }

  private void touched(List<Block> blocks) {
    blocks.forEach(this::touched);
  }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onBreak(BlockBreakEvent e) { touched(e.getBlock()); }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onPlace(BlockPlaceEvent e) { touched(e.getBlock()); }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onMultiPlace(BlockMultiPlaceEvent e) { e.getReplacedBlockStates().forEach(s -> touched(s.getBlock())); }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onBlockExplode(BlockExplodeEvent e) { touched(e.blockList()); }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onEntityExplode(EntityExplodeEvent e) { touched(e.blockList()); }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onPistonExtend(BlockPistonExtendEvent e) {
    touched(e.getBlock());
    e.getBlocks().forEach(b -> { touched(b); touched(b.getRelative(e.getDirection())); });
  }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onPistonRetract(BlockPistonRetractEvent e) {
    touched(e.getBlock());
    e.getBlocks().forEach(b -> { touched(b); touched(b.getRelative(e.getDirection())); });
  }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onFlow(BlockFromToEvent e) { touched(e.getToBlock()); }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onBurn(BlockBurnEvent e) { touched(e.getBlock()); }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onFade(BlockFadeEvent e) { touched(e.getBlock()); }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onForm(BlockFormEvent e) { touched(e.getBlock()); }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onGrow(BlockGrowEvent e) { touched(e.getBlock()); }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onDecay(LeavesDecayEvent e) { touched(e.getBlock()); }

  @EventHandler(priority = EventPriority.MONITOR, ignoreCancelled = true)
  public void onEntityChange(EntityChangeBlockEvent e) { touched(e.getBlock()); }

  /** At the end of each tick (server thread): records this tick's changes with the states they left. */
  void flushEdits() {
    long[] p;
    while ((p = pending.poll()) != null) {
      int x = (int) p[0], y = (int) p[1], z = (int) p[2];
      if (!port.isLoaded(x, z)) continue;
      String state = port.stateAt(x, y, z);
      events.record(x, y, z, state, Digests.at(port, state, x, y, z));
    }
  }

  @Override
  public boolean onCommand(CommandSender sender, Command command, String label, String[] args) {
    if (!(sender instanceof Player p)) {
      sender.sendMessage("/ai is for players");
      return true;
    }
    if (args.length == 0) return false; // usage from plugin.yml
    Location l = p.getLocation();
    ChatQueue.Message m = chat.offer(p.getUniqueId().toString(), p.getName(), String.join(" ", args), l.getBlockX(), l.getBlockY(), l.getBlockZ(), l.getYaw(), l.getPitch());
    p.sendMessage(Component.text("[mcb] queued #" + m.id()));
    return true;
  }

  @Override
  public boolean send(String playerId, String text) {
    Player p = Bukkit.getPlayer(UUID.fromString(playerId));
    if (p == null) return false;
    p.sendMessage(Component.text(text));
    return true;
  }

  @Override
  public boolean online(String playerId) {
    Player p = Bukkit.getPlayer(UUID.fromString(playerId));
    return p != null && p.getWorld().equals(world);
  }

  @Override
  public void sendStates(String playerId, long[] positions, String[] states) {
    Player p = Bukkit.getPlayer(UUID.fromString(playerId));
    if (p == null) return;
    Map<BlockPosition, BlockData> changes = new HashMap<>(positions.length * 2);
    Map<String, BlockData> parsed = new HashMap<>();
    for (int i = 0; i < positions.length; i++) {
      BlockData data = parsed.computeIfAbsent(states[i], Bukkit::createBlockData);
      changes.put(Position.block(Ghosts.x(positions[i]), Ghosts.y(positions[i]), Ghosts.z(positions[i])), data);
    }
    p.sendMultiBlockChange(changes);
  }
}
