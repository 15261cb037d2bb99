import { MemoryWorld } from "@mcb/adapter-memory";
import { blockEntityPredicate } from "@mcb/blocks";
import { Engine, SqlJournal, openSqlDb, type OperationRecord, type RequestContext } from "@mcb/engine";
import { describe, expect, it } from "vitest";
import { OWNER, PROJECT, boxRecipe, freshPostgresJournal, sharedRegistry, unwrap } from "../src/index.js";

const AREA = { minX: -64, minY: -64, minZ: -64, maxX: 64, maxY: 319, maxZ: 64 };
const ctx: RequestContext = { principal: { playerId: OWNER, role: "agent" }, projectId: PROJECT };

/**
 * A real PostgreSQL journal whose first lookup by key is answered as it was a moment earlier: the
 * other bridge's operation is created between this bridge's lookup by key and its lookup by plan
 * (a race two bridges run into when one request goes to both, as the live shared-bridges test did).
 */
class LateJournal extends SqlJournal {
  private stale = true;
  override findOperationByKey(projectId: string, key: string): OperationRecord | null {
    if (this.stale) {
      this.stale = false;
      return null;
    }
    return super.findOperationByKey(projectId, key);
  }
}

describe("the same plan and key through two bridges on one journal", () => {
  it("the bridge that finds the plan already applied under its own key answers with that operation", async () => {
    const url = freshPostgresJournal();
    const registry = sharedRegistry();
    const world = new MemoryWorld({ hasBlockEntity: blockEntityPredicate(registry) });
    const open = (name: string, journal: SqlJournal): Promise<Engine> =>
      Engine.open({ adapter: world, journal, registry, projects: [{ projectId: PROJECT, ownerId: OWNER, area: AREA }], shared: { holder: name } });
    const a = await open("a", new SqlJournal(openSqlDb(url)));
    const b = await open("b", new LateJournal(openSqlDb(url)));
    try {
      const plan = unwrap(await a.buildPrepare(ctx, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 3, y: 64, z: 0 }, "minecraft:stone") }));
      const fromA = unwrap(await a.buildApply(ctx, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "wall" }));
      const fromB = await b.buildApply(ctx, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "wall" });
      expect(fromB.ok && fromB.value.operation_id).toBe(fromA.operation_id);
      // Under another key it is still refused: a plan applies once.
      const other = await b.buildApply(ctx, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "other" });
      expect(other.ok || other.error.details?.reason).toBe("plan_already_applied");
      await a.settle();
    } finally {
      a.close();
      b.close();
    }
  });
});
