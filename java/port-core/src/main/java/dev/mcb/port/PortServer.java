package dev.mcb.port;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Loopback HTTP for the port protocol: {@code GET /health} (no secrets), {@code POST /v1/<method>}
 * with {@code Authorization: Bearer <token>} (compared in constant time, checked before the body is
 * read), JSON bodies of at most {@code maxBodyBytes}. Every failure is a structured error body;
 * nothing a refused request carried reaches the world. Tokens are never echoed.
 */
public final class PortServer implements AutoCloseable, LoopbackHttp.Handler {
  private static final Logger LOG = PortLog.get(PortServer.class);
  /** The content type of a binary request body (cas_batch). */
  public static final String BINARY = "application/octet-stream";
  private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();
  private final Port port;
  private final byte[] tokenHash;
  private final LoopbackHttp http;

  public PortServer(Port port, PortConfig config) throws IOException {
    this.port = port;
    this.tokenHash = sha(config.token().getBytes(StandardCharsets.UTF_8));
    this.http = new LoopbackHttp(config.bindAddress(), config.port(), config.maxBodyBytes(), this);
  }

  public void start() {
    http.start();
  }

  /** The bound port (useful with port 0). */
  public int port() {
    return http.port();
  }

  @Override
  public void close() {
    http.close();
  }

  @Override
  public LoopbackHttp.Admission precheck(String method, String path, Map<String, String> headers, long contentLength) {
    if (path.equals("/health")) return method.equals("GET") ? new LoopbackHttp.Admission(null, false) : refused(new PortError(PortError.Code.METHOD_NOT_ALLOWED, "use GET /health"));
    if (!path.startsWith("/v1/")) return refused(new PortError(PortError.Code.NOT_FOUND, "no such route (use /health or POST /v1/<method>)"));
    if (!method.equals("POST")) return refused(new PortError(PortError.Code.METHOD_NOT_ALLOWED, "methods are called with POST"));
    if (!authorized(headers.get("authorization"))) return refused(new PortError(PortError.Code.PERMISSION_DENIED, "missing or wrong bearer token"));
    return new LoopbackHttp.Admission(null, true);
  }

  private static LoopbackHttp.Admission refused(PortError e) {
    LOG.info(() -> "refused a request before its body: " + e.code() + " (" + e.httpStatus() + ") " + e.getMessage());
    return LoopbackHttp.Admission.refuse(refuse(e));
  }

  @Override
  public LoopbackHttp.Response overloaded(String message, long retryAfterMs) {
    LOG.warning(() -> "refused a connection: " + message);
    return refuse(new PortError(PortError.Code.BUSY, message, Map.of("reason", "too_many_connections", "retry_after_ms", retryAfterMs)));
  }

  @Override
  public LoopbackHttp.Response handle(LoopbackHttp.Request r) {
    try {
      if (r.path().equals("/health")) {
        JsonObject o = new JsonObject();
        o.addProperty("status", "ok");
        o.addProperty("protocol", Port.PROTOCOL);
        o.addProperty("software", "mcb-port");
        return new LoopbackHttp.Response(200, bytes(ok(o)), false);
      }
      String method = r.path().substring(4);
      try {
        if (method.equals("cas_batch")) {
          String type = r.headers().getOrDefault("content-type", "");
          if (!type.split(";", 2)[0].trim().equalsIgnoreCase(BINARY)) throw PortError.invalid("cas_batch takes a binary body (Content-Type: " + BINARY + ")", "content-type");
          return new LoopbackHttp.Response(200, bytes(ok(port.casBatch(r.body()))), false);
        }
        String body = new String(r.body(), StandardCharsets.UTF_8);
        JsonObject params = body.isBlank() ? new JsonObject() : Json.parseObject(body);
        return new LoopbackHttp.Response(200, bytes(ok(port.call(method, params))), false);
      } catch (PortError e) {
        if (e.kind() == PortError.Code.FAILED) LOG.log(Level.SEVERE, "the host failed on " + Json.shorten(method) + ": " + e.getMessage(), e.getCause());
        else LOG.info(() -> "refused " + Json.shorten(method) + ": " + e.code() + " (" + e.httpStatus() + ") " + Json.shorten(e.getMessage()));
        return new LoopbackHttp.Response(e.httpStatus(), bytes(error(e)), false);
      } catch (RuntimeException | StackOverflowError e) { // never lets a bad request take down the port
        LOG.log(Level.SEVERE, "the port failed on " + Json.shorten(method), e);
        return new LoopbackHttp.Response(500, bytes(error(new PortError(PortError.Code.FAILED, "the port failed on this request: " + Json.shorten(e.getClass().getSimpleName()), Map.of("reason", "port_error")))), false);
      }
    } catch (RuntimeException e) {
      LOG.log(Level.SEVERE, "the port failed on a request", e);
      return new LoopbackHttp.Response(500, bytes(error(new PortError(PortError.Code.FAILED, "the port failed on this request", Map.of("reason", "port_error")))), false);
    }
  }

  @Override
  public LoopbackHttp.Response malformed(int status, String message) {
    PortError.Code code = switch (status) {
      case 411 -> PortError.Code.LENGTH_REQUIRED;
      case 413 -> PortError.Code.BUDGET_EXCEEDED;
      case 414 -> PortError.Code.URI_TOO_LONG;
      case 431 -> PortError.Code.HEADERS_TOO_LARGE;
      default -> PortError.Code.INVALID_REQUEST;
    };
    LOG.info(() -> "refused a malformed request: " + code.wire() + " (" + status + ") " + message);
    return refuse(new PortError(code, message));
  }

  private static LoopbackHttp.Response refuse(PortError e) {
    return new LoopbackHttp.Response(e.httpStatus(), bytes(error(e)), true);
  }

  private boolean authorized(String header) {
    String given = header != null && header.startsWith("Bearer ") ? header.substring(7) : "";
    return MessageDigest.isEqual(sha(given.getBytes(StandardCharsets.UTF_8)), tokenHash);
  }

  private static JsonObject ok(JsonObject result) {
    JsonObject o = new JsonObject();
    o.addProperty("ok", true);
    o.add("result", result);
    return o;
  }

  /** The wire form of an error: {code, message, retryable, details}. */
  static JsonObject errorObject(PortError e) {
    JsonObject err = new JsonObject();
    err.addProperty("code", e.code());
    err.addProperty("message", e.getMessage());
    err.addProperty("retryable", e.retryable());
    err.add("details", tree(e.details()));
    return err;
  }

  private static JsonObject error(PortError e) {
    JsonObject err = errorObject(e);
    JsonObject o = new JsonObject();
    o.addProperty("ok", false);
    o.add("error", err);
    return o;
  }

  /** Details are maps, lists, strings, numbers and booleans (no reflection on JDK collections). */
  static JsonElement tree(Object v) {
    if (v == null) return JsonNull.INSTANCE;
    if (v instanceof Map<?, ?> m) {
      JsonObject o = new JsonObject();
      m.forEach((k, x) -> o.add(String.valueOf(k), tree(x)));
      return o;
    }
    if (v instanceof Iterable<?> it) {
      JsonArray a = new JsonArray();
      it.forEach(x -> a.add(tree(x)));
      return a;
    }
    if (v instanceof Number n) return new JsonPrimitive(n);
    if (v instanceof Boolean b) return new JsonPrimitive(b);
    return new JsonPrimitive(String.valueOf(v));
  }

  private static byte[] bytes(JsonObject o) {
    return GSON.toJson(o).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] sha(byte[] b) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(b);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
