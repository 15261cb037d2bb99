package dev.mcb.port;

import java.util.Map;

/**
 * A structured refusal, as every port response carries it: {@code {code, message, retryable, details}}
 * with a code from DESIGN §14. Thrown inside the port and turned into an HTTP error body; the request
 * that raised it changed nothing unless {@code details} says otherwise.
 */
public final class PortError extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String code;
  private final boolean retryable;
  private final int httpStatus;
  private final Map<String, Object> details;

  public PortError(String code, String message, boolean retryable, int httpStatus, Map<String, Object> details) {
    super(message, null, false, false);
    this.code = code;
    this.retryable = retryable;
    this.httpStatus = httpStatus;
    this.details = details == null ? Map.of() : Map.copyOf(details);
  }

  public static PortError invalid(String message, String path) {
    return new PortError("invalid_request", message, false, 400, path == null ? Map.of() : Map.of("path", path));
  }

  public static PortError invalid(String message, Map<String, Object> details) {
    return new PortError("invalid_request", message, false, 400, details);
  }

  public static PortError tooLarge(String message, String limit, long max) {
    return new PortError("budget_exceeded", message, false, 413, Map.of("limit", limit, "max", max));
  }

  public static PortError busy(String message, String reason) {
    return new PortError("busy", message, true, 503, Map.of("reason", reason));
  }

  public String code() { return code; }
  public boolean retryable() { return retryable; }
  public int httpStatus() { return httpStatus; }
  public Map<String, Object> details() { return details; }
}
