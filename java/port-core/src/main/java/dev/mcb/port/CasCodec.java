package dev.mcb.port;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Wire form of a compare-and-set slice and its result (java/PROTOCOL.md "cas"). */
final class CasCodec {
  private CasCodec() {}

  static CasRequest decode(JsonObject p) {
    Json.onlyKeys(p, "", Set.of("checks", "writes", "group_ends"));
    JsonArray checks = Json.array(p, "checks", "", false);
    JsonArray writes = Json.array(p, "writes", "", false);
    if (checks.size() > Port.MAX_CHECKS) throw PortError.tooLarge(checks.size() + " checks exceed " + Port.MAX_CHECKS, "max_checks", Port.MAX_CHECKS);
    if (writes.size() > Port.MAX_WRITES) throw PortError.tooLarge(writes.size() + " writes exceed " + Port.MAX_WRITES + " per slice", "max_writes", Port.MAX_WRITES);
    List<CasRequest.Check> cs = new ArrayList<>(checks.size());
    for (int i = 0; i < checks.size(); i++) {
      String path = "checks[" + i + "]";
      JsonObject c = object(checks.get(i), path);
      Json.onlyKeys(c, path, Set.of("x", "y", "z", "state", "digest"));
      cs.add(new CasRequest.Check(Json.integer(c, "x", path), Json.integer(c, "y", path), Json.integer(c, "z", path),
          Json.string(c, "state", path, Port.MAX_STATE, false), Json.digest(c, "digest", path)));
    }
    List<CasRequest.Write> ws = new ArrayList<>(writes.size());
    java.util.HashSet<Long> seen = new java.util.HashSet<>();
    for (int i = 0; i < writes.size(); i++) {
      String path = "writes[" + i + "]";
      JsonObject w = object(writes.get(i), path);
      Json.onlyKeys(w, path, Set.of("x", "y", "z", "before", "before_digest", "after", "after_data"));
      int x = Json.integer(w, "x", path), y = Json.integer(w, "y", path), z = Json.integer(w, "z", path);
      if (!seen.add(((long) x & 0x3FFFFFF) << 38 | ((long) (y & 0xFFF)) << 26 | ((long) z & 0x3FFFFFF)))
        throw PortError.invalid("a slice writes each position once; " + x + "," + y + "," + z + " repeats", path);
      String data = Json.string(w, "after_data", path, (Port.MAX_DATA / 3 + 1) * 4, true);
      byte[] bytes = null;
      if (data != null) {
        try {
          bytes = Base64.getDecoder().decode(data);
        } catch (IllegalArgumentException e) {
          throw PortError.invalid("must be base64", path + ".after_data");
        }
      }
      ws.add(new CasRequest.Write(x, y, z, Json.string(w, "before", path, Port.MAX_STATE, false), Json.digest(w, "before_digest", path),
          Json.string(w, "after", path, Port.MAX_STATE, false), bytes));
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

  /** On the game thread, before any write: every state and block-entity data is one the host can place. */
  static void validateStates(WorldAccess world, CasRequest req) {
    for (int i = 0; i < req.writes().size(); i++) {
      CasRequest.Write w = req.writes().get(i);
      String why = world.checkState(w.after());
      if (why != null) throw new PortError("unsupported_block", why, false, 400, Map.of("path", "writes[" + i + "].after"));
      if (w.afterData() != null) {
        String bad = world.checkData(w.after(), w.afterData());
        if (bad != null) throw new PortError("unsupported_block", bad, false, 400, Map.of("path", "writes[" + i + "].after_data"));
      }
    }
  }

  private static JsonObject object(JsonElement e, String path) {
    if (e == null || !e.isJsonObject()) throw PortError.invalid("must be an object", path);
    return e.getAsJsonObject();
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
      j.add("expected_digest", m.expectedDigest() == null ? JsonNull.INSTANCE : new JsonPrimitive(m.expectedDigest()));
      j.addProperty("actual", m.actual());
      j.add("actual_digest", m.actualDigest() == null ? JsonNull.INSTANCE : new JsonPrimitive(m.actualDigest()));
      ms.add(j);
    }
    o.add("mismatches", ms);
    JsonArray ed = new JsonArray();
    r.entityDigests().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
      JsonArray pair = new JsonArray();
      pair.add(e.getKey());
      pair.add(e.getValue());
      ed.add(pair);
    });
    o.add("entity_digests", ed);
    return o;
  }
}
