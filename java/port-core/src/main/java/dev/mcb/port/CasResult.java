package dev.mcb.port;

import java.util.List;
import java.util.Map;

/**
 * {@code written}: leading writes applied (whole groups). {@code mismatches}: those of the checks, or
 * of the first failing group. {@code entityDigests}: block-entity digest now at a written position.
 */
public record CasResult(int written, List<Mismatch> mismatches, Map<Integer, String> entityDigests) {
  public record Mismatch(String kind, int index, int x, int y, int z, String expected, String expectedDigest, String actual, String actualDigest) {}
}
