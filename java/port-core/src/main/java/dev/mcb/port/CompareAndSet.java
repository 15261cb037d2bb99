package dev.mcb.port;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The compare-and-set rule (docs/DESIGN.md "Write rule"), run as one game-thread job: every
 * check first (any mismatch writes nothing), then each group in order, written only when every
 * write's current state and digest equal its {@code before}; the first failing group stops the
 * slice. Positions were validated (loaded, inside the height) before the job was queued and are
 * checked again here, since a chunk may unload in between.
 */
public class CompareAndSet {
  public CompareAndSet() {}

  /**
   * The rule: a slice stops at its first failing group. Only a test double answers otherwise (the
   * conformance suite's planted bug, in the tests' sources, shows that the suite catches it).
   */
  protected boolean stopsAtFailingGroup() {
    return true;
  }

  /** A slice checked off the game thread: its states are ones the host can place, with the host's numbers of its plain writes. */
  public record Prepared(CasRequest req, int[] before, int[] after) {}

  /**
   * Off the game thread (the HTTP thread that decoded it): refuses a slice with a state or data
   * the host cannot place (`unsupported_block`, nothing written) and numbers its plain writes.
   */
  public static Prepared prepare(WorldAccess world, CasRequest req) {
    CasCodec.validateStates(world, req);
    int[] before = new int[req.writes().size()], after = new int[req.writes().size()];
    numbers(world, req.writes(), before, after);
    return new Prepared(req, before, after);
  }

  public CasResult run(WorldAccess world, Prepared prepared) {
    CasRequest req = prepared.req();
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
    List<CasRequest.Write> writes = req.writes();
    int[] before = prepared.before(), after = prepared.after();
    StateNumbers numbers = world instanceof StateNumbers n ? n : null; // null: every number is -1
    for (int end : req.groupEnds()) {
      List<CasResult.Mismatch> bad = null;
      for (int w = start; w < end; w++) {
        CasRequest.Write c = writes.get(w);
        // A plain block on both sides compares host numbers; anything else its state and digest.
        if (before[w] >= 0 && numbers.numberAt(c.x(), c.y(), c.z()) == before[w]) continue;
        String actual = world.stateAt(c.x(), c.y(), c.z());
        String digest = Digests.at(world, actual, c.x(), c.y(), c.z());
        if (!actual.equals(c.before()) || !Objects.equals(digest, c.beforeDigest())) {
          if (bad == null) bad = new ArrayList<>();
          bad.add(new CasResult.Mismatch("write", w, c.x(), c.y(), c.z(), c.before(), c.beforeDigest(), actual, digest));
        }
      }
      if (bad != null) {
        if (mismatches.isEmpty()) mismatches.addAll(bad);
        if (stopsAtFailingGroup()) break;
        start = end;
        continue;
      }
      for (int w = start; w < end; w++) {
        CasRequest.Write c = writes.get(w);
        if (after[w] >= 0) {
          numbers.setNumber(c.x(), c.y(), c.z(), after[w]);
          continue; // a plain block: no block entity, no digest
        }
        world.set(c.x(), c.y(), c.z(), c.after(), c.afterData());
        String d = Digests.at(world, c.after(), c.x(), c.y(), c.z());
        if (d != null) entityDigests.put(w, d);
      }
      if (mismatches.isEmpty()) written = end;
      start = end;
    }
    return new CasResult(written, mismatches, entityDigests);
  }

  /**
   * The host's numbers of each write's before and after state where the write is plain (before and
   * after without a block entity, no data): compared and written as numbers. -1 elsewhere, and
   * everywhere on a host without numbers.
   */
  private static void numbers(WorldAccess world, List<CasRequest.Write> writes, int[] before, int[] after) {
    java.util.Arrays.fill(before, -1);
    java.util.Arrays.fill(after, -1);
    if (!(world instanceof StateNumbers numbers)) return;
    String lastState = null;
    int lastNumber = -1;
    for (int w = 0; w < writes.size(); w++) {
      CasRequest.Write c = writes.get(w);
      int b = -1, a = -1;
      if (c.beforeDigest() == null && c.afterData() == null) {
        if (c.before() == lastState) b = lastNumber;
        else b = lastNumber = plainNumber(world, numbers, lastState = c.before());
        if (b >= 0) {
          if (c.after() == lastState) a = lastNumber;
          else a = lastNumber = plainNumber(world, numbers, lastState = c.after());
          if (a < 0) b = -1;
        }
      }
      before[w] = b;
      after[w] = a;
    }
  }

  /**
   * The host's number of a plain state, only when the string is exactly that number's canonical
   * state: comparing numbers then says what comparing strings would (a non-canonical string keeps
   * the string comparison, and fails it as before).
   */
  private static int plainNumber(WorldAccess world, StateNumbers numbers, String state) {
    if (world.mayHaveBlockEntity(state)) return -1;
    int n = numbers.stateNumber(state);
    return n >= 0 && numbers.stateOfId(n).equals(state) ? n : -1;
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
