import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rotateState } from "@mcb/blocks";
import { compileRecipe } from "@mcb/recipe";
import { Harness, unwrap } from "@mcb/property-tests";
import { ConnectionRules, DIRS } from "../../src/plan/ConnectionRules.js";
import { harnessPool } from "../harnesses.js";

const harness = harnessPool();

const v = (x: number, y: number, z: number) => ({ x, y, z });
const at = (x: number, y: number, z: number, block: string) => ({ type: "box", min: v(x, y, z), max: v(x, y, z), block });
const line = (from: ReturnType<typeof v>, to: ReturnType<typeof v>, block: string) => ({ type: "line", from, to, block });
const recipe = (operations: unknown[], extra: Record<string, unknown> = {}) => ({ version: 1, operations, ...extra });

async function build(h: Harness, r: unknown, key: string) {
  const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: r }));
  const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: key }));
  await h.engine.settle();
  const st = unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id }));
  expect(st.status).toBe("applied");
  return { plan, st };
}
const props = (h: Harness, x: number, y: number, z: number) => h.registry.stateOf(h.world.stateAt(x, y, z)).properties;
const sides = (h: Harness, x: number, y: number, z: number) => DIRS.filter((d) => !["false", "none"].includes(props(h, x, y, z)[d]!));

describe("connection states at preparation", () => {
  it("fences join fences, in-line gates and solid blocks, not leaves; lone posts are reported", async () => {
    const h = await harness();
    const r = await build(
      h,
      recipe([
        line(v(0, 64, 0), v(3, 64, 0), "minecraft:oak_fence"),
        at(4, 64, 0, "minecraft:stone"),
        at(0, 64, 1, "minecraft:oak_fence_gate[facing=east]"), // spans north–south: joins the fence north of it
        at(3, 64, 1, "minecraft:oak_leaves[persistent=true]"),
        at(10, 64, 10, "minecraft:spruce_fence"),
        at(10, 64, 12, "minecraft:nether_brick_fence"),
        at(10, 64, 11, "minecraft:birch_fence"),
      ]),
      "fences",
    );
    expect(sides(h, 0, 64, 0)).toEqual(["east", "south"]);
    expect(sides(h, 1, 64, 0)).toEqual(["east", "west"]);
    expect(sides(h, 3, 64, 0)).toEqual(["east", "west"]); // stone to the east; leaves to the south do not count
    expect(sides(h, 10, 64, 11)).toEqual(["north"]); // wooden fences join each other, not nether brick
    expect(sides(h, 10, 64, 12)).toEqual([]);
    expect(r.plan.warnings.some((w) => /1 fences, panes or walls have nothing to join and stand as lone posts \(at 10 64 12\)/.test(w))).toBe(true);
  });

  it("walls: posts at ends and corners, low straight runs, tall under a block, a post under a torch", async () => {
    const h = await harness();
    await build(
      h,
      recipe([
        line(v(0, 64, 0), v(4, 64, 0), "minecraft:cobblestone_wall"),
        line(v(4, 64, 1), v(4, 64, 2), "minecraft:cobblestone_wall"),
        at(2, 65, 0, "minecraft:stone_bricks"),
        at(1, 65, 0, "minecraft:torch"),
      ]),
      "walls",
    );
    expect(props(h, 0, 64, 0)).toMatchObject({ east: "low", west: "none", up: "true" }); // end
    expect(props(h, 3, 64, 0)).toMatchObject({ east: "low", west: "low", up: "false" }); // straight run
    expect(props(h, 2, 64, 0)).toMatchObject({ east: "tall", west: "tall", up: "false" }); // a full block above
    expect(props(h, 1, 64, 0)).toMatchObject({ east: "low", west: "low", up: "true" }); // the torch keeps the post
    expect(props(h, 4, 64, 0)).toMatchObject({ west: "low", south: "low", up: "true" }); // corner
  });

  it("panes and bars join each other, walls and solid blocks; walls join them back", async () => {
    const h = await harness();
    await build(
      h,
      recipe([
        line(v(0, 64, 0), v(2, 64, 0), "minecraft:glass_pane"),
        at(3, 64, 0, "minecraft:iron_bars"),
        at(4, 64, 0, "minecraft:andesite_wall"),
        at(-1, 64, 0, "minecraft:glass"),
      ]),
      "panes",
    );
    expect(sides(h, 0, 64, 0)).toEqual(["east", "west"]);
    expect(sides(h, 3, 64, 0)).toEqual(["east", "west"]); // bars join the pane and the wall
    expect(props(h, 4, 64, 0)).toMatchObject({ west: "low", up: "true" }); // walls join bars and panes too
  });

  it("stairs form outer corners on a roof ring facing in, inner corners facing out", async () => {
    const h = await harness();
    const ring = (y: number, facing: (side: string) => string) => [
      line(v(1, y, 0), v(1, y, 0), `minecraft:oak_stairs[facing=${facing("north")}]`),
      line(v(0, y, 0), v(0, y, 0), `minecraft:oak_stairs[facing=${facing("north")}]`),
      line(v(0, y, 1), v(0, y, 1), `minecraft:oak_stairs[facing=${facing("west")}]`),
    ];
    await build(h, recipe([...ring(64, (s) => (s === "north" ? "south" : "east")), ...ring(70, (s) => (s === "north" ? "north" : "west"))]), "stairs");
    expect(props(h, 0, 64, 0).shape).toBe("outer_left");
    expect(props(h, 1, 64, 0).shape).toBe("straight");
    expect(props(h, 0, 70, 0).shape).toBe("inner_left");
  });

  it("existing neighbours join the new build (only their sides facing it); undo puts them back", async () => {
    const h = await harness();
    h.world.externalEdit(0, 64, 0, "minecraft:oak_fence[east=false,north=false,south=true,waterlogged=false,west=false]", { emitEvent: false }); // a stale south arm stays
    h.world.externalEdit(2, 64, 5, "minecraft:cobblestone_wall[east=low,north=none,south=none,up=false,waterlogged=false,west=low]", { emitEvent: false });
    const { plan, st } = await build(h, recipe([at(1, 64, 0, "minecraft:oak_fence"), at(2, 65, 5, "minecraft:stone")]), "join");
    expect(plan.changed_blocks).toBe(4); // 2 placed + 2 existing updated
    expect(props(h, 0, 64, 0)).toMatchObject({ east: "true", south: "true" });
    expect(sides(h, 1, 64, 0)).toEqual(["west"]);
    expect(props(h, 2, 64, 5)).toMatchObject({ east: "tall", west: "tall", north: "none", up: "false" }); // a block on top: tall
    expect(plan.warnings.some((w) => /2 existing ones next to the plan join it back \(at 0 64 0, 2 64 5\)/.test(w))).toBe(true);
    const undo = unwrap(await h.engine.operationUndoPrepare(h.agent, { operation_id: st.operation_id }));
    expect(undo.changed_blocks).toBe(4);
    unwrap(await h.engine.buildApply(h.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "join-undo" }));
    await h.engine.settle();
    expect(props(h, 0, 64, 0)).toMatchObject({ east: "false", south: "true" });
  });

  it("a fence a person placed by hand keeps its state: it is not joined to the build, and a note says so", async () => {
    const h = await harness();
    const lone = "minecraft:oak_fence[east=false,north=false,south=false,waterlogged=false,west=false]";
    h.world.externalEdit(0, 64, 0, lone); // observed: a person's edit
    const { plan } = await build(h, recipe([at(1, 64, 0, "minecraft:oak_fence")]), "hand");
    expect(plan.changed_blocks).toBe(1);
    expect(h.world.stateAt(0, 64, 0)).toBe(lone);
    expect(sides(h, 1, 64, 0)).toEqual(["west"]);
    expect(plan.warnings).toContain(`${lone} at 0 64 0 was placed or changed by hand: it keeps its connections (not joined to the build)`);
  });

  it("an existing fence joins a new solid block; one beside new air or leaves does not", async () => {
    const h = await harness();
    const lone = "minecraft:oak_fence[east=false,north=false,south=false,waterlogged=false,west=false]";
    h.world.externalEdit(0, 64, 0, lone, { emitEvent: false });
    h.world.externalEdit(5, 64, 0, lone, { emitEvent: false });
    const { plan } = await build(h, recipe([at(1, 64, 0, "minecraft:stone_bricks"), at(6, 64, 0, "minecraft:oak_leaves[persistent=true]")]), "solid");
    expect(plan.changed_blocks).toBe(3);
    expect(sides(h, 0, 64, 0)).toEqual(["east"]);
    expect(sides(h, 5, 64, 0)).toEqual([]);
  });

  it("pinned keeps the written states and names the ones that do not match; compiled plans are pinned by default", async () => {
    const h = await harness();
    const ops = [line(v(0, 64, 0), v(2, 64, 0), "minecraft:oak_fence")];
    const pinned = unwrap(await h.engine.buildPrepare(h.agent, { recipe: recipe(ops, { connections: "pinned" }) }));
    expect(pinned.materials).toEqual([{ state: "minecraft:oak_fence[east=false,north=false,south=false,waterlogged=false,west=false]", count: 3 }]);
    expect(pinned.warnings.some((w) => /connections pinned: 3 fences.*at 0 64 0, 1 64 0, 2 64 0/.test(w))).toBe(true);
    const compiled = unwrap(compileRecipe(h.registry, recipe(ops)));
    const asPlan = unwrap(await h.engine.buildPrepare(h.agent, { plan: compiled }));
    expect(asPlan.materials).toEqual(pinned.materials);
    const auto = unwrap(await h.engine.buildPrepare(h.agent, { plan: compiled, connections: "auto" }));
    expect(auto.materials.map((m) => m.count).sort()).toEqual([1, 1, 1]);
    const bad = await h.engine.buildPrepare(h.agent, { recipe: recipe(ops, { connections: "sometimes" }) });
    expect(bad).toMatchObject({ ok: false, error: { code: "invalid_request" } });
  });

  it("existing neighbours outside the project area are left alone and reported", async () => {
    const h = await harness({ area: { minX: 0, minY: 0, minZ: 0, maxX: 10, maxY: 100, maxZ: 10 } });
    h.world.externalEdit(-1, 64, 0, "minecraft:oak_fence[east=false,north=false,south=false,waterlogged=false,west=false]", { emitEvent: false });
    const { plan } = await build(h, recipe([at(0, 64, 0, "minecraft:oak_fence")]), "edge");
    expect(plan.changed_blocks).toBe(1);
    expect(sides(h, 0, 64, 0)).toEqual(["west"]);
    expect(h.world.stateAt(-1, 64, 0)).toBe("minecraft:oak_fence[east=false,north=false,south=false,waterlogged=false,west=false]");
    expect(plan.warnings.some((w) => /1 existing neighbours would join the plan but lie outside what it may write \(at -1 64 0\)/.test(w))).toBe(true);
  });

  it("a wall under an existing wall that joins the plan back sees that wall's new arm (regression, seed 981476047)", async () => {
    const h = await harness();
    h.world.externalEdit(0, 65, 1, "minecraft:cobblestone_wall[east=none,north=none,south=none,up=true,waterlogged=false,west=none]", { emitEvent: false });
    await build(h, recipe([at(0, 65, 0, "minecraft:stone"), at(0, 64, 0, "minecraft:cobblestone_wall"), at(0, 64, 1, "minecraft:cobblestone_wall")]), "under");
    expect(props(h, 0, 65, 1).north).toBe("low"); // joined the stone back
    expect(props(h, 0, 64, 1).north).toBe("tall"); // covered by the upper wall's new north arm
    const rules = new ConnectionRules(h.registry);
    const world = (x: number, y: number, z: number) => h.world.stateAt(x, y, z);
    expect(rules.connect(world(0, 64, 1), 0, 64, 1, world)).toBe(world(0, 64, 1));
  });

  const BLOCKS = [
    "minecraft:oak_fence",
    "minecraft:cobblestone_wall",
    "minecraft:glass_pane",
    "minecraft:stone",
    "minecraft:oak_stairs[facing=north]",
    "minecraft:oak_stairs[facing=east,half=top]",
    "minecraft:oak_stairs[facing=south]",
    "minecraft:oak_fence_gate[facing=north]",
  ];
  const cells = fc.array(
    fc.record({ x: fc.integer({ min: 0, max: 4 }), y: fc.integer({ min: 64, max: 66 }), z: fc.integer({ min: 0, max: 4 }), b: fc.nat(BLOCKS.length - 1) }),
    { minLength: 1, maxLength: 30 },
  );

  // Wide enough for every round of a run and of its shrinking (ox = 20 × round).
  const WIDE = { area: { minX: -100, minY: 0, minZ: -10, maxX: 200_000, maxY: 100, maxZ: 100 } };

  it("after auto builds, every fence, pane, wall and stair is as the game would compute it from its neighbours (property)", async () => {
    const h = await harness(WIDE);
    const rules = new ConnectionRules(h.registry);
    let round = 0;
    await fc.assert(
      fc.asyncProperty(cells, cells, async (first, second) => {
        const ox = 20 * ++round;
        const ops = (cs: typeof first) => cs.map((c) => at(ox + c.x, c.y, c.z, BLOCKS[c.b]!));
        await build(h, recipe(ops(first)), `p1-${round}`);
        const again = unwrap(await h.engine.buildPrepare(h.agent, { recipe: recipe(ops(first)) }));
        expect(again.changed_blocks).toBe(0); // a consistent result is a fixpoint
        const p2 = unwrap(await h.engine.buildPrepare(h.agent, { recipe: recipe(ops(second)) }));
        if (p2.changed_blocks > 0) {
          unwrap(await h.engine.buildApply(h.agent, { plan_id: p2.plan_id, plan_hash: p2.plan_hash, idempotency_key: `p2-${round}` }));
          await h.engine.settle();
        }
        const world = (x: number, y: number, z: number) => h.world.stateAt(x, y, z);
        for (let y = 63; y <= 67; y++)
          for (let z = -1; z <= 5; z++)
            for (let x = ox - 1; x <= ox + 5; x++) {
              const s = world(x, y, z);
              if (rules.kind(s) === null || rules.kind(s) === "gate") continue;
              expect(rules.connect(s, x, y, z, world), `${x} ${y} ${z}`).toBe(s);
            }
      }),
      { numRuns: Number(process.env.MCB_CONNECTION_RUNS ?? 60) },
    );
  });

  it("connections turn with the build: a recipe rotated 90° gives every state rotated (property)", async () => {
    const h = await harness(WIDE);
    let round = 0;
    await fc.assert(
      fc.asyncProperty(cells, async (cs) => {
        const ox = 20 * ++round;
        const ops = cs.map((c) => at(c.x, c.y, c.z, BLOCKS[c.b]!));
        await build(h, recipe([{ type: "transform", translate: v(ox, 0, 0), operations: ops }]), `r0-${round}`);
        await build(h, recipe([{ type: "transform", translate: v(ox, 0, 40), rotate: 90, operations: ops }]), `r90-${round}`);
        for (const c of cs) {
          const s = h.world.stateAt(ox + c.x, c.y, c.z);
          expect(h.world.stateAt(ox - c.z, c.y, 40 + c.x), `${c.x} ${c.y} ${c.z}`).toBe(rotateState(h.registry, h.registry.stateOf(s), 1).canonical);
        }
      }),
      { numRuns: 40 },
    );
  });
});
