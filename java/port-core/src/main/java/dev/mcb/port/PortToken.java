package dev.mcb.port;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The per-install secret every request carries: MCB_PORT_TOKEN when it is set, else the token file's
 * (the Minestom host's {@code <world>/port-token}, the Paper plugin's {@code token-file} setting),
 * the file created with a new random token (mode 0600, its folders too) when it is missing.
 */
public final class PortToken {
  private PortToken() {}

  /** {@code env}: the value of MCB_PORT_TOKEN (null or blank: unset); {@code file}: where the token is kept. */
  public static String resolve(String env, Path file) throws IOException {
    if (env != null && !env.isBlank()) return env.strip();
    if (Files.exists(file)) return Files.readString(file).strip();
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    String token = HexFormat.of().formatHex(b);
    if (file.getParent() != null) Files.createDirectories(file.getParent());
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, token);
    return token;
  }
}
