package dev.mcb.port.minestom;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.kyori.adventure.nbt.BinaryTag;
import net.kyori.adventure.nbt.BinaryTagIO;
import net.kyori.adventure.nbt.BinaryTagTypes;
import net.kyori.adventure.nbt.ByteArrayBinaryTag;
import net.kyori.adventure.nbt.ByteBinaryTag;
import net.kyori.adventure.nbt.CompoundBinaryTag;
import net.kyori.adventure.nbt.DoubleBinaryTag;
import net.kyori.adventure.nbt.FloatBinaryTag;
import net.kyori.adventure.nbt.IntArrayBinaryTag;
import net.kyori.adventure.nbt.IntBinaryTag;
import net.kyori.adventure.nbt.ListBinaryTag;
import net.kyori.adventure.nbt.LongArrayBinaryTag;
import net.kyori.adventure.nbt.LongBinaryTag;
import net.kyori.adventure.nbt.ShortBinaryTag;
import net.kyori.adventure.nbt.StringBinaryTag;

/**
 * Block-entity data in the engine's canonical bytes (packages/schematic canonicalNbt): an unnamed
 * root compound, keys sorted by {@link String#compareTo} at every level, empty lists typed END,
 * without the keys a position and type give (x, y, z, id, keepPacked, Pos, Id). Equal data has
 * equal bytes and equal SHA-256 digests on both sides of the port.
 */
public final class CanonicalNbt {
  private CanonicalNbt() {}

  private static final Set<String> POSITION_KEYS = Set.of("x", "y", "z", "id", "keepPacked", "Pos", "Id");
  public static final int MAX_BYTES = 1 << 20;

  public static byte[] encode(CompoundBinaryTag data) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(BinaryTagTypes.COMPOUND.id());
      out.writeUTF("");
      compound(out, data, true);
    } catch (IOException e) {
      throw new IllegalStateException("in-memory NBT write failed", e);
    }
    return bytes.toByteArray();
  }

  /** Decodes canonical (or any uncompressed, unnamed-root) NBT; null with the reason when it is not NBT. */
  public static CompoundBinaryTag decode(byte[] data) throws IOException {
    if (data.length > MAX_BYTES) throw new IOException("block-entity data of " + data.length + " bytes exceeds " + MAX_BYTES);
    return BinaryTagIO.reader(MAX_BYTES).read(new ByteArrayInputStream(data), BinaryTagIO.Compression.NONE);
  }

  private static void compound(DataOutputStream out, CompoundBinaryTag c, boolean root) throws IOException {
    List<String> keys = new ArrayList<>(c.keySet());
    keys.sort(null);
    for (String k : keys) {
      if (root && POSITION_KEYS.contains(k)) continue;
      BinaryTag v = c.get(k);
      out.writeByte(v.type().id());
      out.writeUTF(k);
      value(out, v);
    }
    out.writeByte(0);
  }

  private static void value(DataOutputStream out, BinaryTag v) throws IOException {
    switch (v) {
      case ByteBinaryTag b -> out.writeByte(b.value());
      case ShortBinaryTag s -> out.writeShort(s.value());
      case IntBinaryTag i -> out.writeInt(i.value());
      case LongBinaryTag l -> out.writeLong(l.value());
      case FloatBinaryTag f -> out.writeFloat(f.value());
      case DoubleBinaryTag d -> out.writeDouble(d.value());
      case StringBinaryTag s -> out.writeUTF(s.value());
      case ByteArrayBinaryTag a -> {
        byte[] b = a.value();
        out.writeInt(b.length);
        out.write(b);
      }
      case IntArrayBinaryTag a -> {
        int[] x = a.value();
        out.writeInt(x.length);
        for (int i : x) out.writeInt(i);
      }
      case LongArrayBinaryTag a -> {
        long[] x = a.value();
        out.writeInt(x.length);
        for (long l : x) out.writeLong(l);
      }
      case ListBinaryTag l -> {
        out.writeByte(l.size() == 0 ? 0 : l.get(0).type().id());
        out.writeInt(l.size());
        for (int i = 0; i < l.size(); i++) value(out, l.get(i));
      }
      case CompoundBinaryTag c -> compound(out, c, false);
      default -> throw new IllegalArgumentException("unsupported NBT tag " + v.type());
    }
  }
}
