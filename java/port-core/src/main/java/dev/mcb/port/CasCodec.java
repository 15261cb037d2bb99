package dev.mcb.port;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.HashSet;
import java.util.Set;

/** Wire form of a compare-and-set slice and its result (java/PROTOCOL.md "cas"). */
final class CasCodec {
  private CasCodec() {}

  /**
   * {@code {states, digests, checks: [[x,y,z,state,digest]], writes: [[x,y,z,before,before_digest,after]],
   * data?: [[write, base64]], group_ends?}}: states and digests are indices into the two tables
   * (digest -1: a plain block), so a 512-write slice of one material is a few kilobytes.
   */
  static CasRequest decode(JsonObject p) {
    Json.onlyKeys(p, "", Set.of("states", "digests", "checks", "writes", "data", "group_ends"));
    List<String> states = strings(Json.array(p, "states", "", false), "states", Port.MAX_STATE, Port.MAX_CHECKS + Port.MAX_WRITES * 2);
    List<String> digests = strings(Json.array(p, "digests", "", false), "digests", 64, Port.MAX_CHECKS + Port.MAX_WRITES);
    for (int i = 0; i < digests.size(); i++)
      if (!digests.get(i).matches("[0-9a-f]{64}")) throw PortError.invalid("must be 64 lowercase hex characters", "digests[" + i + "]");
    JsonArray checks = Json.array(p, "checks", "", false);
    JsonArray writes = Json.array(p, "writes", "", false);
    if (checks.size() > Port.MAX_CHECKS) throw PortError.tooLarge(checks.size() + " checks exceed " + Port.MAX_CHECKS, "max_checks", Port.MAX_CHECKS);
    if (writes.size() > Port.MAX_WRITES) throw PortError.tooLarge(writes.size() + " writes exceed " + Port.MAX_WRITES + " per slice", "max_writes", Port.MAX_WRITES);
    List<CasRequest.Check> cs = new ArrayList<>(checks.size());
    for (int i = 0; i < checks.size(); i++) {
      String path = "checks[" + i + "]";
      JsonArray c = tuple(checks.get(i), path, 5);
      cs.add(new CasRequest.Check(Json.integer(c.get(0), path + "[0]"), Json.integer(c.get(1), path + "[1]"), Json.integer(c.get(2), path + "[2]"),
          ref(states, c.get(3), path + "[3]", false), ref(digests, c.get(4), path + "[4]", true)));
    }
    byte[][] data = new byte[writes.size()][];
    JsonArray d = Json.array(p, "data", "", true);
    if (d != null) {
      for (int i = 0; i < d.size(); i++) {
        String path = "data[" + i + "]";
        JsonArray e = tuple(d.get(i), path, 2);
        int w = Json.integer(e.get(0), path + "[0]");
        if (w < 0 || w >= data.length || data[w] != null) throw PortError.invalid("names no write, or a write twice", path + "[0]");
        if (!e.get(1).isJsonPrimitive() || !e.get(1).getAsJsonPrimitive().isString() || e.get(1).getAsString().length() > (Port.MAX_DATA / 3 + 1) * 4)
          throw PortError.invalid("must be base64 of at most " + Port.MAX_DATA + " bytes", path + "[1]");
        try {
          data[w] = Base64.getDecoder().decode(e.get(1).getAsString());
        } catch (IllegalArgumentException ex) {
          throw PortError.invalid("must be base64", path + "[1]");
        }
      }
    }
    List<CasRequest.Write> ws = new ArrayList<>(writes.size());
    long[] keys = new long[writes.size()];
    for (int i = 0; i < writes.size(); i++) {
      String path = "writes[" + i + "]";
      JsonArray w = tuple(writes.get(i), path, 6);
      int x = Json.integer(w.get(0), path + "[0]"), y = Json.integer(w.get(1), path + "[1]"), z = Json.integer(w.get(2), path + "[2]");
      keys[i] = Positions.key(x, y, z);
      ws.add(new CasRequest.Write(x, y, z, ref(states, w.get(3), path + "[3]", false), ref(digests, w.get(4), path + "[4]", true),
          ref(states, w.get(5), path + "[5]", false), data[i]));
    }
    int repeat = Positions.firstRepeat(keys);
    if (repeat >= 0) {
      CasRequest.Write w = ws.get(repeat);
      throw PortError.invalid("a slice writes each position once; " + w.x() + "," + w.y() + "," + w.z() + " repeats", "writes[" + repeat + "]");
    }
    int[] ends;
    JsonArray g = Json.array(p, "group_ends", "", true);
    if (g == null) {
      ends = new int[ws.size()];
      for (int i = 0; i < ends.length; i++) ends[i] = i + 1;
    } else {
      ends = new int[g.size()];
      int prev = 0;
      for (int i = 0; i < ends.length; i++) {
        ends[i] = Json.integer(g.get(i), "group_ends[" + i + "]");
        if (ends[i] <= prev || ends[i] > ws.size()) throw PortError.invalid("group ends must increase strictly within 1.." + ws.size(), "group_ends[" + i + "]");
        prev = ends[i];
      }
      if (prev != ws.size()) throw PortError.invalid("the last group must end at the number of writes (" + ws.size() + ")", "group_ends");
    }
    return new CasRequest(List.copyOf(cs), List.copyOf(ws), ends);
  }

  private static List<String> strings(JsonArray a, String path, int maxLength, int maxCount) {
    if (a.size() > maxCount) throw PortError.tooLarge(path + " has " + a.size() + " entries (at most " + maxCount + ")", path, maxCount);
    List<String> out = new ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) {
      JsonElement e = a.get(i);
      if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString() || e.getAsString().length() > maxLength)
        throw PortError.invalid("must be a string of at most " + maxLength + " characters", path + "[" + i + "]");
      out.add(e.getAsString());
    }
    return out;
  }

  private static JsonArray tuple(JsonElement e, String path, int size) {
    if (e == null || !e.isJsonArray() || e.getAsJsonArray().size() != size) throw PortError.invalid("must be an array of " + size, path);
    return e.getAsJsonArray();
  }

  private static String ref(List<String> table, JsonElement e, String path, boolean nullable) {
    int i = Json.integer(e, path);
    if (nullable && i == -1) return null;
    if (i < 0 || i >= table.size()) throw PortError.invalid("index " + i + " is outside its table (" + table.size() + " entries)", path);
    return table.get(i);
  }

  /** On the game thread, before any write: every state and block-entity data is one the host can place. */
  static void validateStates(WorldAccess world, CasRequest req) {
    Set<String> valid = new HashSet<>();
    String last = null; // the state of the write before, already valid
    for (int i = 0; i < req.writes().size(); i++) {
      CasRequest.Write w = req.writes().get(i);
      if (w.after() != last) {
        String why = valid.contains(w.after()) ? null : world.checkState(w.after());
        if (why != null) throw new PortError(PortError.Code.UNSUPPORTED_BLOCK, why, Map.of("path", "writes[" + i + "].after"));
        valid.add(w.after());
        last = w.after();
      }
      if (w.afterData() != null) {
        String bad = world.checkData(w.after(), w.afterData());
        if (bad != null) throw new PortError(PortError.Code.UNSUPPORTED_BLOCK, bad, Map.of("path", "data of writes[" + i + "]"));
      }
    }
  }

  static JsonObject encode(CasResult r) {
    JsonObject o = new JsonObject();
    o.addProperty("written", r.written());
    JsonArray ms = new JsonArray();
    for (CasResult.Mismatch m : r.mismatches()) {
      JsonObject j = new JsonObject();
      j.addProperty("kind", m.kind());
      j.addProperty("index", m.index());
      j.addProperty("x", m.x());
      j.addProperty("y", m.y());
      j.addProperty("z", m.z());
      j.addProperty("expected", m.expected());
      j.add("expected_digest", Json.orNull(m.expectedDigest()));
      j.addProperty("actual", m.actual());
      j.add("actual_digest", Json.orNull(m.actualDigest()));
      ms.add(j);
    }
    o.add("mismatches", ms);
    o.add("entity_digests", Port.pairs(r.entityDigests()));
    return o;
  }
}
