package dev.mcb.port.minestom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The world's session.lock (a second process is refused too: see property-tests' LivePortSafety). */
class SessionLockTest {
  @Test
  void holdsTheWorldsSessionLockAndRefusesASecondHolder(@TempDir Path dir) throws Exception {
    Path world = dir.resolve("world");
    SessionLock.acquire(world);
    assertTrue(SessionLock.held());
    assertEquals("\u2603", Files.readString(world.resolve("session.lock"), StandardCharsets.UTF_8)); // as the game writes it
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> SessionLock.acquire(world));
    assertTrue(e.getMessage().contains("in use by another server"), e.getMessage());
    assertTrue(e.getMessage().contains(world.toAbsolutePath().toString()));
  }
}
