package dev.mcb.port.minestom;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import net.kyori.adventure.key.Key;
import net.kyori.adventure.nbt.CompoundBinaryTag;
import net.minestom.server.MinecraftServer;
import net.minestom.server.instance.Chunk;
import net.minestom.server.instance.anvil.AnvilLoader;

/**
 * Minestom's AnvilLoader for reading a save, with the host's own chunk writer: a chunk is saved as
 * {@link ChunkNbt} encodes it (the fields the game needs: {@code Status}, {@code isLightOn},
 * heightmaps, block-entity ids; every root tag the chunk was loaded with is carried over), in one
 * write of the region file AnvilLoader opened. {@link #write} runs on the port's saver thread with
 * a {@link SavedChunk} copied on the game thread. The region file is reached through AnvilLoader's
 * own open regions (reflection on its fields, checked at start: a Minestom that changed them fails
 * {@link #open} instead of writing wrong chunks).
 *
 * <p>Layouts: a 26.1 save keeps the overworld in {@code dimensions/minecraft/overworld/region}, an
 * older one in {@code region/}; a folder with both is refused, new folders get the 26.1 layout.
 */
final class SaveLoader extends AnvilLoader {
  private final Field regions;
  private final Method fileName, write, openRegion;
  private final Path regionDir;

  /** An older save: {@code region/}. */
  private SaveLoader(Path world) throws ReflectiveOperationException {
    super(world);
    regionDir = world.resolve("region");
    regions = regionsField();
    fileName = regionMethod("getFileName", int.class, int.class);
    write = regionMethod("writeChunkData", int.class, int.class, CompoundBinaryTag.class);
    openRegion = loaderMethod("getMCAFile", int.class, int.class);
  }

  /** A 26.1 save: {@code dimensions/<namespace>/<name>/region}. */
  private SaveLoader(Path world, Key dimension) throws ReflectiveOperationException {
    super(world, dimension);
    regionDir = world.resolve("dimensions").resolve(dimension.namespace()).resolve(dimension.value()).resolve("region");
    regions = regionsField();
    fileName = regionMethod("getFileName", int.class, int.class);
    write = regionMethod("writeChunkData", int.class, int.class, CompoundBinaryTag.class);
    openRegion = loaderMethod("getMCAFile", int.class, int.class);
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

  private static Method loaderMethod(String name, Class<?>... types) throws ReflectiveOperationException {
    Method m = AnvilLoader.class.getDeclaredMethod(name, types);
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

  /** Minestom's own saves (at shutdown): the host's chunks go through {@link #write}. */
  @Override
  public void saveChunk(Chunk chunk) {
    if (chunk instanceof PortChunk p) write(p.snapshot());
    else super.saveChunk(chunk);
  }

  /** Writes a copied chunk into its region file (created when missing); any thread. */
  void write(SavedChunk c) {
    CompoundBinaryTag nbt = ChunkNbt.encode(c, MinecraftServer.getBiomeRegistry());
    try {
      write.invoke(region(c.x(), c.z()), c.x(), c.z(), nbt);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("chunk " + c.x() + "," + c.z() + " could not be written: " + e.getCause(), e);
    }
  }

  /** AnvilLoader's open region file of a chunk, creating the file when the save has none there yet. */
  private Object region(int x, int z) throws ReflectiveOperationException {
    String name = (String) fileName.invoke(null, x >> 5, z >> 5);
    Object open = ((Map<?, ?>) regions.get(this)).get(name);
    if (open != null) return open;
    synchronized (this) {
      Path file = regionDir.resolve(name);
      try {
        if (!Files.exists(file)) {
          Files.createDirectories(regionDir);
          Files.createFile(file);
        }
      } catch (java.io.IOException e) {
        throw new IllegalStateException("cannot create " + file + ": " + e.getMessage(), e);
      }
      Object r = openRegion.invoke(this, x, z);
      if (r == null) throw new IllegalStateException("Minestom did not open " + file);
      return r;
    }
  }
}
