package dev.mcb.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorldIdentityTest {
  @Test
  void aWorldFolderKeepsItsIdentityAndAnotherGetsItsOwn(@TempDir Path a, @TempDir Path b) throws Exception {
    WorldIdentity first = WorldIdentity.loadOrCreate(a);
    assertEquals(first, WorldIdentity.loadOrCreate(a));
    assertEquals(1, first.epoch());
    assertNotEquals(first.worldId(), WorldIdentity.loadOrCreate(b).worldId());
    // Restoring or replacing the world: the operator bumps the epoch, and old plans no longer apply.
    Files.writeString(a.resolve("mcb-world.json"), "{\"world_id\":\"" + first.worldId() + "\",\"epoch\":2}");
    assertEquals(2, WorldIdentity.loadOrCreate(a).epoch());
  }

  @Test
  void aCreatedTokenIsPrivateLongAndStable(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("port-token");
    String token = PortToken.resolve(null, file);
    assertTrue(token.matches("[0-9a-f]{64}"));
    assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE), Files.getPosixFilePermissions(file));
    assertEquals(token, PortToken.resolve(" ", file));
    assertEquals("from-the-environment-01", PortToken.resolve(" from-the-environment-01 ", file));
  }

  @Test
  void theTokenFileIsWhereTheSettingSays(@TempDir Path dir) throws Exception {
    // The Paper plugin's token-file: a path of the operator's choosing, folders created, an existing file read as it is.
    Path nested = dir.resolve("secrets/mcb/token");
    String token = PortToken.resolve(null, nested);
    assertEquals(token, Files.readString(nested));
    assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE), Files.getPosixFilePermissions(nested));
    Path given = dir.resolve("given");
    Files.writeString(given, "  from-a-file-0123456789\n");
    assertEquals("from-a-file-0123456789", PortToken.resolve(null, given));
  }
}
