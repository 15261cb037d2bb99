package dev.mcb.port;

/**
 * Palette indices packed LSB-first into a byte stream, {@code bits} per index with
 * {@code bits = max(1, ceil(log2(paletteSize)))}: index i occupies bits [i·bits, (i+1)·bits). Shared
 * with the TypeScript side through {@code java/protocol-vectors.json}.
 */
public final class PackedIndices {
  private PackedIndices() {}

  public static int bitsFor(int paletteSize) {
    int bits = 1;
    while ((1L << bits) < paletteSize) bits++;
    return bits;
  }

  public static byte[] pack(int[] indices, int bits) {
    byte[] out = new byte[(int) (((long) indices.length * bits + 7) / 8)];
    long bit = 0;
    for (int v : indices) {
      for (int b = 0; b < bits; b++, bit++) if (((v >>> b) & 1) != 0) out[(int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
    }
    return out;
  }

  public static int[] unpack(byte[] packed, int bits, int count) {
    if ((long) count * bits > (long) packed.length * 8) throw PortError.invalid("packed indices are shorter than " + count + " × " + bits + " bits", "indices");
    int[] out = new int[count];
    long bit = 0;
    for (int i = 0; i < count; i++) {
      int v = 0;
      for (int b = 0; b < bits; b++, bit++) if ((packed[(int) (bit >>> 3)] & (1 << (bit & 7))) != 0) v |= 1 << b;
      out[i] = v;
    }
    return out;
  }
}
