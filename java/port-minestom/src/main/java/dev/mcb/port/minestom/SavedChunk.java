package dev.mcb.port.minestom;

import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import java.util.List;
import net.kyori.adventure.nbt.CompoundBinaryTag;
import net.minestom.server.instance.Section;
import net.minestom.server.instance.block.Block;

/**
 * A chunk as a save writes it, copied on the game thread: its sections (palettes and light), its
 * block entities by chunk block index, the root tags it was loaded with (everything the game or a
 * server stored that the host does not write itself), both heightmaps and the world age. Nothing
 * here is shared with the live chunk.
 */
record SavedChunk(int x, int z, int minSection, List<Section> sections, Int2ObjectOpenHashMap<Block> blockEntities, CompoundBinaryTag tags,
    long[] motionBlocking, long[] worldSurface, long worldAge) {}
