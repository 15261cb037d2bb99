package dev.mcb.port;

/**
 * A host that saves its world files on request (capability {@code saved_writes}): the port's
 * {@code flush} method and the host's autosave call it, on the game thread, with the
 * {@link SaveLedger} marks around it.
 */
public interface Persistence {
  /**
   * Writes every chunk changed by the port since the last save to the world files and returns
   * when they are written. Returns the number of chunks saved.
   */
  int saveWritten();
}
