package dev.mcb.port.minestom;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.kyori.adventure.nbt.BinaryTag;
import net.kyori.adventure.nbt.BinaryTagTypes;
import net.kyori.adventure.nbt.CompoundBinaryTag;
import net.kyori.adventure.nbt.ListBinaryTag;
import net.kyori.adventure.nbt.StringBinaryTag;
import net.kyori.adventure.key.Key;
import net.minestom.server.MinecraftServer;
import net.minestom.server.coordinate.CoordConversion;
import net.minestom.server.coordinate.Point;
import net.minestom.server.instance.Section;
import net.minestom.server.instance.block.Block;
import net.minestom.server.instance.block.BlockHandler;
import net.minestom.server.instance.palette.Palette;
import net.minestom.server.instance.palette.Palettes;
import net.minestom.server.registry.DynamicRegistry;
import net.minestom.server.registry.RegistryKey;
import net.minestom.server.world.biome.Biome;

/**
 * A saved chunk's NBT as the game reads it (the chunk format of 1.18 and later): the root tags the
 * chunk was loaded with, then {@code DataVersion}, position, {@code Status: "minecraft:full"} (the
 * game regenerates a chunk without it), {@code isLightOn: 0} (the game relights), the
 * MOTION_BLOCKING and WORLD_SURFACE heightmaps (it primes the others), sections with palettes,
 * biomes and the light the host has, and block entities with their {@code id}. The same layout as
 * Minestom's AnvilLoader for blocks and biomes (names and non-default properties), without its
 * lower-case {@code status}.
 */
final class ChunkNbt {
  /** Root tags this encoder writes itself (the rest of a chunk's stored root is carried over). */
  static final Set<String> WRITTEN = Set.of("DataVersion", "xPos", "zPos", "yPos", "status", "Status", "LastUpdate", "sections", "block_entities", "Heightmaps", "isLightOn");

  private static final CompoundBinaryTag[] STATE_NBT = new CompoundBinaryTag[Block.statesCount()];
  private static final ThreadLocal<int[]> LOCAL_OF = ThreadLocal.withInitial(() -> new int[Block.statesCount()]);

  private ChunkNbt() {}

  static CompoundBinaryTag encode(SavedChunk c, DynamicRegistry<Biome> biomes) {
    CompoundBinaryTag.Builder root = CompoundBinaryTag.builder();
    for (Map.Entry<String, ? extends BinaryTag> e : c.tags()) if (!WRITTEN.contains(e.getKey())) root.put(e.getKey(), e.getValue());
    root.putInt("DataVersion", MinecraftServer.DATA_VERSION);
    root.putInt("xPos", c.x());
    root.putInt("zPos", c.z());
    root.putInt("yPos", c.minSection());
    root.putString("Status", "minecraft:full");
    root.putLong("LastUpdate", c.worldAge());
    root.putByte("isLightOn", (byte) 0);
    root.put("Heightmaps", CompoundBinaryTag.builder().putLongArray("MOTION_BLOCKING", c.motionBlocking()).putLongArray("WORLD_SURFACE", c.worldSurface()).build());
    ListBinaryTag.Builder<CompoundBinaryTag> sections = ListBinaryTag.builder(BinaryTagTypes.COMPOUND);
    for (int i = 0; i < c.sections().size(); i++) sections.add(section(c.sections().get(i), c.minSection() + i, biomes));
    root.put("sections", sections.build());
    root.put("block_entities", blockEntities(c));
    return root.build();
  }

  private static CompoundBinaryTag section(Section s, int y, DynamicRegistry<Biome> biomes) {
    CompoundBinaryTag.Builder out = CompoundBinaryTag.builder();
    out.putByte("Y", (byte) y);
    byte[] sky = s.skyLight().array();
    if (sky != null && sky.length > 0) out.putByteArray("SkyLight", sky);
    byte[] block = s.blockLight().array();
    if (block != null && block.length > 0) out.putByteArray("BlockLight", block);
    out.put("block_states", blockStates(s.blockPalette()));
    out.put("biomes", biomes(s.biomePalette(), biomes));
    return out.build();
  }

  /** Palette of the states present (first use order) and the packed indices, x fastest, then z, then y. */
  private static CompoundBinaryTag blockStates(Palette p) {
    List<CompoundBinaryTag> palette = new ArrayList<>();
    int single = p.singleValue();
    CompoundBinaryTag.Builder out = CompoundBinaryTag.builder();
    if (single != -1) {
      palette.add(stateNbt(single));
      return out.put("palette", ListBinaryTag.listBinaryTag(BinaryTagTypes.COMPOUND, List.copyOf(palette))).build();
    }
    // A state id's palette index + 1, by state id: one table per saving thread, its used entries
    // cleared after each section (the table has an entry for every state of the game).
    int[] localOf = LOCAL_OF.get();
    int[] ids = new int[4096];
    int[] indices = new int[4096];
    int[] used = {0};
    p.getAll((x, yy, z, id) -> {
      int local = localOf[id] - 1;
      if (local < 0) {
        palette.add(stateNbt(id));
        local = palette.size() - 1;
        localOf[id] = local + 1;
        ids[used[0]++] = id;
      }
      indices[x + z * 16 + yy * 256] = local;
    });
    for (int k = 0; k < used[0]; k++) localOf[ids[k]] = 0;
    out.put("palette", ListBinaryTag.listBinaryTag(BinaryTagTypes.COMPOUND, List.copyOf(palette)));
    if (palette.size() > 1) out.putLongArray("data", Palettes.pack(indices, Math.max(4, 32 - Integer.numberOfLeadingZeros(palette.size() - 1))));
    return out.build();
  }

  private static CompoundBinaryTag biomes(Palette p, DynamicRegistry<Biome> registry) {
    List<BinaryTag> palette = new ArrayList<>();
    CompoundBinaryTag.Builder out = CompoundBinaryTag.builder();
    int single = p.singleValue();
    if (single != -1) {
      palette.add(biomeName(registry, single));
      return out.put("palette", ListBinaryTag.listBinaryTag(BinaryTagTypes.STRING, palette)).build();
    }
    List<Integer> ids = new ArrayList<>();
    int[] indices = new int[64];
    p.getAll((x, y, z, id) -> {
      int local = ids.indexOf(id);
      if (local < 0) {
        ids.add(id);
        palette.add(biomeName(registry, id));
        local = ids.size() - 1;
      }
      indices[x + z * 4 + y * 16] = local;
    });
    out.put("palette", ListBinaryTag.listBinaryTag(BinaryTagTypes.STRING, palette));
    if (palette.size() > 1) out.putLongArray("data", Palettes.pack(indices, 32 - Integer.numberOfLeadingZeros(palette.size() - 1)));
    return out.build();
  }

  private static StringBinaryTag biomeName(DynamicRegistry<Biome> registry, int id) {
    RegistryKey<Biome> key = registry.getKey(id);
    if (key == null) throw new IllegalStateException("biome id " + id + " is not registered");
    return StringBinaryTag.stringBinaryTag(key.key().asString());
  }

  /** Name and the properties that differ from the block's default (the game fills in the rest), cached by state id. */
  private static CompoundBinaryTag stateNbt(int stateId) {
    CompoundBinaryTag cached = STATE_NBT[stateId];
    if (cached != null) return cached;
    Block b = Block.fromStateId(stateId);
    if (b == null) throw new IllegalStateException("unknown block state id " + stateId);
    CompoundBinaryTag.Builder tag = CompoundBinaryTag.builder().putString("Name", b.key().asString());
    Map<String, String> defaults = b.defaultState().properties();
    CompoundBinaryTag.Builder props = CompoundBinaryTag.builder();
    b.properties().forEach((k, v) -> {
      if (!v.equals(defaults.get(k))) props.putString(k, v);
    });
    CompoundBinaryTag p = props.build();
    if (p.size() > 0) tag.put("Properties", p);
    return STATE_NBT[stateId] = tag.build();
  }

  /** Every block entity with its data, {@code id} (the handler's, else the block's type), position and keepPacked 0. */
  private static ListBinaryTag blockEntities(SavedChunk c) {
    ListBinaryTag.Builder<CompoundBinaryTag> out = ListBinaryTag.builder(BinaryTagTypes.COMPOUND);
    int[] keys = c.blockEntities().keySet().toIntArray();
    java.util.Arrays.sort(keys); // a stable order: the same chunk encodes to the same bytes
    for (int index : keys) {
      Block b = c.blockEntities().get(index);
      BlockHandler handler = b.handler();
      CompoundBinaryTag data = b.nbt();
      Key type = b.registry().blockEntity();
      if (data == null && handler == null && type == null) continue;
      CompoundBinaryTag.Builder e = CompoundBinaryTag.builder();
      if (data != null) e.put(data);
      Key id = handler != null ? handler.getKey() : type;
      if (id != null) e.putString("id", id.asString());
      Point p = CoordConversion.chunkBlockIndexGetGlobal(index, c.x(), c.z());
      e.putInt("x", p.blockX());
      e.putInt("y", p.blockY());
      e.putInt("z", p.blockZ());
      e.putByte("keepPacked", (byte) 0);
      out.add(e.build());
    }
    return out.build();
  }
}
