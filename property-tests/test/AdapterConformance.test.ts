import { describe, expect, it } from "vitest";
import { MemoryWorld } from "@mcb/adapter-memory";
import type { CasResult, CasSlice } from "@mcb/engine";
import { checkAdapterConformance, type AdapterDriver } from "../src/index.js";

function memoryDriver(world = new MemoryWorld()): AdapterDriver {
  return {
    adapter: world,
    edit: async (x, y, z, state, withEvent) => world.externalEdit(x, y, z, state, { emitEvent: withEvent }),
    close: () => world.close(),
  };
}

/** Planted bug: an adapter that writes every group, even after a failing one. */
class NoStopWorld extends MemoryWorld {
  override async compareAndSet(slice: CasSlice): Promise<CasResult> {
    const r = await super.compareAndSet({ ...slice, groupEnds: slice.writes.map((_, i) => i + 1) });
    if (r.mismatches.length === 0) return r;
    const rest = slice.writes.slice(r.written + 1);
    await super.compareAndSet({ checks: [], writes: rest });
    return r;
  }
}

describe("WorldAdapter conformance", () => {
  it("MemoryWorld satisfies the adapter contract", async () => {
    await checkAdapterConformance(async () => memoryDriver(), 300);
  });

  it("catches a planted adapter bug (writing past a failing group)", async () => {
    await expect(checkAdapterConformance(async () => memoryDriver(new NoStopWorld()), 300, { planted: true })).rejects.toThrow();
  });
});
