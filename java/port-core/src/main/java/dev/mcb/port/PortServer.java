package dev.mcb.port;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Loopback HTTP for the port protocol: {@code GET /health} (no secrets), {@code POST /v1/<method>}
 * with {@code Authorization: Bearer <token>} (compared in constant time), JSON bodies of at most
 * {@code maxBodyBytes}. Every failure is a structured error body; nothing a refused request carried
 * reaches the world. Tokens are never echoed.
 */
public final class PortServer implements AutoCloseable {
  private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();
  private final Port port;
  private final PortConfig config;
  private final byte[] tokenHash;
  private final HttpServer http;
  private final ExecutorService pool;

  public PortServer(Port port, PortConfig config) throws IOException {
    this.port = port;
    this.config = config;
    this.tokenHash = sha(config.token().getBytes(StandardCharsets.UTF_8));
    this.http = HttpServer.create(new InetSocketAddress(config.bindAddress(), config.port()), 64);
    AtomicInteger n = new AtomicInteger();
    this.pool = Executors.newFixedThreadPool(4, r -> {
      Thread t = new Thread(r, "mcb-port-http-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    http.setExecutor(pool);
    http.createContext("/", this::handle);
  }

  public void start() {
    http.start();
  }

  /** The bound port (useful with port 0). */
  public int port() {
    return http.getAddress().getPort();
  }

  @Override
  public void close() {
    http.stop(0);
    pool.shutdownNow();
  }

  private void handle(HttpExchange ex) throws IOException {
    try {
      respond(ex);
    } finally {
      ex.close();
    }
  }

  private void respond(HttpExchange ex) throws IOException {
    try {
      String path = ex.getRequestURI().getPath();
      if (path.equals("/health")) {
        if (!ex.getRequestMethod().equals("GET")) throw new PortError("invalid_request", "use GET /health", false, 405, Map.of());
        JsonObject o = new JsonObject();
        o.addProperty("status", "ok");
        o.addProperty("protocol", Port.PROTOCOL);
        o.addProperty("software", "mcb-port");
        send(ex, 200, ok(o));
        return;
      }
      if (!path.startsWith("/v1/")) throw new PortError("not_found", "no such route (use /health or POST /v1/<method>)", false, 404, Map.of());
      if (!ex.getRequestMethod().equals("POST")) throw new PortError("invalid_request", "methods are called with POST", false, 405, Map.of());
      if (!authorized(ex.getRequestHeaders().getFirst("Authorization")))
        throw new PortError("permission_denied", "missing or wrong bearer token", false, 401, Map.of());
      String body = readBody(ex);
      JsonObject params = body.isBlank() ? new JsonObject() : Json.parseObject(body);
      JsonObject result = port.call(path.substring(4), params);
      send(ex, 200, ok(result));
    } catch (PortError e) {
      send(ex, e.httpStatus(), error(e));
    } catch (RuntimeException | Error e) { // never lets a bad request take down the port
      send(ex, 500, error(new PortError("busy", "the port failed on this request: " + Json.shorten(e.getClass().getSimpleName()), false, 500, Map.of("reason", "port_error"))));
    }
  }

  private boolean authorized(String header) {
    String given = header != null && header.startsWith("Bearer ") ? header.substring(7) : "";
    return MessageDigest.isEqual(sha(given.getBytes(StandardCharsets.UTF_8)), tokenHash);
  }

  private String readBody(HttpExchange ex) throws IOException {
    int max = config.maxBodyBytes();
    String declared = ex.getRequestHeaders().getFirst("Content-Length");
    if (declared != null) {
      long n;
      try {
        n = Long.parseLong(declared.trim());
      } catch (NumberFormatException e) {
        throw PortError.invalid("bad Content-Length", "Content-Length");
      }
      if (n > max) throw PortError.tooLarge("a body of " + n + " bytes exceeds " + max, "max_body", max);
    }
    InputStream in = ex.getRequestBody();
    byte[] buf = in.readNBytes(max + 1);
    if (buf.length > max) throw PortError.tooLarge("the body exceeds " + max + " bytes", "max_body", max);
    return new String(buf, StandardCharsets.UTF_8);
  }

  private static JsonObject ok(JsonObject result) {
    JsonObject o = new JsonObject();
    o.addProperty("ok", true);
    o.add("result", result);
    return o;
  }

  private static JsonObject error(PortError e) {
    JsonObject err = new JsonObject();
    err.addProperty("code", e.code());
    err.addProperty("message", e.getMessage());
    err.addProperty("retryable", e.retryable());
    err.add("details", tree(e.details()));
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

  private static void send(HttpExchange ex, int status, JsonObject body) throws IOException {
    byte[] bytes = GSON.toJson(body).getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static byte[] sha(byte[] b) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(b);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
