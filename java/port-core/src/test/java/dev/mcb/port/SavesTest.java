package dev.mcb.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Saves off the game thread: copies in budget-sized game-thread jobs, writes on the saver thread, the saved mark exact. */
class SavesTest {
  /** A host whose "chunks" are single positions: a pass copies one per job, then the saver thread writes them (slowly). */
  static final class Files implements Persistence {
    final MapWorld world;
    final Map<String, String> disk = new HashMap<>();
    final AtomicInteger copyJobs = new AtomicInteger();
    final List<String> writerThreads = new ArrayList<>();
    CountDownLatch writing = new CountDownLatch(0);

    Files(MapWorld world) {
      this.world = world;
    }

    @Override
    public Pass begin() {
      ArrayDeque<String> keys = new ArrayDeque<>(world.states.keySet());
      Map<String, String> copies = new HashMap<>();
      return new Pass() {
        @Override
        public boolean copy(long budgetNanos) {
          copyJobs.incrementAndGet();
          String k = keys.poll();
          if (k != null) copies.put(k, world.states.get(k));
          return !keys.isEmpty();
        }

        @Override
        public void abandon() {}

        @Override
        public int write() {
          writerThreads.add(Thread.currentThread().getName());
          try {
            writing.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          disk.putAll(copies);
          return copies.size();
        }
      };
    }
  }

  /** A host that tracks changed "chunks" (positions) like the Minestom host, and whose next write can fail. */
  static final class FailingFiles implements Persistence {
    final MapWorld world;
    final java.util.Set<String> dirty = new java.util.HashSet<>();
    final Map<String, String> disk = new HashMap<>();
    boolean failNext;

    FailingFiles(MapWorld world) {
      this.world = world;
    }

    @Override
    public Pass begin() {
      java.util.Set<String> taken = new java.util.HashSet<>(dirty);
      dirty.clear();
      Map<String, String> copies = new HashMap<>();
      return new Pass() {
        @Override
        public boolean copy(long budgetNanos) {
          for (String k : taken) copies.put(k, world.states.get(k));
          return false;
        }

        @Override
        public int write() {
          if (failNext) {
            failNext = false;
            throw new IllegalStateException("disk full");
          }
          disk.putAll(copies);
          return copies.size();
        }

        @Override
        public void abandon() {
          synchronized (FailingFiles.this) {
            dirty.addAll(taken);
          }
        }
      };
    }
  }

  /** A port with saved writes over a world, its files and ledger, drained by a game thread of its own. */
  static Port portWith(MapWorld world, Persistence files, SaveLedger ledger) {
    AutoGame game = new AutoGame();
    PortConfig config = new PortConfig("127.0.0.1", 0, "test-token-0123456789", 5_000_000, 1 << 20, 2000, 100);
    TickScheduler scheduler = new TickScheduler(game, config.budgetNanos(), 64, System::nanoTime, new TickStats(10));
    game.start(scheduler);
    return new Port(world, scheduler, new EventLog(10), new ChatQueue(4), (p, t) -> false, new TickStats(10), config, ledger, files);
  }

  @Test
  void aSaveThatFailsClaimsNothingAndItsChunksGoIntoTheNextOne() throws Exception {
    MapWorld world = new MapWorld();
    FailingFiles files = new FailingFiles(world);
    SaveLedger ledger = new SaveLedger();
    Port port = portWith(world, files, ledger);
    try {
      for (int x = 0; x < 5; x++) {
        world.set(x, 64, 0, "minecraft:stone", null);
        files.dirty.add(x + ",64,0");
        ledger.recordWrite();
      }
      files.failNext = true;
      java.util.concurrent.ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(java.util.concurrent.ExecutionException.class, () -> port.save().get());
      assertTrue(failed.getCause().getMessage().contains("disk full"));
      assertEquals(0, ledger.savedThrough()); // nothing of the failed pass counts as saved
      world.set(9, 64, 0, "minecraft:stone", null);
      files.dirty.add("9,64,0");
      ledger.recordWrite();
      assertEquals(6, port.save().get().savedThrough());
      assertEquals(6, files.disk.size()); // the five the failed pass took, and the new one: what the mark covers is on disk
    } finally {
      port.close();
    }
  }

  @Test
  void aSaveCopiesAChunkAJobWritesOnTheSaverThreadAndMarksOnlyWhatItCopied() throws Exception {
    MapWorld world = new MapWorld();
    Files files = new Files(world);
    SaveLedger ledger = new SaveLedger();
    Port port = portWith(world, files, ledger);
    try {
      for (int x = 0; x < 5; x++) {
        world.set(x, 64, 0, "minecraft:stone", null);
        ledger.recordWrite();
      }
      files.writing = new CountDownLatch(1);
      var pass = port.save();
      // While the saver thread writes, the game goes on: a write made now is not claimed by this save.
      while (files.writerThreads.isEmpty()) Thread.sleep(5);
      assertEquals(5, files.copyJobs.get()); // five chunks, a game-thread job each
      world.set(9, 64, 0, "minecraft:stone", null);
      long late = ledger.recordWrite();
      assertEquals(0, ledger.savedThrough()); // not on disk yet
      files.writing.countDown();
      Saves.Done done = pass.get();
      assertEquals(5, done.savedThrough());
      assertEquals(5, done.chunks());
      assertEquals(List.of("mcb-port-saver"), files.writerThreads);
      assertTrue(late > ledger.savedThrough());
      assertEquals(5, files.disk.size());
      assertEquals(6, port.save().get().savedThrough()); // the next save covers it
    } finally {
      files.writing.countDown();
      port.close();
    }
  }
}
