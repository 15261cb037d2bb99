package dev.mcb.port.minestom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HostOptionsTest {
  @Test
  void helpAndDefaults() {
    assertTrue(HostOptions.parse(new String[] {"--help"}).help());
    HostOptions o = HostOptions.parse(new String[] {});
    assertEquals(8765, o.httpPort());
    assertEquals("info", o.logLevel());
    assertTrue(HostOptions.USAGE.contains("--log-level"));
  }

  @Test
  void badValuesNameTheOptionWithoutAStackTrace() {
    String[][] bad = {
      {"--http-port", "99999"}, {"--game-port", "x"}, {"--budget-ms", "fast"}, {"--log-level", "loud"}, {"--planted-bug", "cas-write-past-failing-group"},
      {"--frob"}, {"--world"},
    };
    String[] expected = {"--http-port", "--game-port", "--budget-ms", "--log-level", "--planted-bug", "--frob", "--world"};
    for (int i = 0; i < bad.length; i++) {
      String[] args = bad[i];
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HostOptions.parse(args));
      assertTrue(e.getMessage().contains(expected[i]), e.getMessage());
    }
  }
}
