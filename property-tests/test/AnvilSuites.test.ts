import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AnvilWorld } from "@mcb/adapter-anvil";
import type { CasResult, CasSlice, WorldAdapter } from "@mcb/engine";
import { checkAdapterConformance, runModelSuite, sharedRegistry, type AdapterDriver } from "../src/index.js";

async function saveDriver(): Promise<AdapterDriver> {
  const dir = mkdtempSync(join(tmpdir(), "mcb-conf-"));
  const world = await open(dir);
  return {
    adapter: world,
    edit: async (x, y, z, state, withEvent) => world.externalEdit(x, y, z, state, { emitEvent: withEvent }),
    close: async () => {
      await world.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function open(dir: string): Promise<AnvilWorld> {
  const registry = sharedRegistry();
  return AnvilWorld.open({ dir, registry, flatGround: true, idleSaveMs: 0 });
}

/** Planted bug: a save that checks only the first write of each group (the others are taken as matching). */
function firstWriteOnly(world: AnvilWorld): WorldAdapter {
  return {
    info: () => world.info(),
    read: (box) => world.read(box),
    events: (cursor) => world.events(cursor),
    close: () => world.close(),
    compareAndSet: (slice: CasSlice): Promise<CasResult> => {
      const ends = slice.groupEnds ?? slice.writes.map((_, i) => i + 1);
      const firsts = new Set([0, ...ends]);
      const writes = slice.writes.map((w, i) => (firsts.has(i) ? w : { ...w, before: world.stateAt(w.x, w.y, w.z) }));
      return world.compareAndSet({ ...slice, writes });
    },
  };
}

describe("AnvilWorld against the adapter contract and the engine model (temporary saves)", () => {
  it("satisfies the WorldAdapter conformance properties", async () => {
    await checkAdapterConformance(() => saveDriver(), 60);
  });

  it("the conformance properties catch a planted save bug", async () => {
    const planted = async (): Promise<AdapterDriver> => {
      const d = await saveDriver();
      return { ...d, adapter: firstWriteOnly(d.adapter as AnvilWorld) };
    };
    await expect(checkAdapterConformance(planted, 200, { planted: true })).rejects.toThrow();
  });

  it("the engine matches the model over 100 random command sequences on a save (crashes, restarts, people's edits)", async () => {
    const stats = new Map<string, number>();
    await runModelSuite({ numRuns: 100, world: "anvil", journal: "sqlite", stats });
    for (const outcome of ["apply none → applied (wrote)", "undo restored blocks", "apply next to people's edits", "merge conflict (refuse)"])
      expect(stats.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
    // Crashes at every point of an apply (the save loses what it had not saved; the engine must still match the model).
    const crashes = [...stats].filter(([k]) => k.startsWith("apply crash")).reduce((n, [, c]) => n + c, 0);
    expect(crashes).toBeGreaterThan(5);
  }, 180_000); // about 50 s alone on two cores; longer while another test worker shares them
});
