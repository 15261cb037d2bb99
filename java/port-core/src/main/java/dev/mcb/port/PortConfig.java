package dev.mcb.port;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The port's settings. The bind address must be a loopback address (a remote bridge uses an SSH
 * tunnel); the token is the per-install secret every request must carry.
 */
public record PortConfig(
    String bindHost,
    int port,
    String token,
    long budgetNanos,
    int maxBodyBytes,
    long jobTimeoutMillis,
    int eventRetention) {

  public static final int MIN_TOKEN_LENGTH = 16;

  public PortConfig {
    if (token == null || token.length() < MIN_TOKEN_LENGTH) throw new IllegalArgumentException("the port token must have at least " + MIN_TOKEN_LENGTH + " characters");
    if (port < 0 || port > 65535) throw new IllegalArgumentException("port out of range: " + port);
    if (budgetNanos <= 0) throw new IllegalArgumentException("the tick budget must be positive");
  }

  public static PortConfig defaults(String token, int port) {
    return new PortConfig("127.0.0.1", port, token, 5_000_000L, 8 << 20, 10_000, 16_384);
  }

  /** Resolves the bind address, refusing anything that is not loopback. */
  public InetAddress bindAddress() {
    InetAddress a;
    try {
      a = InetAddress.getByName(bindHost);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("unknown bind address " + bindHost, e);
    }
    if (!a.isLoopbackAddress()) throw new IllegalArgumentException("the port binds to loopback only, not " + bindHost);
    return a;
  }

  public PortConfig withBudgetNanos(long nanos) {
    return new PortConfig(bindHost, port, token, nanos, maxBodyBytes, jobTimeoutMillis, eventRetention);
  }
}
