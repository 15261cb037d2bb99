package dev.mcb.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EventLogTest {
  @Test
  void listsEditsAfterACursorAndReportsGaps() {
    EventLog log = new EventLog(3);
    String start = log.after(null).cursor();
    log.record(1, 64, 0, "minecraft:stone", null);
    EventLog.Page p = log.after(start);
    assertFalse(p.gap());
    assertEquals(1, p.events().size());
    assertEquals("minecraft:stone", p.events().get(0).state());
    assertEquals(0, log.after(p.cursor()).events().size());
    for (int i = 0; i < 4; i++) log.record(i, 64, 1, "minecraft:dirt", null);
    assertTrue(log.after(p.cursor()).gap(), "4 edits since the cursor, 3 retained: continuity lost");
    assertTrue(new EventLog(3).after(p.cursor()).gap(), "a cursor of another session (a restarted server)");
    assertTrue(log.after("garbage").gap());
    assertTrue(log.after(p.cursor().replaceAll(":\\d+$", ":999")).gap(), "a cursor past the head");
  }
}
