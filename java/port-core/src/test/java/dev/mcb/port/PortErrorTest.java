package dev.mcb.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortErrorTest {
  /** The codes the engine knows (docs/DESIGN.md "Errors"). */
  private static final Set<String> WIRE = Set.of("permission_denied", "out_of_bounds", "unsupported_block", "stale_snapshot", "conflict", "budget_exceeded", "busy",
      "resync_required", "camera_unavailable", "capture_not_ready", "version_mismatch", "recovery_required", "invalid_request", "not_found");

  @Test
  void everyCodeIsAWireCodeAndRetryableExactlyWhenItsStatusSaysTryAgain() {
    for (PortError.Code c : PortError.Code.values()) {
      assertTrue(WIRE.contains(c.wire()), c + " has an unknown wire code " + c.wire());
      assertEquals(c.httpStatus() == 409 || c.httpStatus() == 503, c.retryable(), c + ": retryable must match its status " + c.httpStatus());
      assertTrue(c.httpStatus() >= 400 && c.httpStatus() < 600, c + " is not an error status");
    }
  }

  @Test
  void anErrorTakesWireCodeRetryableAndStatusFromItsCode() {
    PortError e = new PortError(PortError.Code.CHUNK_NOT_LOADED, "chunk 1,2 is not loaded", Map.of("reason", "chunk_not_loaded"));
    assertEquals("out_of_bounds", e.code());
    assertTrue(e.retryable());
    assertEquals(409, e.httpStatus());
    assertEquals(Map.of("reason", "chunk_not_loaded"), e.details());
    PortError failed = new PortError(PortError.Code.FAILED, "the host failed");
    assertEquals(Map.of(), failed.details());
    assertEquals(500, failed.httpStatus());
  }
}
