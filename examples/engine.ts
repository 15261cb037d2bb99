// The engine from your own code: a Minecraft save, a journal, one build (docs/ENGINE.md).
import { readFileSync } from "node:fs";
import { AnvilWorld } from "@mcb/adapter-anvil";
import { createBlockRegistry } from "@mcb/blocks";
import { Engine, openJournal } from "@mcb/engine";

const registry = createBlockRegistry(); // 26.2 by default ({ version: "26.1" } for 26.1)
if (!registry.ok) throw new Error(registry.error.message);
// A Minecraft save, created with flat ground when missing (`new MemoryWorld()` for a world in memory).
const world = await AnvilWorld.open({ dir: "state/world", registry: registry.value, flatGround: true });
const engine = await Engine.open({
  adapter: world,
  journal: openJournal("state/journal.db"), // or ":memory:", or a postgres:// URL (then `shared: {}`)
  registry: registry.value,
  projects: [{ projectId: "default", ownerId: "alice", area: { minX: -512, minY: -64, minZ: -512, maxX: 511, maxY: 319, maxZ: 511 } }],
});
const ctx = { principal: { playerId: "alice", role: "agent" as const }, projectId: "default" };
const recipe: unknown = JSON.parse(readFileSync("examples/tower.json", "utf8"));
const plan = await engine.buildPrepare(ctx, { recipe, dependencies: [{ x: 0, y: 63, z: 0 }] });
if (!plan.ok) throw new Error(plan.error.message); // every expected failure is a value: {code, message, retryable, details}
const op = await engine.buildApply(ctx, { plan_id: plan.value.plan_id, plan_hash: plan.value.plan_hash, idempotency_key: "build-1" });
if (!op.ok) throw new Error(op.error.message);
await engine.settle(); // operations run in the background
const status = await engine.operationStatus(ctx, { operation_id: op.value.operation_id });
console.log(status.ok ? `${status.value.status}: ${status.value.counters.written} blocks written` : status.error.message);
engine.close();
await world.close();
