package dev.mcb.port;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SaveLedgerTest {
  @Test
  void numbersWritesAndMovesTheSavedMarkOnlyForward() {
    SaveLedger l = new SaveLedger();
    assertEquals(0, l.writeSeq());
    assertEquals(1, l.recordWrite());
    assertEquals(2, l.recordWrite());
    long upTo = l.beginSave();
    assertEquals(3, l.recordWrite()); // made while the save ran: not covered by it
    l.saved(upTo);
    assertEquals(2, l.savedThrough());
    l.saved(1); // an older save finishing late never moves the mark back
    assertEquals(2, l.savedThrough());
    assertThrows(IllegalArgumentException.class, () -> l.saved(4));
  }

  @Test
  void eachProcessHasItsOwnSession() {
    assertNotEquals(new SaveLedger().session(), new SaveLedger().session());
  }
}
