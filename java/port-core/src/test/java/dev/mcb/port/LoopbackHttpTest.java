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
    PortConfig config = new PortConfig("127.0.0.1", 0, TOKEN, 5_000_000, 64 * 1024, 1000, 100, false, false);
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
    // A line past 8 KiB ends the connection without an answer.
    assertEquals("", raw("GET /" + "a".repeat(9000) + " HTTP/1.1\r\n\r\n"));
    // An unauthenticated body is never read: the answer comes at once and the connection closes.
    String r = raw("POST /v1/cas HTTP/1.1\r\nContent-Length: 100\r\n\r\n");
    assertTrue(r.startsWith("HTTP/1.1 401") && r.contains("Connection: close") && r.contains("permission_denied"), r);
    assertEquals(0, world.sets);
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
