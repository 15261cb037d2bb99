import { describe, expect, it } from "vitest";
import { countingJournal } from "../CountingJournal.js";
import fc from "fast-check";
import { MemoryWorld } from "@mcb/adapter-memory";
import { openJournal } from "../../src/index.js";
import { EventSync } from "../../src/merge/EventSync.js";

const BOX = { minX: -100, minY: -64, minZ: -100, maxX: 100, maxY: 319, maxZ: 100 };

describe("event sync on a journal shared by several bridges", () => {
  it("random interleavings of people's edits and bridges pulling: each edit is recorded once, in order", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.record({ edit: fc.nat(20) }), fc.record({ sync: fc.nat(2) })), { minLength: 1, maxLength: 40 }), async (steps) => {
        const world = new MemoryWorld();
        const journal = openJournal(":memory:");
        try {
          const bridges = [new EventSync(world, journal), new EventSync(world, journal), new EventSync(world, journal)];
          for (const b of bridges) await b.start();
          const edits: number[] = [];
          for (const s of steps) {
            if ("edit" in s) {
              world.externalEdit(s.edit, 64, 0, "minecraft:stone", { emitEvent: true });
              edits.push(s.edit);
            } else await bridges[s.sync]!.sync();
          }
          for (const b of bridges) await b.sync();
          const t = journal.touchesAfter(0, BOX);
          expect(Array.from({ length: t.states.length }, (_, k) => t.quads[k * 4 + 1]!)).toEqual(edits);
        } finally {
          journal.close();
          await world.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it("a bridge asks the journal for the cursor only when the world had something new or another bridge moved it", async () => {
    const world = new MemoryWorld();
    const { journal, calls: reads } = countingJournal("eventCursor");
    try {
      const a = new EventSync(world, journal);
      const b = new EventSync(world, journal);
      await a.start();
      await b.start();
      const before = reads();
      for (let i = 0; i < 5; i++) await a.sync(); // nothing happened: no journal read
      expect(reads()).toBe(before);
      world.externalEdit(1, 64, 1, "minecraft:stone", { emitEvent: true });
      await a.sync(); // a records it from the cursor it knows
      expect(reads()).toBe(before);
      await b.sync(); // b's cursor is behind: its conditional write fails and it reads the stored one
      expect(reads()).toBe(before + 1);
      expect(journal.touchesAfter(0, BOX).states.length).toBe(1);
    } finally {
      journal.close();
      await world.close();
    }
  });
});
