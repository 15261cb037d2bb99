import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KillableSave } from "../src/KillableSave.js";
import { MemoryWorld } from "@mcb/adapter-memory";
import { HostCrash, type CasWrite } from "@mcb/engine";
import { CrashingWorld, sharedRegistry, type KillableWorld } from "../src/index.js";

type Made = { readonly world: KillableWorld & { stateAt(x: number, y: number, z: number): string }; readonly done: () => void | Promise<void> };
const glass = (x: number): CasWrite => ({ x, y: 64, z: 0, before: "minecraft:air", beforeDigest: null, after: "minecraft:glass" });

/** The crash points over both worlds the suites run on: the memory twin and a save (write-through, as the harness opens it). */
describe.each([
  ["the memory world", async (): Promise<Made> => ({ world: new MemoryWorld(), done: () => undefined })],
  [
    "a save",
    async (): Promise<Made> => {
      const dir = mkdtempSync(join(tmpdir(), "mcb-crashing-"));
      const world = await KillableSave.open({ dir, registry: sharedRegistry(), flatGround: true, maxUnsavedChunks: 0, idleSaveMs: 0 });
      return {
        world,
        done: async () => {
          await world.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
])("CrashingWorld over %s", (_name, make) => {
  it("a crash point fires once, on its (skip+1)-th pass; the host stays down until restart; mid_slice writes the first half of the groups", async () => {
    const { world, done } = await make();
    try {
      const c = new CrashingWorld(world);
      expect((await c.info()).capabilities).toContain("fault_injection");
      c.faults.crashAt("mid_slice", 1);
      await c.compareAndSet({ checks: [], writes: [glass(0)] }); // the first pass: skipped
      await expect(c.compareAndSet({ checks: [], writes: [1, 2, 3, 4].map(glass) })).rejects.toBeInstanceOf(HostCrash);
      expect(world.hostDown).toBe(true);
      await expect(c.info()).rejects.toBeInstanceOf(HostCrash);
      await c.restart();
      expect([0, 1, 2, 3, 4].map((x) => world.stateAt(x, 64, 0))).toEqual([
        "minecraft:glass",
        "minecraft:glass",
        "minecraft:glass",
        "minecraft:air",
        "minecraft:air",
      ]);
      expect(c.faults.pending).toBeNull();
      // after_write: the whole slice is written, the answer never comes
      c.faults.crashAt("after_write");
      await expect(c.compareAndSet({ checks: [], writes: [5, 6].map(glass) })).rejects.toBeInstanceOf(HostCrash);
      await c.restart();
      expect([5, 6].map((x) => world.stateAt(x, 64, 0))).toEqual(["minecraft:glass", "minecraft:glass"]);
      // before_write and read: nothing written
      c.faults.crashAt("before_write");
      await expect(c.compareAndSet({ checks: [], writes: [glass(7)] })).rejects.toBeInstanceOf(HostCrash);
      await c.restart();
      c.faults.crashAt("read");
      await expect(c.read({ minX: 0, minY: 64, minZ: 0, maxX: 7, maxY: 64, maxZ: 0 })).rejects.toBeInstanceOf(HostCrash);
      await c.restart();
      expect(world.stateAt(7, 64, 0)).toBe("minecraft:air");
      expect(c.compareAndSetCalls).toBe(4);
    } finally {
      await done();
    }
  });

  it("a mismatch in the first half is answered as the world answers it (no crash), and the hook sees each call made while the host is up", async () => {
    const { world, done } = await make();
    try {
      const c = new CrashingWorld(world);
      const seen: number[] = [];
      c.faults.beforeCompareAndSet = (call) => seen.push(call);
      c.faults.crashAt("mid_slice");
      const wrong = { ...glass(0), before: "minecraft:stone" };
      const r = await c.compareAndSet({ checks: [], writes: [wrong, glass(1), glass(2), glass(3)] });
      expect([r.written, r.mismatches.map((m) => m.index)]).toEqual([0, [0]]);
      expect(world.hostDown).toBe(false);
      world.kill();
      await expect(c.compareAndSet({ checks: [], writes: [glass(4)] })).rejects.toBeInstanceOf(HostCrash);
      expect(seen).toEqual([0]);
    } finally {
      await done();
    }
  });
});
