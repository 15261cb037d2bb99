package dev.mcb.port;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The compare-and-set rule (ARCHITECTURE.md "Key contracts"), run as one game-thread job: every
 * check first (any mismatch writes nothing), then each group in order, written only when every
 * write's current state and digest equal its {@code before}; the first failing group stops the
 * slice. Positions were validated (loaded, inside the height) before the job was queued and are
 * checked again here, since a chunk may unload in between.
 */
public final class CompareAndSet {
  /** Fault injection for the conformance suite's planted bug: keeps writing after a failing group. */
  private final boolean writePastFailingGroup;

  public CompareAndSet(boolean writePastFailingGroup) {
    this.writePastFailingGroup = writePastFailingGroup;
  }

  public CasResult run(WorldAccess world, CasRequest req) {
    WorldFacts facts = world.facts();
    for (CasRequest.Check c : req.checks()) requireLoaded(world, facts, c.x(), c.y(), c.z());
    for (CasRequest.Write w : req.writes()) requireLoaded(world, facts, w.x(), w.y(), w.z());

    List<CasResult.Mismatch> mismatches = new ArrayList<>();
    for (int i = 0; i < req.checks().size(); i++) {
      CasRequest.Check c = req.checks().get(i);
      String actual = world.stateAt(c.x(), c.y(), c.z());
      String digest = Digests.at(world, actual, c.x(), c.y(), c.z());
      if (!actual.equals(c.state()) || !Objects.equals(digest, c.digest()))
        mismatches.add(new CasResult.Mismatch("check", i, c.x(), c.y(), c.z(), c.state(), c.digest(), actual, digest));
    }
    Map<Integer, String> entityDigests = new HashMap<>();
    if (!mismatches.isEmpty()) return new CasResult(0, mismatches, entityDigests);

    int written = 0;
    int start = 0;
    for (int end : req.groupEnds()) {
      List<CasResult.Mismatch> bad = new ArrayList<>();
      for (int w = start; w < end; w++) {
        CasRequest.Write c = req.writes().get(w);
        String actual = world.stateAt(c.x(), c.y(), c.z());
        String digest = Digests.at(world, actual, c.x(), c.y(), c.z());
        if (!actual.equals(c.before()) || !Objects.equals(digest, c.beforeDigest()))
          bad.add(new CasResult.Mismatch("write", w, c.x(), c.y(), c.z(), c.before(), c.beforeDigest(), actual, digest));
      }
      if (!bad.isEmpty()) {
        if (mismatches.isEmpty()) mismatches.addAll(bad);
        if (!writePastFailingGroup) break;
        start = end;
        continue;
      }
      for (int w = start; w < end; w++) {
        CasRequest.Write c = req.writes().get(w);
        world.set(c.x(), c.y(), c.z(), c.after(), c.afterData());
        String d = Digests.at(world, c.after(), c.x(), c.y(), c.z());
        if (d != null) entityDigests.put(w, d);
      }
      if (mismatches.isEmpty()) written = end;
      start = end;
    }
    return new CasResult(written, mismatches, entityDigests);
  }

  static void requireLoaded(WorldAccess world, WorldFacts facts, int x, int y, int z) {
    if (y < facts.minY() || y > facts.maxY())
      throw new PortError(PortError.Code.OUT_OF_BOUNDS, "y=" + y + " is outside the world's build height " + facts.minY() + ".." + facts.maxY(),
          Map.of("reason", "outside_height", "pos", Map.of("x", x, "y", y, "z", z)));
    if (!world.isLoaded(x, z))
      throw new PortError(PortError.Code.CHUNK_NOT_LOADED, "the chunk holding " + x + "," + z + " is not loaded (the port never loads or generates chunks)",
          Map.of("reason", "chunk_not_loaded", "chunk", Map.of("x", x >> 4, "z", z >> 4)));
  }
}
