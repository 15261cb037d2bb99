package dev.mcb.port;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/** The per-install secret: from a file, from MCB_PORT_TOKEN, or created (0600) in the world folder. */
public final class PortToken {
  private PortToken() {}

  /** {@code env}: the value of MCB_PORT_TOKEN (null when unset). */
  public static String resolve(Path tokenFile, String env, Path worldDir) throws IOException {
    if (tokenFile != null) return Files.readString(tokenFile).strip();
    if (env != null && !env.isBlank()) return env.strip();
    Path file = worldDir.resolve("port-token");
    if (Files.exists(file)) return Files.readString(file).strip();
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    String token = HexFormat.of().formatHex(b);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, token);
    return token;
  }
}
