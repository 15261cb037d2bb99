import { describe, expect, it } from "vitest";
import { compileRecipe } from "@mcb/recipe";
import { boxRecipe, unwrap } from "@mcb/property-tests";
import { expandInspectedBlocks } from "../../src/index.js";
import { harnessPool } from "../harnesses.js";

const STONE = "minecraft:stone";
const GLASS = "minecraft:glass";
const CHEST = "minecraft:chest[facing=north,type=single,waterlogged=false]";

const harness = harnessPool();

describe("build_prepare", () => {
  it("reports changed, unchanged and filtered blocks, materials and behaviour warnings", async () => {
    const h = await harness();
    h.world.externalEdit(0, 64, 0, STONE, { emitEvent: false }); // there before the project
    h.world.externalEdit(1, 64, 0, "minecraft:dirt", { emitEvent: false });
    const recipe = {
      version: 1,
      operations: [
        { type: "box", min: { x: 0, y: 64, z: 0 }, max: { x: 3, y: 64, z: 0 }, block: STONE },
        { type: "replace", min: { x: 0, y: 65, z: 0 }, max: { x: 1, y: 65, z: 0 }, from: ["minecraft:dirt"], block: "minecraft:sand" },
      ],
    };
    const p = unwrap(await h.engine.buildPrepare(h.agent, { recipe }));
    expect(p).toMatchObject({ changed_blocks: 3, unchanged_blocks: 1, filtered_blocks: 2, region: { min: { x: 1, y: 64, z: 0 }, max: { x: 3, y: 64, z: 0 } } });
    expect(p.materials).toEqual([{ state: STONE, count: 3 }]);
    expect(p.plan_hash).toMatch(/^[0-9a-f]{64}$/);
    const sand = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 5, y: 64, z: 5 }, { x: 5, y: 64, z: 5 }, "minecraft:sand") }));
    expect(sand.warnings.join(" ")).toMatch(/gravity: falling blocks over air or fluid: minecraft:sand at 5 64 5/);
  });

  it("accepts a compiled plan and refuses a tampered one or another version", async () => {
    const h = await harness();
    const compiled = compileRecipe(h.registry, boxRecipe({ x: 0, y: 64, z: 0 }, { x: 1, y: 64, z: 0 }, STONE));
    if (!compiled.ok) throw new Error("compile");
    expect(unwrap(await h.engine.buildPrepare(h.agent, { plan: compiled.value })).changed_blocks).toBe(2);
    const tampered = { ...compiled.value, palette: [GLASS] };
    expect(await h.engine.buildPrepare(h.agent, { plan: tampered })).toMatchObject({
      ok: false,
      error: { code: "invalid_request", details: { reason: "plan_hash" } },
    });
    const both = await h.engine.buildPrepare(h.agent, { plan: compiled.value, recipe: {} });
    expect(both).toMatchObject({ ok: false, error: { code: "invalid_request" } });
    const other = await harness({ world: { minecraftVersion: "1.21.4", dataVersion: 4189 } });
    expect(await other.engine.buildPrepare(other.agent, { plan: compiled.value })).toMatchObject({ ok: false, error: { code: "version_mismatch" } });
  });

  it("checks expected_blocks: full coverage, stale states, block-entity digests", async () => {
    const h = await harness();
    h.world.externalEdit(1, 64, 0, CHEST, { emitEvent: false }); // there before the project
    const recipe = boxRecipe({ x: 0, y: 64, z: 0 }, { x: 1, y: 64, z: 0 }, CHEST.replace("north", "east"));
    const inspected = unwrap(await h.engine.regionInspect(h.agent, { min: { x: 0, y: 64, z: 0 }, max: { x: 1, y: 64, z: 0 }, detail: "blocks" }));
    const digest = expandInspectedBlocks(inspected)[1]!.snapshot_id!;
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(inspected)).not.toContain('minecraft:chest"}'); // digest, never the data
    const expected = expandInspectedBlocks(inspected).map((b) => ({ pos: b.pos, state: b.state, ...(b.snapshot_id ? { snapshot_id: b.snapshot_id } : {}) }));
    expect(unwrap(await h.engine.buildPrepare(h.agent, { recipe, expected_blocks: expected })).changed_blocks).toBe(2);
    const missing = await h.engine.buildPrepare(h.agent, { recipe, expected_blocks: [expected[0]!, { pos: expected[1]!.pos, state: CHEST }] });
    expect(missing).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "missing_snapshot_id" } } });
    const partial = await h.engine.buildPrepare(h.agent, { recipe, expected_blocks: [expected[0]!] });
    expect(partial).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "expected_blocks" } } });
    const twice = await h.engine.buildPrepare(h.agent, { recipe, expected_blocks: [expected[0]!, expected[0]!] });
    expect(twice).toMatchObject({ ok: false, error: { code: "invalid_request" } });
    h.world.setBlockEntityData(1, 64, 0, new TextEncoder().encode("new items"), false);
    const stale = await h.engine.buildPrepare(h.agent, { recipe, expected_blocks: expected });
    expect(stale).toMatchObject({ ok: false, error: { code: "stale_snapshot", details: { count: 1, sample: [{ data_changed: true }] } } });
  });

  it("a plan expires after its time to live; apply then reports stale_snapshot", async () => {
    let now = 1_000_000;
    const h = await harness({ clock: () => now });
    const p = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 0, y: 64, z: 0 }, STONE) }));
    expect(p.expires_at).toBe(new Date(now + 600_000).toISOString());
    now += 600_001;
    const r = await h.engine.buildApply(h.agent, { plan_id: p.plan_id, plan_hash: p.plan_hash, idempotency_key: "late" });
    expect(r).toMatchObject({ ok: false, error: { code: "stale_snapshot", retryable: false, details: { reason: "plan_expired" } } });
    const wrongHash = await h.engine.buildApply(h.agent, { plan_id: p.plan_id, plan_hash: "0".repeat(64), idempotency_key: "x" });
    expect(wrongHash).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "plan_hash" } } });
    const unknown = await h.engine.buildApply(h.agent, { plan_id: "plan_nope", plan_hash: p.plan_hash, idempotency_key: "y" });
    expect(unknown).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("enforces the plan block budget and the dependency budget", async () => {
    const h = await harness({ limits: { maxPlanBlocks: 10, maxDependencies: 2 } });
    const big = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 10, y: 64, z: 0 }, STONE) });
    expect(big).toMatchObject({ ok: false, error: { code: "budget_exceeded", details: { limit: 10, count: 11 } } });
    const deps = [0, 1, 2].map((x) => ({ x, y: 63, z: 0 }));
    const many = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 0, y: 64, z: 0 }, STONE), dependencies: deps });
    expect(many).toMatchObject({ ok: false, error: { code: "budget_exceeded" } });
  });
});

describe("region_inspect", () => {
  it("summarises or lists at most 4096 positions", async () => {
    const h = await harness();
    h.world.externalEdit(0, 64, 0, STONE);
    const s = unwrap(await h.engine.regionInspect(h.agent, { min: { x: 0, y: 64, z: 0 }, max: { x: 15, y: 79, z: 15 }, detail: "summary" }));
    expect(s.positions).toBe(4096);
    expect(s.palette).toEqual([
      { state: "minecraft:air", count: 4095 },
      { state: STONE, count: 1 },
    ]);
    expect(s.blocks).toBeUndefined();
    // detail is optional: a summary by default; anything else is refused naming the field.
    expect(unwrap(await h.engine.regionInspect(h.agent, { min: { x: 0, y: 64, z: 0 }, max: { x: 15, y: 79, z: 15 } }))).toMatchObject({
      detail: "summary",
      palette: s.palette,
    });
    expect(await h.engine.regionInspect(h.agent, { min: { x: 0, y: 64, z: 0 }, max: { x: 1, y: 64, z: 1 }, detail: "all" as "summary" })).toMatchObject({
      ok: false,
      error: { details: { reason: "detail" } },
    });
    const over = await h.engine.regionInspect(h.agent, { min: { x: 0, y: 64, z: 0 }, max: { x: 16, y: 79, z: 15 }, detail: "summary" });
    expect(over).toMatchObject({ ok: false, error: { code: "budget_exceeded", details: { limit: 4096 } } });
    const bad = await h.engine.regionInspect(h.agent, { min: { x: 0, y: 64, z: 0 }, max: { x: 1.5, y: 64, z: 0 }, detail: "blocks" });
    expect(bad).toMatchObject({ ok: false, error: { code: "invalid_request" } });
  });
});

describe("parts", () => {
  it("registers exactly the written blocks and restricts build_prepare(part_id) to that mask", async () => {
    const h = await harness();
    h.world.externalEdit(1, 64, 0, STONE, { emitEvent: false }); // already stone: not written, not part of the mask
    const op = await h.build(boxRecipe({ x: 0, y: 64, z: 0 }, { x: 3, y: 64, z: 0 }, STONE));
    const part = unwrap(await h.engine.partDefine(h.agent, { name: "wall", operation_id: op.operation_id }));
    expect(part).toMatchObject({
      name: "wall",
      count: 3,
      bounds: { min: { x: 0, y: 64, z: 0 }, max: { x: 3, y: 64, z: 0 } },
      protection: { mode: "exact_mask" },
    });
    expect(unwrap(await h.engine.partGet(h.agent, { part_id: part.part_id }))).toEqual({ ...part, taken_over: [] });
    const inside = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 2, y: 64, z: 0 }, { x: 3, y: 64, z: 0 }, GLASS), part_id: part.part_id });
    expect(unwrap(inside).changed_blocks).toBe(2);
    const outside = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 2, y: 64, z: 0 }, GLASS), part_id: part.part_id });
    expect(outside).toMatchObject({ ok: false, error: { code: "out_of_bounds", details: { outside: 1, sample: [{ x: 1, y: 64, z: 0 }] } } });
    expect(await h.engine.partDefine(h.agent, { name: "wall", operation_id: op.operation_id })).toMatchObject({
      ok: false,
      error: { details: { reason: "duplicate_name" } },
    });
    expect(await h.engine.partDefine(h.agent, { name: "again", operation_id: op.operation_id })).toMatchObject({
      ok: false,
      error: { details: { reason: "part_overlap" } },
    });
    expect(await h.engine.partGet(h.agent, { part_id: "part_missing" })).toMatchObject({ ok: false, error: { code: "not_found" } });
    const ctx = unwrap(await h.engine.projectContext(h.agent));
    expect(ctx.parts).toEqual([{ part_id: part.part_id, name: "wall", count: 3, retired: false }]);
  });
});

describe("operation_cancel and status", () => {
  it("cancel stops further slices and reports the confirmed partial count", async () => {
    const h = await harness({ limits: { sliceSize: 4 } });
    const p = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe({ x: 0, y: 64, z: 0 }, { x: 15, y: 64, z: 0 }, STONE) }));
    const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: p.plan_id, plan_hash: p.plan_hash, idempotency_key: "c" }));
    h.faults.beforeCompareAndSet = (call) => {
      if (call === 1) void h.engine.operationCancel(h.agent, { operation_id: op.operation_id });
    };
    await h.engine.settle();
    const st = unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id }));
    expect(st).toMatchObject({ status: "cancelled", counters: { written: 8, total: 16, slices_done: 2, slices_total: 4 } });
    const again = unwrap(await h.engine.operationCancel(h.agent, { operation_id: op.operation_id }));
    expect(again.status).toBe("cancelled");
  });
});
