package dev.mcb.port;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A small HTTP/1.1 server for the port's few loopback clients: keep-alive, one virtual thread per
 * connection, TCP_NODELAY, a response in one write (a JDK HttpServer round trip cost ~0.7 ms here,
 * this one ~0.1 ms). Only what the protocol needs: Content-Length bodies (no chunked uploads),
 * bounded request lines (414) and headers (431). A request refused before its body is read closes
 * the connection.
 *
 * <p>Connections are unauthenticated until a request passes the token check. Those are capped
 * apart ({@link #MAX_UNAUTHENTICATED}) and must send each request head within
 * {@link #HEADER_TIMEOUT_MS} of connecting or of their last answer, so idle or slow connections
 * without the token can hold no slot for long; when the cap is full, a new connection evicts the
 * oldest unauthenticated one that has had {@link #EVICT_AFTER_MS} to send its request, so a client
 * with the token (which sends at once) is served even while others hold idle connections.
 * Authenticated connections are capped at {@link #MAX_CONNECTIONS} with a 30 s idle timeout. A
 * connection refused by either cap is answered a structured 503 with {@code retry_after_ms}, never
 * dropped silently.
 */
final class LoopbackHttp implements AutoCloseable {
  record Request(String method, String path, Map<String, String> headers, byte[] body) {}

  record Response(int status, byte[] body, boolean close) {}

  /** What the handler says before the body is read: a refusal, or whether the caller proved the token. */
  record Admission(Response refusal, boolean authenticated) {
    static Admission refuse(Response r) {
      return new Admission(r, false);
    }
  }

  interface Handler {
    /** Before the body is read: a refusal refuses the request (and closes the connection). */
    Admission precheck(String method, String path, Map<String, String> headers, long contentLength);

    Response handle(Request request);

    /** A response for a malformed request (bad framing), then the connection closes. */
    Response malformed(int status, String message);

    /** A structured 503 for a connection over a cap: retry after {@code retryAfterMs}. */
    Response overloaded(String message, long retryAfterMs);
  }

  static final int MAX_LINE = 8 * 1024;
  static final int MAX_HEADERS = 64;
  static final int MAX_CONNECTIONS = 32;
  static final int MAX_UNAUTHENTICATED = 16;
  static final int IDLE_TIMEOUT_MS = 30_000;
  static final int HEADER_TIMEOUT_MS = 2_000;
  static final int EVICT_AFTER_MS = 250;

  /** One open connection; {@code deadline} (nanoTime) is when an unauthenticated one is closed. */
  private static final class Conn {
    final Socket socket;
    final long opened = System.nanoTime();
    volatile boolean authenticated;
    volatile long deadline;

    Conn(Socket socket) {
      this.socket = socket;
      this.deadline = opened + HEADER_TIMEOUT_MS * 1_000_000L;
    }
  }

  private final ServerSocket server;
  private final Handler handler;
  private final long maxBody;
  private final Set<Conn> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  LoopbackHttp(InetAddress address, int port, long maxBody, Handler handler) throws IOException {
    this.server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(new InetSocketAddress(address, port), 64);
    this.handler = handler;
    this.maxBody = maxBody;
  }

  int port() {
    return server.getLocalPort();
  }

  void start() {
    Thread.ofPlatform().daemon().name("mcb-port-accept").start(this::acceptLoop);
    Thread.ofPlatform().daemon().name("mcb-port-reaper").start(this::reapLoop);
  }

  /** Connections open now: [authenticated, unauthenticated]. */
  int[] counts() {
    int a = 0, u = 0;
    for (Conn c : open) {
      if (c.authenticated) a++;
      else u++;
    }
    return new int[] {a, u};
  }

  /** Closes the oldest unauthenticated connection open at least EVICT_AFTER_MS; false when none is. */
  private boolean evictOldestUnauthenticated() {
    Conn oldest = null;
    for (Conn c : open) if (!c.authenticated && (oldest == null || c.opened - oldest.opened < 0)) oldest = c;
    if (oldest == null || System.nanoTime() - oldest.opened < EVICT_AFTER_MS * 1_000_000L) return false;
    open.remove(oldest);
    closeQuietly(oldest.socket);
    return true;
  }

  /** Closes unauthenticated connections past their header deadline (a read blocked on them ends). */
  private void reapLoop() {
    while (!closed) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.nanoTime();
      for (Conn c : open) {
        if (!c.authenticated && now - c.deadline > 0) closeQuietly(c.socket);
      }
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    for (Conn c : open) closeQuietly(c.socket);
  }

  private void acceptLoop() {
    while (!closed) {
      Socket s;
      try {
        s = server.accept();
      } catch (IOException e) {
        if (closed) return;
        continue;
      }
      if (counts()[1] >= MAX_UNAUTHENTICATED && !evictOldestUnauthenticated()) {
        try (s) {
          write(s.getOutputStream(), handler.overloaded("too many connections without a token; retry shortly", EVICT_AFTER_MS));
        } catch (IOException ignored) {
          // the client is gone
        }
        continue;
      }
      Conn c = new Conn(s);
      open.add(c);
      Thread.ofVirtual().name("mcb-port-conn").start(() -> serve(c));
    }
  }

  private void serve(Conn c) {
    Socket s = c.socket;
    try (s) {
      s.setTcpNoDelay(true);
      s.setSoTimeout(IDLE_TIMEOUT_MS);
      InputStream in = new BufferedInputStream(s.getInputStream(), 16 * 1024);
      OutputStream out = new BufferedOutputStream(s.getOutputStream(), 16 * 1024);
      while (!closed) {
        String line;
        try {
          line = readLine(in);
        } catch (LineTooLong e) {
          refuseAndClose(s, in, out, handler.malformed(414, "request line over " + MAX_LINE + " bytes"));
          return;
        }
        if (line == null) return; // the client closed the connection
        String[] parts = line.split(" ");
        if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
          write(out, handler.malformed(400, "malformed request line"));
          return;
        }
        Map<String, String> headers = new HashMap<>();
        for (int n = 0; ; n++) {
          String h;
          try {
            h = readLine(in);
          } catch (LineTooLong e) {
            refuseAndClose(s, in, out, handler.malformed(431, "a header line over " + MAX_LINE + " bytes"));
            return;
          }
          if (h == null) return;
          if (h.isEmpty()) break;
          int colon = h.indexOf(':');
          if (n >= MAX_HEADERS) {
            refuseAndClose(s, in, out, handler.malformed(431, "more than " + MAX_HEADERS + " headers"));
            return;
          }
          if (colon <= 0) {
            write(out, handler.malformed(400, "malformed header"));
            return;
          }
          headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
        }
        if (headers.containsKey("transfer-encoding")) {
          write(out, handler.malformed(411, "bodies need a Content-Length (no chunked encoding)"));
          return;
        }
        long length = 0;
        String cl = headers.get("content-length");
        if (cl != null) {
          try {
            length = Long.parseLong(cl);
          } catch (NumberFormatException e) {
            length = -1;
          }
          if (length < 0) {
            write(out, handler.malformed(400, "bad Content-Length"));
            return;
          }
        }
        String method = parts[0], path = parts[1];
        Admission admitted = handler.precheck(method, path, headers, length);
        Response refused = admitted.refusal();
        if (refused == null && admitted.authenticated() && !c.authenticated) {
          if (counts()[0] >= MAX_CONNECTIONS) refused = handler.overloaded("too many connections; retry shortly", 1_000);
          else c.authenticated = true;
        }
        if (refused == null && length > maxBody) refused = handler.malformed(413, "a body of " + length + " bytes exceeds " + maxBody);
        if (refused != null) {
          write(out, new Response(refused.status(), refused.body(), true));
          lingerClose(s, in, length);
          return;
        }
        byte[] body = in.readNBytes((int) length);
        if (body.length != length) return; // cut short
        Response r = handler.handle(new Request(method, path, headers, body));
        boolean close = r.close() || "close".equalsIgnoreCase(headers.get("connection")) || parts[2].equals("HTTP/1.0");
        write(out, new Response(r.status(), r.body(), close));
        if (close) return;
        c.deadline = System.nanoTime() + HEADER_TIMEOUT_MS * 1_000_000L;
      }
    } catch (SocketTimeoutException | SocketException e) {
      // idle or reset: the connection ends
    } catch (IOException e) {
      // the client is gone
    } finally {
      open.remove(c);
    }
  }

  /** Answers a request refused while its head was still arriving, then closes without a reset. */
  private static void refuseAndClose(Socket s, InputStream in, OutputStream out, Response r) throws IOException {
    write(out, new Response(r.status(), r.body(), true));
    lingerClose(s, in, 64 * 1024);
  }

  /**
   * After a refusal sent before the body was read: closing with unread input makes the kernel send
   * a reset that can destroy the response in flight. So the output is shut first and the unread
   * body (at most {@link #LINGER_BYTES}, for at most a second) is read and dropped, never handled.
   */
  private static void lingerClose(Socket s, InputStream in, long pending) {
    try {
      s.shutdownOutput();
      s.setSoTimeout(1000);
      long left = Math.min(pending, LINGER_BYTES);
      byte[] sink = new byte[8192];
      while (left > 0) {
        int n = in.read(sink, 0, (int) Math.min(sink.length, left));
        if (n < 0) break;
        left -= n;
      }
    } catch (IOException e) {
      // the client is gone or slow: close anyway
    }
  }

  private static final long LINGER_BYTES = 16L * 1024 * 1024;

  /** A request line or header line longer than {@link #MAX_LINE}. */
  private static final class LineTooLong extends IOException {
    private static final long serialVersionUID = 1L;

    LineTooLong() {
      super("line too long", null);
    }
  }

  /** A CRLF- (or LF-) terminated ISO-8859-1 line of at most MAX_LINE bytes; null at end of stream. */
  private static String readLine(InputStream in) throws IOException {
    byte[] buf = new byte[256];
    int n = 0;
    for (;;) {
      int b = in.read();
      if (b < 0) {
        if (n == 0) return null;
        throw new IOException("connection closed inside a line");
      }
      if (b == '\n') break;
      if (n == MAX_LINE) throw new LineTooLong();
      if (n == buf.length) buf = java.util.Arrays.copyOf(buf, Math.min(MAX_LINE, buf.length * 2));
      buf[n++] = (byte) b;
    }
    if (n > 0 && buf[n - 1] == '\r') n--;
    return new String(buf, 0, n, StandardCharsets.ISO_8859_1);
  }

  private static void write(OutputStream out, Response r) throws IOException {
    String head = "HTTP/1.1 " + r.status() + " " + reason(r.status()) + "\r\nContent-Type: application/json\r\nContent-Length: " + r.body().length
        + (r.close() ? "\r\nConnection: close" : "") + "\r\n\r\n";
    out.write(head.getBytes(StandardCharsets.ISO_8859_1));
    out.write(r.body());
    out.flush();
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 409 -> "Conflict";
      case 411 -> "Length Required";
      case 413 -> "Payload Too Large";
      case 414 -> "URI Too Long";
      case 431 -> "Request Header Fields Too Large";
      case 500 -> "Internal Server Error";
      default -> status == 503 ? "Service Unavailable" : "Status";
    };
  }
}
