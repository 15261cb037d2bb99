package dev.mcb.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class CompareAndSetTest {
  private static CasRequest.Write w(int x, String before, String after) {
    return new CasRequest.Write(x, 64, 0, before, null, after, null);
  }

  @Test
  void writesEveryGroupWhoseBeforeMatches() {
    MapWorld world = new MapWorld();
    CasResult r = new CompareAndSet().run(world, CompareAndSet.prepare(world, new CasRequest(List.of(), List.of(w(0, "minecraft:air", "minecraft:stone"), w(1, "minecraft:air", "minecraft:dirt")), new int[] {1, 2})));
    assertEquals(2, r.written());
    assertTrue(r.mismatches().isEmpty());
    assertEquals("minecraft:stone", world.stateAt(0, 64, 0));
    assertEquals("minecraft:dirt", world.stateAt(1, 64, 0));
  }

  /** A host that keeps blocks as numbers (as Minestom does), where a state string without its properties parses to the default state's number. */
  static final class NumberedWorld extends MapWorld implements StateNumbers {
    final List<String> byNumber = List.of("minecraft:air", "minecraft:oak_log[axis=y]", "minecraft:stone");
    int numberWrites;

    @Override
    public int stateNumber(String state) {
      return byNumber.indexOf(state.equals("minecraft:oak_log") ? "minecraft:oak_log[axis=y]" : state);
    }

    @Override
    public String stateOfId(int id) {
      return byNumber.get(id);
    }

    @Override
    public int numberAt(int x, int y, int z) {
      return byNumber.indexOf(stateAt(x, y, z));
    }

    @Override
    public void setNumber(int x, int y, int z, int number) {
      numberWrites++;
      set(x, y, z, byNumber.get(number), null);
    }

    @Override
    public boolean readIds(RegionRead.Box box, int[] ids) {
      return false; // reads go position by position
    }
  }

  @Test
  void numbersDecideExactlyAsStringsWould() {
    NumberedWorld world = new NumberedWorld();
    world.set(0, 64, 0, "minecraft:oak_log[axis=y]", null);
    world.set(1, 64, 0, "minecraft:oak_log[axis=y]", null);
    // Write 0 names its base exactly: compared and written as numbers. Write 1 names it without its
    // properties, which parses to the same number but is not the state there: a mismatch, as a string comparison says.
    CasResult r = new CompareAndSet().run(world, CompareAndSet.prepare(world, new CasRequest(List.of(),
        List.of(w(0, "minecraft:oak_log[axis=y]", "minecraft:stone"), w(1, "minecraft:oak_log", "minecraft:stone")), new int[] {1, 2})));
    assertEquals(1, r.written());
    assertEquals(1, world.numberWrites);
    assertEquals(List.of("write:1"), r.mismatches().stream().map(m -> m.kind() + ":" + m.index()).toList());
    assertEquals("minecraft:oak_log[axis=y]", world.stateAt(1, 64, 0));
  }

  @Test
  void aFailingCheckWritesNothing() {
    MapWorld world = new MapWorld();
    world.set(5, 64, 0, "minecraft:glass", null);
    world.sets = 0;
    CasRequest req = new CasRequest(List.of(new CasRequest.Check(5, 64, 0, "minecraft:stone", null)), List.of(w(0, "minecraft:air", "minecraft:stone")), new int[] {1});
    CasResult r = new CompareAndSet().run(world, CompareAndSet.prepare(world, req));
    assertEquals(0, r.written());
    assertEquals(1, r.mismatches().size());
    assertEquals("check", r.mismatches().get(0).kind());
    assertEquals("minecraft:glass", r.mismatches().get(0).actual());
    assertEquals(0, world.sets);
  }

  @Test
  void theFirstFailingGroupStopsTheSliceAndNothingAfterItIsWritten() {
    MapWorld world = new MapWorld();
    world.set(2, 64, 0, "minecraft:glass", null); // a player's edit
    world.sets = 0;
    CasRequest req = new CasRequest(List.of(), List.of(
        w(0, "minecraft:air", "minecraft:stone"), w(1, "minecraft:air", "minecraft:stone"), // group 1
        w(2, "minecraft:air", "minecraft:stone"), w(3, "minecraft:air", "minecraft:stone"), // group 2: fails on x=2
        w(4, "minecraft:air", "minecraft:stone")), new int[] {2, 4, 5});
    CasResult r = new CompareAndSet().run(world, CompareAndSet.prepare(world, req));
    assertEquals(2, r.written());
    assertEquals(List.of(2), r.mismatches().stream().map(CasResult.Mismatch::index).toList());
    assertEquals("minecraft:air", world.stateAt(3, 64, 0), "a group is all or nothing");
    assertEquals("minecraft:air", world.stateAt(4, 64, 0), "nothing after the failing group");
    assertEquals("minecraft:glass", world.stateAt(2, 64, 0), "the player's block stays");
    assertEquals(2, world.sets);
  }

  @Test
  void thePlantedBugWritesPastTheFailingGroup() {
    MapWorld world = new MapWorld();
    world.set(1, 64, 0, "minecraft:glass", null);
    CasRequest req = new CasRequest(List.of(), List.of(w(0, "minecraft:air", "minecraft:stone"), w(1, "minecraft:air", "minecraft:stone"), w(2, "minecraft:air", "minecraft:stone")), new int[] {1, 2, 3});
    CasResult r = new CompareAndSet() {
      @Override
      protected boolean stopsAtFailingGroup() {
        return false; // the planted bug (the live suite's host: PlantedBugHost)
      }
    }.run(world, CompareAndSet.prepare(world, req));
    assertEquals(1, r.written());
    assertEquals("minecraft:stone", world.stateAt(2, 64, 0));
  }

  @Test
  void digestsGuardBlockEntitiesAndNewOnesReportTheirDigest() {
    MapWorld world = new MapWorld();
    byte[] full = {10, 0, 0, 1, 0, 1, 'a', 7, 0};
    world.set(0, 64, 0, "minecraft:chest[facing=north,type=single,waterlogged=false]", full);
    String digest = Digests.sha256(full);
    // A write that expects the empty chest's digest is a mismatch on the full chest.
    CasRequest wrong = new CasRequest(List.of(), List.of(new CasRequest.Write(0, 64, 0, "minecraft:chest[facing=north,type=single,waterlogged=false]", Digests.sha256(MapWorld.EMPTY), "minecraft:air", null)), new int[] {1});
    CasResult r = new CompareAndSet().run(world, CompareAndSet.prepare(world, wrong));
    assertEquals(0, r.written());
    assertEquals(digest, r.mismatches().get(0).actualDigest());
    // A new chest with data reports the digest of exactly those bytes.
    CasRequest put = new CasRequest(List.of(), List.of(new CasRequest.Write(1, 64, 0, "minecraft:air", null, "minecraft:chest[facing=north,type=single,waterlogged=false]", full)), new int[] {1});
    CasResult r2 = new CompareAndSet().run(world, CompareAndSet.prepare(world, put));
    assertEquals(digest, r2.entityDigests().get(0));
    assertNull(Digests.at(world, world.stateAt(2, 64, 0), 2, 64, 0));
  }

  @Test
  void unloadedChunksAndPositionsOutsideTheHeightAreRefusedBeforeAnyWrite() {
    MapWorld world = new MapWorld();
    CasRequest far = new CasRequest(List.of(), List.of(w(0, "minecraft:air", "minecraft:stone"), new CasRequest.Write(500, 64, 0, "minecraft:air", null, "minecraft:stone", null)), new int[] {1, 2});
    PortError e = assertThrows(PortError.class, () -> new CompareAndSet().run(world, CompareAndSet.prepare(world, far)));
    assertEquals("out_of_bounds", e.code());
    assertEquals("chunk_not_loaded", e.details().get("reason"));
    CasRequest high = new CasRequest(List.of(), List.of(new CasRequest.Write(0, 400, 0, "minecraft:air", null, "minecraft:stone", null)), new int[] {1});
    assertEquals("out_of_bounds", assertThrows(PortError.class, () -> new CompareAndSet().run(world, CompareAndSet.prepare(world, high))).code());
    assertEquals(0, world.sets);
  }
}
