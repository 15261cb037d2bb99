package dev.mcb.port.minestom;

import dev.mcb.port.Digests;
import dev.mcb.port.EventLog;
import dev.mcb.port.Json;
import dev.mcb.port.Port;
import dev.mcb.port.PortError;
import dev.mcb.port.TickScheduler;
import dev.mcb.port.WorldFacts;
import com.google.gson.JsonObject;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The tests' hook {@code test_edit} (only in the tests' sources, packaged as
 * mcb-port-minestom-tests.jar): an edit from outside the engine, on the game thread, recorded in
 * the port's event log as a player's edit is, or not ({@code "event": false}: an edit the host
 * missed). Parameters {@code {x, y, z, state, event?}}; result {@code {}}.
 */
final class TestEdit {
  private TestEdit() {}

  static void install(Port port, MinestomWorld world, TickScheduler scheduler, EventLog events) {
    port.addMethod("test_edit", p -> {
      Json.onlyKeys(p, "", Set.of("x", "y", "z", "state", "event"));
      int x = Json.integer(p, "x", ""), y = Json.integer(p, "y", ""), z = Json.integer(p, "z", "");
      String state = Json.string(p, "state", "", Port.MAX_STATE, false);
      boolean event = Json.bool(p, "event", "", true);
      TickScheduler.Job<Void> job = scheduler.submit(() -> {
        WorldFacts f = world.facts();
        if (y < f.minY() || y > f.maxY() || !world.isLoaded(x, z))
          throw new PortError(PortError.Code.OUT_OF_BOUNDS, "test_edit: " + x + "," + y + "," + z + " is not in a loaded chunk inside the build height", Map.of());
        String why = world.checkState(state);
        if (why != null) throw new PortError(PortError.Code.UNSUPPORTED_BLOCK, why, Map.of("path", "state"));
        world.set(x, y, z, state, null);
        world.endOfJob();
        String now = world.stateAt(x, y, z);
        if (event) events.record(x, y, z, now, Digests.at(world, now, x, y, z));
        return null;
      });
      try {
        job.result().get(10, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof PortError pe) throw pe;
        throw new IllegalStateException(e.getCause());
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      return new JsonObject();
    });
  }
}
