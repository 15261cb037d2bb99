import { describe, expect, it } from "vitest";
import { boxRecipe, unwrap, type Harness } from "@mcb/property-tests";
import { harnessPool } from "../harnesses.js";

/** build_apply's take_over: a new part takes blocks an older part built; undo of either stays exact. */
const harness = harnessPool();
const v = (x: number, y: number, z: number) => ({ x, y, z });
const BRICKS = "minecraft:bricks",
  GLASS = "minecraft:glass",
  AIR = "minecraft:air";

async function named(h: Harness, recipe: unknown, part_name: string, take_over?: string[]) {
  const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe }));
  const r = await h.engine.buildApply(h.agent, {
    plan_id: plan.plan_id,
    plan_hash: plan.plan_hash,
    idempotency_key: `k-${part_name.replace(/ /g, "_")}`,
    part_name,
    ...(take_over === undefined ? {} : { take_over }),
  });
  if (!r.ok) return r;
  await h.engine.settle();
  return h.engine.operationStatus(h.agent, { operation_id: r.value.operation_id });
}

async function undo(h: Harness, operation_id: string, key: string) {
  const u = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id }));
  const r = unwrap(await h.engine.buildApply(h.agent, { plan_id: u.plan_id, plan_hash: u.plan_hash, idempotency_key: key }));
  await h.engine.settle();
  return unwrap(await h.engine.operationStatus(h.agent, { operation_id: r.operation_id }));
}

/** Active parts by name → their mask as sorted "x,y,z" keys. */
function parts(h: Harness): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of h.journal.listParts(h.agent.projectId)) {
    if (p.retired === true) continue;
    const keys: string[] = [];
    for (let i = 0; i < p.mask.length; i += 3) keys.push(`${p.mask[i]},${p.mask[i + 1]},${p.mask[i + 2]}`);
    out[p.name] = keys.sort();
  }
  return out;
}

const keysOf = (x0: number, x1: number, y0: number, y1: number, z = 0) => {
  const out: string[] = [];
  for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) out.push(`${x},${y},${z}`);
  return out.sort();
};

describe.each(["memory", "sqlite"] as const)("take_over (%s journal)", (journal) => {
  it("windows take over wall blocks; undo gives them back, redo takes them again, undo of the wall leaves the windows", async () => {
    const h = await harness({ journal });
    const wall = unwrap(await named(h, boxRecipe(v(0, 64, 0), v(5, 66, 0), BRICKS), "wall"));
    expect(wall.part).toMatchObject({ name: "wall", error: null });
    const win = unwrap(await named(h, boxRecipe(v(2, 65, 0), v(3, 65, 0), GLASS), "windows", ["wall"]));
    expect(win.status).toBe("applied");
    expect(parts(h)).toEqual({ wall: keysOf(0, 5, 64, 66).filter((k) => !["2,65,0", "3,65,0"].includes(k)), windows: keysOf(2, 3, 65, 65) });
    const view = unwrap(await h.engine.partGet(h.agent, { part_id: win.part!.part_id! }));
    expect(view.taken_over).toEqual([{ part_id: wall.part!.part_id, count: 2 }]);
    expect(unwrap(await h.engine.partGet(h.agent, { part_id: wall.part!.part_id! })).revision).toBe(2);

    const undone = await undo(h, win.operation_id, "u1");
    expect(undone.counters.written).toBe(2);
    expect(h.world.stateAt(2, 65, 0)).toBe(BRICKS);
    expect(parts(h)).toEqual({ wall: keysOf(0, 5, 64, 66) }); // windows retired, the wall whole again

    await undo(h, undone.operation_id, "u2"); // redo
    expect(h.world.stateAt(3, 65, 0)).toBe(GLASS);
    expect(parts(h)).toEqual({ wall: keysOf(0, 5, 64, 66).filter((k) => !["2,65,0", "3,65,0"].includes(k)), windows: keysOf(2, 3, 65, 65) });

    // The wall's undo restores only what it still owns: the glass stays, and stays the windows'.
    const wallUndo = await undo(h, wall.operation_id, "u3");
    expect(wallUndo.counters.written).toBe(16);
    expect(h.world.stateAt(2, 65, 0)).toBe(GLASS);
    expect(h.world.stateAt(0, 64, 0)).toBe(AIR);
    expect(parts(h)).toEqual({ windows: keysOf(2, 3, 65, 65) });
  });

  it("a part taken over whole is retired and comes back when the taker is undone", async () => {
    const h = await harness({ journal });
    unwrap(await named(h, boxRecipe(v(0, 70, 0), v(2, 70, 0), BRICKS), "roof"));
    const roof2 = unwrap(await named(h, boxRecipe(v(0, 70, 0), v(3, 71, 0), GLASS), "roof 2", ["roof"]));
    expect(parts(h)).toEqual({ "roof 2": keysOf(0, 3, 70, 71) });
    await undo(h, roof2.operation_id, "u1");
    expect(parts(h)).toEqual({ roof: keysOf(0, 2, 70, 70) });
    expect(h.world.stateAt(1, 70, 0)).toBe(BRICKS);
  });
});

describe("take_over refusals (nothing written)", () => {
  it("needs part_name, names only active parts of the project, and still refuses overlaps with parts it does not name", async () => {
    const h = await harness();
    unwrap(await named(h, boxRecipe(v(0, 64, 0), v(3, 64, 0), BRICKS), "a"));
    unwrap(await named(h, boxRecipe(v(0, 65, 0), v(3, 65, 0), BRICKS), "b"));
    const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe(v(0, 64, 0), v(3, 65, 0), GLASS) }));
    const apply = (extra: object) => h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "k", ...extra });
    expect(await apply({ take_over: ["a"] })).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "take_over" } } });
    expect(await apply({ part_name: "c", take_over: ["nope"] })).toMatchObject({
      ok: false,
      error: { code: "not_found", details: { reason: "take_over", part: "nope", active_parts: ["a", "b"] } },
    });
    expect(await apply({ part_name: "c", take_over: "a" })).toMatchObject({ ok: false, error: { details: { reason: "take_over" } } });
    expect(await apply({ part_name: "c", take_over: ["a"] })).toMatchObject({ ok: false, error: { details: { reason: "part_overlap", name: "b", count: 4 } } });
    expect(h.world.stateAt(0, 64, 0)).toBe(BRICKS);
    const both = unwrap(await apply({ part_name: "c", take_over: ["a", "b"] }));
    await h.engine.settle();
    expect(unwrap(await h.engine.operationStatus(h.agent, { operation_id: both.operation_id })).part).toMatchObject({ name: "c", error: null });
    expect(parts(h)).toEqual({ c: [...keysOf(0, 3, 64, 65)].sort() });
  });
});
