package dev.mcb.port;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 as lowercase hex: the block-entity digest the engine compares. */
public final class Digests {
  private Digests() {}

  public static String sha256(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** Digest of the block entity at a position holding {@code state}, or null for a plain block. */
  public static String at(WorldAccess world, String state, int x, int y, int z) {
    if (!world.mayHaveBlockEntity(state)) return null;
    byte[] data = world.blockEntityAt(x, y, z);
    return data == null ? null : sha256(data);
  }
}
