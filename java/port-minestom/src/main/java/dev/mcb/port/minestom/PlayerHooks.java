package dev.mcb.port.minestom;

import dev.mcb.port.ChatQueue;
import dev.mcb.port.ChatSink;
import dev.mcb.port.Digests;
import dev.mcb.port.EventLog;
import dev.mcb.port.Ghosts;
import dev.mcb.port.PlayerViews;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import net.kyori.adventure.text.Component;
import net.minestom.server.MinecraftServer;
import net.minestom.server.command.builder.Command;
import net.minestom.server.command.builder.arguments.ArgumentStringArray;
import net.minestom.server.command.builder.arguments.ArgumentType;
import net.minestom.server.coordinate.BlockVec;
import net.minestom.server.coordinate.Pos;
import net.minestom.server.entity.GameMode;
import net.minestom.server.entity.Player;
import net.minestom.server.event.GlobalEventHandler;
import net.minestom.server.event.player.AsyncPlayerConfigurationEvent;
import net.minestom.server.event.player.PlayerBlockBreakEvent;
import net.minestom.server.event.player.PlayerBlockPlaceEvent;
import net.minestom.server.instance.InstanceContainer;
import net.minestom.server.instance.block.Block;
import net.minestom.server.network.packet.server.play.MultiBlockChangePacket;

/**
 * The players' side: spawning (creative), block edits feeding the port's event log, and the
 * {@code /ai} command feeding the chat queue. An edit is recorded at the end of the tick it happened
 * in, with the state the world then holds (a cancelled edit records the unchanged state: harmless,
 * the engine only learns the block was touched). Players' fences, panes, bars, walls and stairs
 * join their neighbours ({@link ConnectionRule}). Ghost previews go to one player as multi-block
 * changes, a packet per section, as the port's own writes go to everyone ({@link SectionChanges}).
 */
final class PlayerHooks implements ChatSink, PlayerViews {
  private final InstanceContainer instance;
  private final MinestomWorld world;
  private final EventLog events;
  private final ChatQueue chat;
  private final ConcurrentLinkedQueue<BlockVec> pending = new ConcurrentLinkedQueue<>();

  PlayerHooks(InstanceContainer instance, MinestomWorld world, EventLog events, ChatQueue chat) {
    this.instance = instance;
    this.world = world;
    this.events = events;
    this.chat = chat;
  }

  void register() {
    GlobalEventHandler handler = MinecraftServer.getGlobalEventHandler();
    handler.addListener(AsyncPlayerConfigurationEvent.class, e -> {
      e.setSpawningInstance(instance);
      Player p = e.getPlayer();
      p.setRespawnPoint(new Pos(0.5, 64, 0.5)); // on the flat ground (grass at 63)
      p.setGameMode(GameMode.CREATIVE);
    });
    handler.addListener(PlayerBlockBreakEvent.class, e -> pending.add(e.getBlockPosition()));
    handler.addListener(PlayerBlockPlaceEvent.class, e -> pending.add(e.getBlockPosition()));
    // Fences, panes, bars, walls and stairs join their neighbours as the game's do; the blocks they turn are edits too.
    ConnectionRule.registerAll(new Connections(), p -> pending.add(new BlockVec(p.blockX(), p.blockY(), p.blockZ())),
        MinecraftServer.getBlockManager()::registerBlockPlacementRule);

    Command ai = new Command("ai");
    ArgumentStringArray text = ArgumentType.StringArray("text");
    ai.setDefaultExecutor((sender, ctx) -> sender.sendMessage(Component.text("usage: /ai <what to build>")));
    ai.addSyntax((sender, ctx) -> {
      if (!(sender instanceof Player p)) {
        sender.sendMessage(Component.text("/ai is for players"));
        return;
      }
      Pos pos = p.getPosition();
      ChatQueue.Message m = chat.offer(p.getUuid().toString(), p.getUsername(), String.join(" ", ctx.get(text)), pos.blockX(), pos.blockY(), pos.blockZ(), pos.yaw(), pos.pitch());
      p.sendMessage(Component.text("[mcb] queued #" + m.id()));
    }, text);
    MinecraftServer.getCommandManager().register(ai);
  }

  /** Called at TICK_END (the tick lock held): records this tick's player edits. */
  void flushEdits() {
    BlockVec v;
    while ((v = pending.poll()) != null) {
      int x = v.blockX(), y = v.blockY(), z = v.blockZ();
      if (!world.isLoaded(x, z)) continue;
      world.markDirty(x, z);
      String state = world.stateAt(x, y, z);
      events.record(x, y, z, state, Digests.at(world, state, x, y, z));
    }
  }

  @Override
  public boolean send(String playerId, String text) {
    Player p = MinecraftServer.getConnectionManager().getOnlinePlayerByUuid(UUID.fromString(playerId));
    if (p == null) return false;
    p.sendMessage(Component.text(text));
    return true;
  }

  private static Player player(String playerId) {
    return MinecraftServer.getConnectionManager().getOnlinePlayerByUuid(UUID.fromString(playerId));
  }

  @Override
  public boolean online(String playerId) {
    Player p = player(playerId);
    return p != null && p.getInstance() == instance;
  }

  @Override
  public void sendStates(String playerId, long[] positions, String[] states) {
    Player p = player(playerId);
    if (p == null) return;
    Map<Long, List<Long>> bySection = new HashMap<>();
    for (int i = 0; i < positions.length; i++) {
      int x = Ghosts.x(positions[i]), y = Ghosts.y(positions[i]), z = Ghosts.z(positions[i]);
      Block b = BlockStates.parse(states[i]);
      if (b == null) continue; // checked when the request was decoded
      long section = Ghosts.pack(x >> 4, y >> 4, z >> 4);
      bySection.computeIfAbsent(section, k -> new ArrayList<>()).add(((long) b.stateId() << 12) | ((x & 15) << 8) | ((z & 15) << 4) | (y & 15));
    }
    for (Map.Entry<Long, List<Long>> e : bySection.entrySet()) {
      long s = e.getKey();
      long[] blocks = e.getValue().stream().mapToLong(Long::longValue).toArray();
      p.sendPacket(new MultiBlockChangePacket(Ghosts.x(s), Ghosts.y(s), Ghosts.z(s), blocks));
    }
  }
}
