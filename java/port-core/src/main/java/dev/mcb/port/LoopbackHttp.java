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
 * bounded request lines and headers, an idle timeout, a connection limit. A request refused before
 * its body is read closes the connection.
 */
final class LoopbackHttp implements AutoCloseable {
  record Request(String method, String path, Map<String, String> headers, byte[] body) {}

  record Response(int status, byte[] body, boolean close) {}

  interface Handler {
    /** Before the body is read: a response refuses the request (and closes the connection). */
    Response precheck(String method, String path, Map<String, String> headers, long contentLength);

    Response handle(Request request);

    /** A response for a malformed request (bad framing), then the connection closes. */
    Response malformed(int status, String message);
  }

  static final int MAX_LINE = 8 * 1024;
  static final int MAX_HEADERS = 64;
  static final int MAX_CONNECTIONS = 32;
  static final int IDLE_TIMEOUT_MS = 30_000;

  private final ServerSocket server;
  private final Handler handler;
  private final long maxBody;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
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
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    for (Socket s : open) {
      try {
        s.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
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
      if (open.size() >= MAX_CONNECTIONS) {
        try (s) {
          write(s.getOutputStream(), handler.malformed(503, "too many connections"));
        } catch (IOException ignored) {
          // the client is gone
        }
        continue;
      }
      open.add(s);
      Thread.ofVirtual().name("mcb-port-conn").start(() -> serve(s));
    }
  }

  private void serve(Socket s) {
    try (s) {
      s.setTcpNoDelay(true);
      s.setSoTimeout(IDLE_TIMEOUT_MS);
      InputStream in = new BufferedInputStream(s.getInputStream(), 16 * 1024);
      OutputStream out = new BufferedOutputStream(s.getOutputStream(), 16 * 1024);
      while (!closed) {
        String line = readLine(in);
        if (line == null) return; // the client closed the connection
        String[] parts = line.split(" ");
        if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
          write(out, handler.malformed(400, "malformed request line"));
          return;
        }
        Map<String, String> headers = new HashMap<>();
        for (int n = 0; ; n++) {
          String h = readLine(in);
          if (h == null) return;
          if (h.isEmpty()) break;
          int colon = h.indexOf(':');
          if (colon <= 0 || n >= MAX_HEADERS) {
            write(out, handler.malformed(400, colon <= 0 ? "malformed header" : "too many headers"));
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
        Response refused = handler.precheck(method, path, headers, length);
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
      }
    } catch (SocketTimeoutException | SocketException e) {
      // idle or reset: the connection ends
    } catch (IOException e) {
      // the client is gone
    } finally {
      open.remove(s);
    }
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
      if (n == MAX_LINE) throw new IOException("line too long");
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
      case 500 -> "Internal Server Error";
      default -> status == 503 ? "Service Unavailable" : "Status";
    };
  }
}
