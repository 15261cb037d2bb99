package dev.mcb.port;

import java.util.Map;

/**
 * A structured refusal, as every port response carries it: {@code {code, message, retryable, details}}
 * (codes as in docs/DESIGN.md "Errors"). Thrown inside the port and turned into an HTTP error body;
 * the request that raised it changed nothing unless {@code details} says otherwise. The {@link Code}
 * decides the wire code, whether a retry can succeed and the HTTP status, once for every place.
 */
public final class PortError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Each kind of refusal: its wire code, whether repeating the request can succeed, its HTTP status. */
  public enum Code {
    INVALID_REQUEST("invalid_request", false, 400),
    /** The route exists, the HTTP method does not (GET for methods, POST for /health). */
    METHOD_NOT_ALLOWED("invalid_request", false, 405),
    /** A body without a Content-Length (chunked encoding is not accepted). */
    LENGTH_REQUIRED("invalid_request", false, 411),
    /** A request line over 8 KiB. */
    URI_TOO_LONG("invalid_request", false, 414),
    /** A header line over 8 KiB, or more than 64 headers. */
    HEADERS_TOO_LARGE("invalid_request", false, 431),
    NOT_FOUND("not_found", false, 404),
    PERMISSION_DENIED("permission_denied", false, 401),
    UNSUPPORTED_BLOCK("unsupported_block", false, 400),
    OUT_OF_BOUNDS("out_of_bounds", false, 400),
    /** Outside what is loaded now: the same request can succeed once the chunk is loaded. */
    CHUNK_NOT_LOADED("out_of_bounds", true, 409),
    BUDGET_EXCEEDED("budget_exceeded", false, 413),
    /** The port or host is saturated: try again shortly. */
    BUSY("busy", true, 503),
    /** The port or the host failed on this request (a bug, logged): repeating it would fail again. */
    FAILED("busy", false, 500);

    private final String wire;
    private final boolean retryable;
    private final int httpStatus;

    Code(String wire, boolean retryable, int httpStatus) {
      this.wire = wire;
      this.retryable = retryable;
      this.httpStatus = httpStatus;
    }

    public String wire() { return wire; }
    public boolean retryable() { return retryable; }
    public int httpStatus() { return httpStatus; }
  }

  private final Code code;
  private final Map<String, Object> details;

  public PortError(Code code, String message, Map<String, Object> details) {
    this(code, message, details, null);
  }

  /** With the exception that caused it (a host failure), kept for the log, never sent. */
  public PortError(Code code, String message, Map<String, Object> details, Throwable cause) {
    super(message, cause, false, false);
    this.code = code;
    this.details = details == null ? Map.of() : Map.copyOf(details);
  }

  public PortError(Code code, String message) {
    this(code, message, Map.of());
  }

  public static PortError invalid(String message, String path) {
    return new PortError(Code.INVALID_REQUEST, message, path == null ? Map.of() : Map.of("path", path));
  }

  public static PortError invalid(String message, Map<String, Object> details) {
    return new PortError(Code.INVALID_REQUEST, message, details);
  }

  public static PortError tooLarge(String message, String limit, long max) {
    return new PortError(Code.BUDGET_EXCEEDED, message, Map.of("limit", limit, "max", max));
  }

  public static PortError busy(String message, String reason) {
    return new PortError(Code.BUSY, message, Map.of("reason", reason));
  }

  /** The wire code ("invalid_request", "busy", …). */
  public String code() { return code.wire(); }
  public Code kind() { return code; }
  public boolean retryable() { return code.retryable(); }
  public int httpStatus() { return code.httpStatus(); }
  public Map<String, Object> details() { return details; }
}
