package dev.mcb.port;

import java.util.concurrent.Semaphore;

/** A game thread that drains on every wake from its own thread, one tick per drain. */
final class AutoGame implements GameThread {
  private final Semaphore woken = new Semaphore(0);
  private volatile long tick;
  volatile boolean paused;
  TickScheduler scheduler;

  void start(TickScheduler s) {
    scheduler = s;
    Thread t = new Thread(() -> {
      while (true) {
        woken.acquireUninterruptibly();
        if (paused) continue;
        tick++;
        while (s.drain()) tick++;
      }
    }, "auto-game");
    t.setDaemon(true);
    t.start();
  }

  void resume() {
    paused = false;
    woken.release();
  }

  @Override
  public void wake() {
    woken.release();
  }

  @Override
  public long tick() {
    return tick;
  }
}
