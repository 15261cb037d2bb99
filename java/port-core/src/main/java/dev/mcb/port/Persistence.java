package dev.mcb.port;

/**
 * A host that saves its world files on request (capability {@code saved_writes}). A save has two
 * halves so that the game thread never waits for a disk: {@link #begin()} and
 * {@link Pass#copy(long)} run as port jobs on the game thread (exclusive of compare-and-set slices)
 * and copy what the chunks changed since the last save hold; {@link Pass#write()} runs on the
 * port's saver thread and writes those copies to the world files. {@link Saves} drives both and
 * moves the {@link SaveLedger} marks around them.
 */
public interface Persistence {
  /** On the game thread: takes the set of chunks changed since the last save (later changes go to the next save). */
  Pass begin();

  /** One save: the chunks it took, copied a budget at a time, then written. */
  interface Pass {
    /**
     * On the game thread: copies chunks of this pass until about {@code budgetNanos} have been
     * spent (at least one). True when chunks remain to copy (call again in a later job).
     */
    boolean copy(long budgetNanos);

    /** On the saver thread, after every copy: writes the copies to the world files; the number of chunks written. */
    int write();

    /**
     * The pass failed (a copy job not taken in time, a write that threw): every chunk it took counts
     * as changed again, so the next save writes it. Any thread.
     */
    void abandon();
  }
}
