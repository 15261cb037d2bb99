package dev.mcb.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The HTTP framing over raw sockets: what curl or a hostile local process could send. */
class LoopbackHttpTest {
  static final String TOKEN = "test-token-0123456789";
  MapWorld world;
  PortServer server;

  @BeforeEach
  void start() throws Exception {
    world = new MapWorld();
    AutoGame game = new AutoGame();
    TickStats stats = new TickStats(10);
    PortConfig config = new PortConfig("127.0.0.1", 0, TOKEN, 5_000_000, 64 * 1024, 1000, 100);
    TickScheduler scheduler = new TickScheduler(game, config.budgetNanos(), 16, System::nanoTime, stats);
    game.start(scheduler);
    server = new PortServer(new Port(world, scheduler, new EventLog(10), new ChatQueue(4), (p, t) -> false, stats, config), config);
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** Sends raw bytes, returns everything the server answers until it closes (or 3 s pass). */
  String raw(String request) throws IOException {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(3000);
      s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buf = new byte[4096];
      try {
        for (int n; (n = in.read(buf)) > 0; ) out.write(buf, 0, n);
      } catch (java.net.SocketTimeoutException e) {
        // kept open: return what came
      }
      return out.toString(StandardCharsets.UTF_8);
    }
  }

  @Test
  void keepAliveServesSeveralRequestsOnOneConnection() throws IOException {
    String health = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n";
    String both = raw(health + health + "GET /health HTTP/1.1\r\nConnection: close\r\n\r\n");
    assertEquals(3, both.split("HTTP/1.1 200 OK", -1).length - 1, both);
  }

  @Test
  void badFramingIsRefusedAndTheConnectionClosed() throws IOException {
    assertTrue(raw("NONSENSE\r\n\r\n").startsWith("HTTP/1.1 400"));
    assertTrue(raw("POST /v1/info HTTP/1.1\r\nAuthorization: Bearer " + TOKEN + "\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").startsWith("HTTP/1.1 411"));
    assertTrue(raw("POST /v1/info HTTP/1.1\r\nAuthorization: Bearer " + TOKEN + "\r\nContent-Length: -5\r\n\r\n").startsWith("HTTP/1.1 400"));
    assertTrue(raw("POST /v1/info HTTP/1.1\r\nAuthorization: Bearer " + TOKEN + "\r\nContent-Length: 999999999\r\n\r\n").startsWith("HTTP/1.1 413"));
    assertTrue(raw("POST /v1/info HTTP/1.1\r\nno colon here\r\n\r\n").startsWith("HTTP/1.1 400"));
    // A request line past 8 KiB is 414, a header line past 8 KiB or a 65th header 431: answered, then closed.
    assertTrue(raw("GET /" + "a".repeat(9000) + " HTTP/1.1\r\n\r\n").startsWith("HTTP/1.1 414"));
    String big = raw("POST /v1/info HTTP/1.1\r\nAuthorization: Bearer " + TOKEN + "\r\nX-Big: " + "a".repeat(9 * 1024) + "\r\n\r\n");
    assertTrue(big.startsWith("HTTP/1.1 431") && big.contains("invalid_request") && big.contains("Connection: close"), big);
    assertTrue(raw("GET /health HTTP/1.1\r\n" + "X-H: 1\r\n".repeat(65) + "\r\n").startsWith("HTTP/1.1 431"));
    // An unauthenticated body is never read: the answer comes at once and the connection closes.
    String r = raw("POST /v1/cas HTTP/1.1\r\nContent-Length: 100\r\n\r\n");
    assertTrue(r.startsWith("HTTP/1.1 401") && r.contains("Connection: close") && r.contains("permission_denied"), r);
    assertEquals(0, world.sets);
  }

  @Test
  void idleConnectionsWithoutTheTokenNeverLockOutAClientWithIt() throws Exception {
    java.util.List<Socket> idle = new java.util.ArrayList<>();
    try {
      for (int i = 0; i < 40; i++) idle.add(new Socket("127.0.0.1", server.port()));
      Thread.sleep(LoopbackHttp.EVICT_AFTER_MS + 100);
      // At once, on the first try: an idle connection without the token makes room.
      String r = raw("POST /v1/info HTTP/1.1\r\nAuthorization: Bearer " + TOKEN + "\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
      assertTrue(r.startsWith("HTTP/1.1 200"), r);
    } finally {
      for (Socket s : idle) s.close();
    }
  }

  @Test
  void overTheCapAFreshConnectionGetsAStructured503WithRetryAfter() throws Exception {
    java.util.List<Socket> idle = new java.util.ArrayList<>();
    try {
      for (int i = 0; i < LoopbackHttp.MAX_UNAUTHENTICATED; i++) idle.add(new Socket("127.0.0.1", server.port()));
      Thread.sleep(50); // all accepted, none old enough to evict
      String r = raw("GET /health HTTP/1.1\r\n\r\n");
      assertTrue(r.startsWith("HTTP/1.1 503") && r.contains("\"reason\":\"too_many_connections\"") && r.contains("\"retry_after_ms\":" + LoopbackHttp.EVICT_AFTER_MS), r);
    } finally {
      for (Socket s : idle) s.close();
    }
  }

  @Test
  void aConnectionWithoutTheTokenThatSendsNothingIsClosedAfterTheHeaderTimeout() throws Exception {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(LoopbackHttp.HEADER_TIMEOUT_MS * 3);
      assertEquals(-1, s.getInputStream().read()); // closed by the port, not by our timeout
    }
  }

  @Test
  void aBodyShorterThanItsLengthIsNeverExecuted() throws IOException {
    String body = "{\"states\":[\"minecraft:air\",\"minecraft:stone\"],\"digests\":[],\"checks\":[],\"writes\":[[1,64,1,0,-1,1]]}";
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.getOutputStream().write(("POST /v1/cas HTTP/1.1\r\nAuthorization: Bearer " + TOKEN + "\r\nContent-Length: " + (body.length() + 10) + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
      s.shutdownOutput();
      s.setSoTimeout(3000);
      assertEquals(-1, s.getInputStream().read());
    }
    assertEquals(0, world.sets);
  }
}
