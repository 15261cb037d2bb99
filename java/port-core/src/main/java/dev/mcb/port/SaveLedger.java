package dev.mcb.port;

import java.util.UUID;

/**
 * Which of the port's writes are on disk. Every compare-and-set that wrote gets the next write
 * sequence number; {@code savedThrough} is the highest number whose writes, and every earlier
 * one's, a completed save wrote to the world files. Both count within one host session (a random
 * id per process): after a crash the new session starts at 0, and the engine compares what it was
 * told before against the world it finds.
 *
 * <p>The host calls {@link #beginSave()} and {@link #saved(long)} around a save that runs exclusive
 * of port jobs (on the game thread), so every write numbered up to the value {@code beginSave}
 * returned is in the chunks that save writes.
 */
public final class SaveLedger {
  private final String session;
  private long writeSeq;
  private long savedThrough;

  public SaveLedger() {
    this(UUID.randomUUID().toString());
  }

  SaveLedger(String session) {
    this.session = session;
  }

  public String session() {
    return session;
  }

  /** After a compare-and-set that wrote at least one block: its sequence number. */
  public synchronized long recordWrite() {
    return ++writeSeq;
  }

  public synchronized long writeSeq() {
    return writeSeq;
  }

  public synchronized long savedThrough() {
    return savedThrough;
  }

  /** At the start of a save: every write numbered up to the result is in what the save writes. */
  public synchronized long beginSave() {
    return writeSeq;
  }

  /** After that save completed: writes up to {@code upTo} are on disk. Never moves back. */
  public synchronized void saved(long upTo) {
    if (upTo > writeSeq) throw new IllegalArgumentException("saved through " + upTo + " but only " + writeSeq + " writes were made");
    if (upTo > savedThrough) savedThrough = upTo;
  }
}
