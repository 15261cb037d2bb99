package dev.mcb.port;

/** A game thread the test ticks by hand. */
final class ManualGame implements GameThread {
  long tick;
  int wakes;

  @Override
  public void wake() {
    wakes++;
  }

  @Override
  public long tick() {
    return tick;
  }
}
