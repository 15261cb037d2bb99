package dev.mcb.port;

import java.util.List;

/** One compare-and-set slice as the engine sends it (WorldAdapter.compareAndSet). */
public record CasRequest(List<Check> checks, List<Write> writes, int[] groupEnds) {
  /** A position the slice depends on without writing it; {@code digest} null for a plain block. */
  public record Check(int x, int y, int z, String state, String digest) {}

  /** {@code afterData}: canonical NBT for the new block entity, or null (the world's rule). */
  public record Write(int x, int y, int z, String before, String beforeDigest, String after, byte[] afterData) {}
}
