package dev.mcb.port.minestom;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import net.kyori.adventure.nbt.BinaryTagIO;
import net.kyori.adventure.nbt.BinaryTagTypes;
import net.kyori.adventure.nbt.CompoundBinaryTag;
import net.kyori.adventure.nbt.ListBinaryTag;
import net.kyori.adventure.nbt.StringBinaryTag;
import net.minestom.server.instance.block.Block;
import net.minestom.server.instance.generator.Generator;

/**
 * A new world of this host is the same flat world as mcb's embedded one (packages/adapter-anvil
 * SaveFolder.ts): bedrock at −64, stone to 59, dirt 60–62, grass at 63, so builds at y ≥ 64 stand on
 * the ground; its level.dat and data/minecraft/world_gen_settings.dat say so, so chunks the game
 * generates later match the ones generated here.
 */
final class FlatSave {
  private FlatSave() {}

  /** The ground (bottom up): block and height. */
  static final List<Map.Entry<Block, Integer>> LAYERS = List.of(Map.entry(Block.BEDROCK, 1), Map.entry(Block.STONE, 123), Map.entry(Block.DIRT, 3), Map.entry(Block.GRASS_BLOCK, 1));

  static Generator generator() {
    return unit -> {
      int y = -64;
      for (Map.Entry<Block, Integer> l : LAYERS) {
        unit.modifier().fillHeight(y, y + l.getValue(), l.getKey());
        y += l.getValue();
      }
    };
  }

  /** Writes level.dat and world_gen_settings.dat into a folder that has no level.dat. */
  static void createIfMissing(Path world, int dataVersion, String versionName) throws IOException {
    if (Files.exists(world.resolve("level.dat"))) return;
    Files.createDirectories(world.resolve("data/minecraft"));
    ListBinaryTag.Builder<CompoundBinaryTag> layers = ListBinaryTag.builder(BinaryTagTypes.COMPOUND);
    for (Map.Entry<Block, Integer> l : LAYERS) layers.add(CompoundBinaryTag.builder().putString("block", l.getKey().name()).putInt("height", l.getValue()).build());
    CompoundBinaryTag flat = CompoundBinaryTag.builder()
        .putString("biome", "minecraft:plains").putByte("features", (byte) 0).putByte("lakes", (byte) 0)
        .put("layers", layers.build()).put("structure_overrides", ListBinaryTag.empty()).build();
    CompoundBinaryTag dimensions = CompoundBinaryTag.builder()
        .put("minecraft:overworld", CompoundBinaryTag.builder().putString("type", "minecraft:overworld")
            .put("generator", CompoundBinaryTag.builder().putString("type", "minecraft:flat").put("settings", flat).build()).build())
        .put("minecraft:the_nether", CompoundBinaryTag.builder().putString("type", "minecraft:the_nether")
            .put("generator", CompoundBinaryTag.builder().putString("type", "minecraft:noise").putString("settings", "minecraft:nether")
                .put("biome_source", CompoundBinaryTag.builder().putString("type", "minecraft:multi_noise").putString("preset", "minecraft:nether").build()).build()).build())
        .put("minecraft:the_end", CompoundBinaryTag.builder().putString("type", "minecraft:the_end")
            .put("generator", CompoundBinaryTag.builder().putString("type", "minecraft:noise").putString("settings", "minecraft:end")
                .put("biome_source", CompoundBinaryTag.builder().putString("type", "minecraft:the_end").build()).build()).build())
        .build();
    CompoundBinaryTag gen = CompoundBinaryTag.builder().put("data", CompoundBinaryTag.builder()
        .putLong("seed", 0).putByte("generate_structures", (byte) 0).putByte("bonus_chest", (byte) 0)
        .put("dimensions", dimensions).putInt("DataVersion", dataVersion).build()).build();
    CompoundBinaryTag level = CompoundBinaryTag.builder().put("Data", CompoundBinaryTag.builder()
        .putInt("DataVersion", dataVersion).putInt("version", 19133)
        .put("Version", CompoundBinaryTag.builder().putInt("Id", dataVersion).putString("Name", versionName).putString("Series", "main").putByte("Snapshot", (byte) 0).build())
        .putString("LevelName", "mcb world").putInt("GameType", 1).putByte("allowCommands", (byte) 1).putByte("hardcore", (byte) 0)
        .putByte("Difficulty", (byte) 2).putByte("initialized", (byte) 1).putLong("LastPlayed", 0)
        .put("DataPacks", CompoundBinaryTag.builder().put("Enabled", ListBinaryTag.listBinaryTag(BinaryTagTypes.STRING, List.of(StringBinaryTag.stringBinaryTag("vanilla")))).put("Disabled", ListBinaryTag.empty()).build())
        .put("spawn", CompoundBinaryTag.builder().putString("dimension", "minecraft:overworld").putIntArray("pos", new int[] {0, 64, 0}).putFloat("yaw", 0).putFloat("pitch", 0).build())
        .build()).build();
    write(world.resolve("data/minecraft/world_gen_settings.dat"), gen);
    write(world.resolve("level.dat"), level);
  }

  private static void write(Path path, CompoundBinaryTag root) throws IOException {
    Path tmp = path.resolveSibling("." + path.getFileName() + ".tmp");
    try (OutputStream out = Files.newOutputStream(tmp)) {
      BinaryTagIO.writer().writeNamed(Map.entry("", root), out, BinaryTagIO.Compression.GZIP);
    }
    Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
