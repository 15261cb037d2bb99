package dev.mcb.port.minestom;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;
import net.kyori.adventure.key.Key;
import net.kyori.adventure.nbt.BinaryTag;
import net.kyori.adventure.nbt.CompoundBinaryTag;
import net.minestom.server.instance.Chunk;
import net.minestom.server.instance.anvil.AnvilLoader;

/**
 * Minestom's AnvilLoader with the chunk fields the game needs. AnvilLoader writes {@code status}
 * (lower case) and no {@code Status}, {@code isLightOn} or {@code Heightmaps}: the game reads
 * {@code Status}, takes a chunk without it for one never generated and generates it again, so a
 * build made on this host would vanish in vanilla or Paper. After AnvilLoader saved a chunk, its
 * stored compound is rewritten with {@code Status: "minecraft:full"}, {@code isLightOn: 0} (the game
 * relights it), the MOTION_BLOCKING and WORLD_SURFACE heightmaps (the game primes the others), and
 * every root tag the chunk had before that AnvilLoader does not write (a server's or the game's own:
 * structures, ticks, PostProcessing, InhabitedTime, …). The region file is reached through
 * AnvilLoader's own open region (reflection on its fields, checked at start: a Minestom that changed
 * them fails {@link #open} instead of writing wrong chunks).
 *
 * <p>Layouts: a 26.1 save keeps the overworld in {@code dimensions/minecraft/overworld/region}, an
 * older one in {@code region/}; a folder with both is refused, new folders get the 26.1 layout.
 */
final class SaveLoader extends AnvilLoader {
  private static final Logger LOG = Logger.getLogger(SaveLoader.class.getName());
  /** Root tags AnvilLoader writes itself (the rest of a stored chunk is carried over). */
  private static final Set<String> WRITTEN = Set.of("DataVersion", "xPos", "zPos", "yPos", "status", "LastUpdate", "sections", "block_entities", "Heightmaps", "Status", "isLightOn");

  private final Field regions;
  private final Method fileName, read, write;

  /** An older save: {@code region/}. */
  private SaveLoader(Path world) throws ReflectiveOperationException {
    super(world);
    regions = regionsField();
    fileName = regionMethod("getFileName", int.class, int.class);
    read = regionMethod("readChunkData", int.class, int.class);
    write = regionMethod("writeChunkData", int.class, int.class, CompoundBinaryTag.class);
  }

  /** A 26.1 save: {@code dimensions/<namespace>/<name>/region}. */
  private SaveLoader(Path world, Key dimension) throws ReflectiveOperationException {
    super(world, dimension);
    regions = regionsField();
    fileName = regionMethod("getFileName", int.class, int.class);
    read = regionMethod("readChunkData", int.class, int.class);
    write = regionMethod("writeChunkData", int.class, int.class, CompoundBinaryTag.class);
  }

  private static Field regionsField() throws ReflectiveOperationException {
    Field f = AnvilLoader.class.getDeclaredField("alreadyLoaded");
    f.setAccessible(true);
    return f;
  }

  private static Method regionMethod(String name, Class<?>... types) throws ReflectiveOperationException {
    Method m = Class.forName("net.minestom.server.instance.anvil.RegionFile").getDeclaredMethod(name, types);
    m.setAccessible(true);
    return m;
  }

  /** The loader for a world folder; refuses (IllegalStateException) a folder that mixes both layouts. */
  static SaveLoader open(Path world) {
    boolean modern = Files.isDirectory(world.resolve("dimensions/minecraft/overworld/region"));
    boolean legacy = Files.isDirectory(world.resolve("region"));
    if (modern && legacy)
      throw new IllegalStateException(world + " has both region/ (before 26.1) and dimensions/minecraft/overworld/region/ (26.1): open it once in Minecraft so it migrates, or remove the copy you do not use");
    try {
      return legacy ? new SaveLoader(world) : new SaveLoader(world, Key.key("minecraft", "overworld"));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("this Minestom's AnvilLoader changed (" + e + "); the host cannot save chunks the game loads", e);
    }
  }

  @Override
  public void saveChunk(Chunk chunk) {
    int x = chunk.getChunkX(), z = chunk.getChunkZ();
    CompoundBinaryTag before = stored(x, z);
    super.saveChunk(chunk);
    Object region = region(x, z);
    if (region == null) return;
    try {
      CompoundBinaryTag saved = (CompoundBinaryTag) read.invoke(region, x, z);
      if (saved == null) return;
      CompoundBinaryTag.Builder fixed = CompoundBinaryTag.builder().put(saved);
      fixed.remove("status");
      fixed.putString("Status", "minecraft:full");
      fixed.putByte("isLightOn", (byte) 0);
      fixed.put("Heightmaps", CompoundBinaryTag.builder()
          .putLongArray("MOTION_BLOCKING", chunk.motionBlockingHeightmap().getNBT())
          .putLongArray("WORLD_SURFACE", chunk.worldSurfaceHeightmap().getNBT())
          .build());
      if (before != null)
        for (Map.Entry<String, ? extends BinaryTag> e : before) if (!WRITTEN.contains(e.getKey()) && saved.get(e.getKey()) == null) fixed.put(e.getKey(), e.getValue());
      write.invoke(region, x, z, fixed.build());
    } catch (ReflectiveOperationException e) {
      LOG.severe("chunk " + x + "," + z + " saved without the fields the game needs: " + e.getCause());
    }
  }

  private Object region(int x, int z) {
    try {
      String name = (String) fileName.invoke(null, x >> 5, z >> 5);
      return ((Map<?, ?>) regions.get(this)).get(name);
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }

  private CompoundBinaryTag stored(int x, int z) {
    Object region = region(x, z);
    if (region == null) return null;
    try {
      return (CompoundBinaryTag) read.invoke(region, x, z);
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }
}
