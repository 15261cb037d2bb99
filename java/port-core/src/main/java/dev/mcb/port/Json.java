package dev.mcb.port;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import java.io.StringReader;
import java.util.Set;

/**
 * Strict JSON request decoding: every failure is an {@code invalid_request} naming the path of the
 * bad field; unknown keys are refused, so a misspelt field never passes as absent.
 */
public final class Json {
  private Json() {}

  public static final int MAX_DEPTH = 16;

  public static JsonObject parseObject(String body) {
    JsonElement root;
    try {
      JsonReader reader = new JsonReader(new StringReader(body));
      reader.setStrictness(Strictness.STRICT);
      reader.setNestingLimit(MAX_DEPTH);
      root = JsonParser.parseReader(reader);
      if (reader.peek() != com.google.gson.stream.JsonToken.END_DOCUMENT) throw PortError.invalid("trailing data after the JSON body", "");
    } catch (JsonParseException | java.io.IOException | IllegalStateException e) {
      throw PortError.invalid("the body is not valid JSON (" + shorten(e.getMessage()) + ")", "");
    }
    if (!root.isJsonObject()) throw PortError.invalid("the body must be a JSON object", "");
    return root.getAsJsonObject();
  }

  public static void onlyKeys(JsonObject o, String path, Set<String> allowed) {
    for (String k : o.keySet())
      if (!allowed.contains(k)) throw PortError.invalid("unknown field " + shorten(k) + " (allowed: " + String.join(", ", allowed.stream().sorted().toList()) + ")", join(path, shorten(k)));
  }

  public static JsonObject object(JsonObject o, String key, String path) {
    JsonElement e = o.get(key);
    if (e == null || !e.isJsonObject()) throw PortError.invalid("must be an object", join(path, key));
    return e.getAsJsonObject();
  }

  public static JsonArray array(JsonObject o, String key, String path, boolean optional) {
    JsonElement e = o.get(key);
    if (e == null && optional) return null;
    if (e == null || !e.isJsonArray()) throw PortError.invalid("must be an array", join(path, key));
    return e.getAsJsonArray();
  }

  public static int integer(JsonElement e, String path) {
    if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isNumber()) throw PortError.invalid("must be an integer", path);
    JsonPrimitive p = e.getAsJsonPrimitive();
    double d = p.getAsDouble();
    if (d != Math.rint(d) || d < -2147483648d || d > 2147483647d) throw PortError.invalid("must be a 32-bit integer", path);
    return (int) d;
  }

  public static int integer(JsonObject o, String key, String path) {
    return integer(o.get(key), join(path, key));
  }

  public static boolean bool(JsonObject o, String key, String path, boolean fallback) {
    JsonElement e = o.get(key);
    if (e == null) return fallback;
    if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isBoolean()) throw PortError.invalid("must be a boolean", join(path, key));
    return e.getAsBoolean();
  }

  /** A string of at most {@code max} characters; null when optional and absent or JSON null. */
  public static String string(JsonObject o, String key, String path, int max, boolean nullable) {
    JsonElement e = o.get(key);
    if ((e == null || e.isJsonNull()) && nullable) return null;
    if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) throw PortError.invalid("must be a string", join(path, key));
    String s = e.getAsString();
    if (s.length() > max) throw PortError.invalid("longer than " + max + " characters", join(path, key));
    return s;
  }

  /** A block-entity digest: 64 lowercase hex characters, or null. */
  public static String digest(JsonObject o, String key, String path) {
    String d = string(o, key, path, 64, true);
    if (d != null && !d.matches("[0-9a-f]{64}")) throw PortError.invalid("must be 64 lowercase hex characters or null", join(path, key));
    return d;
  }

  /** A string, or JSON null. */
  public static JsonElement orNull(String s) {
    return s == null ? com.google.gson.JsonNull.INSTANCE : new JsonPrimitive(s);
  }

  public static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** Bounded echo of caller text in an error (never more than 80 characters). */
  public static String shorten(String s) {
    if (s == null) return "";
    return s.length() <= 80 ? s : s.substring(0, 80) + "… (" + s.length() + " characters)";
  }
}
