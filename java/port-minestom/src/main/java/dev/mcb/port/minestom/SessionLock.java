package dev.mcb.port.minestom;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The world folder's {@code session.lock}, held for the life of the process as the game does (an
 * exclusive file lock; the file holds a snowman, as the game writes it), so two servers never run on
 * one world. The operating system releases it when the process ends, even after kill -9.
 */
final class SessionLock {
  private static FileChannel channel; // kept open (and referenced) for the life of the process
  private static FileLock lock;

  private SessionLock() {}

  /** Takes the lock; an {@link IllegalStateException} names the folder when another process holds it. */
  static synchronized void acquire(Path worldDir) throws IOException {
    Files.createDirectories(worldDir);
    Path file = worldDir.resolve("session.lock");
    FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock l;
    try {
      l = c.tryLock();
    } catch (OverlappingFileLockException e) {
      l = null;
    }
    if (l == null) {
      c.close();
      throw new IllegalStateException("the world " + worldDir.toAbsolutePath() + " is in use by another server (its session.lock is held); stop that one first");
    }
    c.truncate(0);
    c.write(ByteBuffer.wrap("\u2603".getBytes(StandardCharsets.UTF_8)), 0);
    c.force(false);
    channel = c;
    lock = l;
  }

  static synchronized boolean held() {
    return lock != null && lock.isValid() && channel.isOpen();
  }
}
