import { describe, expect, it } from "vitest";
import { Harness, boxRecipe, unwrap } from "@mcb/property-tests";

describe("engine smoke", () => {
  for (const journal of ["memory", "sqlite"] as const) {
    it(`builds and undoes a box (${journal} journal)`, async () => {
      const h = await Harness.create({ journal });
      const st = await h.build(boxRecipe({ x: 0, y: 64, z: 0 }, { x: 9, y: 70, z: 9 }, "minecraft:stone", true));
      expect(st.status).toBe("applied");
      expect(h.world.stateAt(0, 64, 0)).toBe("minecraft:stone");
      const undo = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: st.operation_id }));
      expect(undo.changed_blocks).toBe(st.counters.written);
      const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "undo-1" }));
      await h.engine.settle();
      const done = unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id }));
      expect(done.status).toBe("applied");
      expect(h.world.stateAt(0, 64, 0)).toBe("minecraft:air");
      h.close();
    });
  }
});
