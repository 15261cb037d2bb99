import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boxRecipe, unwrap, type Harness } from "@mcb/property-tests";
import { coverBoxes } from "../../src/merge/BoxCover.js";
import { mergeOutcome, type MergeOutcome } from "../../src/merge/ManualEdits.js";
import { harnessPool } from "../harnesses.js";

const harness = harnessPool();
const STATES = ["minecraft:stone", "minecraft:glass", "minecraft:dirt", "minecraft:air"] as const;

/**
 * The outcome table of issue 19 row by row, as the issue words it (G0: our newest standing write,
 * C: the world now, G1: the new design; `touched`: a person changed the block after our write).
 */
function table(g0: string | null, touched: boolean, c: string, g1: string): MergeOutcome {
  if (g0 === null) {
    // We never wrote it: today's rule, unless a person changed it (then a manual edit too).
    if (!touched) return c === g1 ? "unchanged" : "write";
    return c === g1 ? "unchanged" : "conflict";
  }
  if (c === g0 && !touched) return g1 === c ? "unchanged" : "write"; // nobody touched our block
  if (c === g1) return "unchanged"; // C ≠ G0 and C = G1: nothing to write
  if (g1 === g0) return "kept"; // the design changes nothing there: keep the person's block
  return "conflict"; // C ≠ G0, G1 ≠ G0, C ≠ G1
}

describe("three-way merge rule", () => {
  it("matches the outcome table over random (G0, C, G1) triples (property)", () => {
    const state = fc.constantFrom(...STATES);
    fc.assert(
      fc.property(fc.option(state, { nil: null }), fc.boolean(), state, state, (g0, touched, c, g1) => {
        const got = mergeOutcome(g0 === null ? null : { state: g0, digest: null }, touched, { state: c, digest: null }, { state: g1, dataDigest: null });
        expect(got).toBe(table(g0, touched, c, g1));
      }),
      { numRuns: 2000 },
    );
  });

  it("block-entity data counts: a chest whose contents a person changed is their edit, the same data is not", () => {
    const chest = "minecraft:chest[facing=north,type=single,waterlogged=false]";
    const ours = { state: chest, digest: "a".repeat(64) };
    expect(mergeOutcome(ours, false, { state: chest, digest: "b".repeat(64) }, { state: "minecraft:stone", dataDigest: null })).toBe("conflict");
    expect(mergeOutcome(ours, false, { state: chest, digest: "a".repeat(64) }, { state: "minecraft:stone", dataDigest: null })).toBe("write");
    expect(mergeOutcome(ours, false, { state: chest, digest: "b".repeat(64) }, { state: chest, dataDigest: null })).toBe("unchanged");
    expect(mergeOutcome(ours, false, { state: chest, digest: "b".repeat(64) }, { state: chest, dataDigest: "a".repeat(64) })).toBe("kept");
  });

  for (const journal of ["memory", "sqlite"] as const) {
    it(`the engine decides each position by the table: G0 written by us, C by a person (event or silent), G1 prepared (property, ${journal} journal)`, async () => {
      const state = fc.constantFrom(...STATES);
      await fc.assert(
        fc.asyncProperty(fc.option(state, { nil: null }), fc.option(fc.tuple(state, fc.boolean()), { nil: null }), state, async (g0, edit, g1) => {
          const h = await harness({ journal });
          const at = { x: 0, y: 64, z: 0 };
          h.world.externalEdit(0, 64, 0, "minecraft:sandstone", { emitEvent: false }); // there before the project
          if (g0 !== null) expect((await h.build(boxRecipe(at, at, g0))).status).toBe("applied");
          if (edit !== null) h.world.externalEdit(0, 64, 0, edit[0], { emitEvent: edit[1] });
          const c = h.world.stateAt(0, 64, 0);
          const before = c;
          const r = await h.engine.buildPrepare(h.agent, { recipe: boxRecipe(at, at, g1) });
          // What the engine can know: an observed edit marks the block; a silent one only shows where it differs from G0.
          const touched = edit !== null && edit[1];
          const expected = table(g0, touched, c, g1);
          if (expected === "conflict") {
            expect(r.ok || r.error).toMatchObject({
              code: "conflict",
              details: { reason: "manual_edits", count: 1, sample: [{ pos: at, expected: g0, actual: c, new: g1 }] },
            });
          } else {
            const p = unwrap(r);
            expect([p.changed_blocks, p.unchanged_blocks, p.manual_edits.kept]).toEqual([
              expected === "write" ? 1 : 0,
              expected === "unchanged" ? 1 : 0,
              expected === "kept" ? 1 : 0,
            ]);
          }
          expect(h.world.stateAt(0, 64, 0)).toBe(before);
          h.close();
        }),
        { numRuns: 120 },
      );
    }, 120_000);
  }
});

describe("coverBoxes", () => {
  it("covers exactly the positions, each once; a solid box is one box (property)", () => {
    const p = fc.tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: 60, max: 63 }), fc.integer({ min: -3, max: 3 }));
    fc.assert(
      fc.property(fc.array(p, { maxLength: 80 }), (points) => {
        const want = new Set(points.map((q) => q.join(",")));
        const boxes = coverBoxes(points.flat());
        const seen = new Map<string, number>();
        for (const b of boxes)
          for (let y = b.minY; y <= b.maxY; y++)
            for (let z = b.minZ; z <= b.maxZ; z++) for (let x = b.minX; x <= b.maxX; x++) seen.set(`${x},${y},${z}`, (seen.get(`${x},${y},${z}`) ?? 0) + 1);
        expect([...seen.keys()].sort()).toEqual([...want].sort());
        expect([...seen.values()].every((n) => n === 1)).toBe(true);
      }),
      { numRuns: 500 },
    );
    const solid: number[] = [];
    for (let y = 0; y < 4; y++) for (let z = 0; z < 5; z++) for (let x = 0; x < 6; x++) solid.push(x, y, z);
    expect(coverBoxes(solid)).toEqual([{ minX: 0, minY: 0, minZ: 0, maxX: 5, maxY: 3, maxZ: 4 }]);
  });
});

/** A 5×5 hollow tower of `floors` floors of 4 levels from y = 64, and a flat roof on top. */
const tower = (floors: number) => boxRecipe({ x: 0, y: 64, z: 0 }, { x: 4, y: 63 + floors * 4, z: 4 }, "minecraft:stone_bricks", true);
const WINDOW = { x: 2, y: 66, z: 0 };
const PANE = "minecraft:glass_pane[east=false,north=false,south=false,waterlogged=false,west=false]";

async function withWindow(h: Harness): Promise<string> {
  const built = await h.build(tower(2));
  h.world.externalEdit(WINDOW.x, WINDOW.y, WINDOW.z, PANE); // the person's window, by hand
  return built.operation_id;
}

describe("keep my windows", () => {
  for (const journal of ["memory", "sqlite"] as const) {
    it(`a rebuild with two floors more keeps the person's window; a redesign of it is refused with the exact position (${journal})`, async () => {
      const h = await harness({ journal });
      await withWindow(h);
      if (journal === "sqlite") await h.reopen(); // the index and the person's edit survive a restart
      const taller = unwrap(await h.engine.buildPrepare(h.agent, { recipe: tower(4) }));
      expect(taller.manual_edits).toEqual({
        kept: 1,
        conflicts: 0,
        replaced: 0,
        sample: [{ pos: WINDOW, expected: "minecraft:stone_bricks", actual: PANE, new: "minecraft:stone_bricks", outcome: "kept" }],
      });
      const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: taller.plan_id, plan_hash: taller.plan_hash, idempotency_key: "taller" }));
      await h.engine.settle();
      expect(unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id })).status).toBe("applied");
      expect(h.world.stateAt(WINDOW.x, WINDOW.y, WINDOW.z)).toBe(PANE);
      expect(h.world.stateAt(0, 79, 0)).toBe("minecraft:stone_bricks");

      // A redesign of that very wall (stairs across the window row): refused, naming the window, nothing prepared.
      const stairs = {
        version: 1,
        operations: [{ type: "line", from: { x: 0, y: 66, z: 0 }, to: { x: 4, y: 66, z: 0 }, block: "minecraft:stone_brick_stairs[facing=south]" }],
      };
      const calls = h.crashing.compareAndSetCalls;
      const refused = await h.engine.buildPrepare(h.agent, { recipe: stairs });
      expect(refused.ok || refused.error).toMatchObject({
        code: "conflict",
        retryable: false,
        details: {
          reason: "manual_edits",
          count: 1,
          boxes: [{ min: WINDOW, max: WINDOW }],
          boxes_truncated: false,
          sample: [{ pos: WINDOW, expected: "minecraft:stone_bricks", actual: PANE }],
        },
      });
      expect(h.crashing.compareAndSetCalls).toBe(calls);

      // Keep it: the other four stairs are written, the window stays.
      const kept = unwrap(await h.engine.buildPrepare(h.agent, { recipe: stairs, on_manual_edit: "keep" }));
      expect([kept.changed_blocks, kept.manual_edits.kept, kept.manual_edits.conflicts]).toEqual([4, 1, 1]);
      // Replace it, after the owner said so: exactly that position, nothing else.
      const outside = await h.engine.buildPrepare(h.agent, { recipe: stairs, replace: [WINDOW, { x: 1, y: 66, z: 0 }] });
      expect(outside.ok || outside.error).toMatchObject({
        code: "invalid_request",
        details: { reason: "replace_not_manual_edit", count: 1, sample: [{ x: 1, y: 66, z: 0 }] },
      });
      const replaced = unwrap(await h.engine.buildPrepare(h.agent, { recipe: stairs, replace: [WINDOW] }));
      expect([replaced.changed_blocks, replaced.manual_edits.replaced]).toEqual([5, 1]);
      unwrap(await h.engine.buildApply(h.agent, { plan_id: replaced.plan_id, plan_hash: replaced.plan_hash, idempotency_key: "stairs" }));
      await h.engine.settle();
      expect(h.world.stateAt(WINDOW.x, WINDOW.y, WINDOW.z)).toMatch(/^minecraft:stone_brick_stairs/);
      // Ours again: the next design over it is an ordinary write.
      expect(unwrap(await h.engine.buildPrepare(h.agent, { recipe: tower(4) })).manual_edits.kept).toBe(0);
    });
  }

  it("a journal from before the index folds its whole history on first use", async () => {
    const h = await harness({ journal: "sqlite" });
    await withWindow(h);
    const db = (h.journal as unknown as { db: { exec(sql: string): void } }).db;
    db.exec("DELETE FROM index_sections; DELETE FROM index_entries; UPDATE meta SET value = 0 WHERE key = 'index_seq';");
    await h.reopen();
    const again = unwrap(await h.engine.buildPrepare(h.agent, { recipe: tower(2) }));
    expect([again.changed_blocks, again.manual_edits.kept]).toEqual([0, 1]);
  });

  it("bad resolutions are refused with structured errors and change nothing", async () => {
    const h = await harness();
    await withWindow(h);
    const r = (extra: Record<string, unknown>) => h.engine.buildPrepare(h.agent, { recipe: tower(2), ...extra });
    expect(await r({ on_manual_edit: "overwrite" })).toMatchObject({
      ok: false,
      error: { code: "invalid_request", details: { reason: "on_manual_edit", allowed: ["refuse", "keep"] } },
    });
    expect(await r({ replace: "all" })).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "replace" } } });
    expect(await r({ replace: [{ x: 1.5, y: 0, z: 0 }] })).toMatchObject({
      ok: false,
      error: { code: "invalid_request", details: { reason: "replace", index: 0 } },
    });
    expect(await r({ replace: [WINDOW, WINDOW] })).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "replace", index: 1 } } });
    const many = Array.from({ length: 4097 }, (_, i) => ({ x: i, y: 64, z: 0 }));
    expect(await r({ replace: many })).toMatchObject({ ok: false, error: { code: "budget_exceeded", details: { reason: "replace", limit: 4096 } } });
    const far = Array.from({ length: 100 }, (_, i) => ({ x: 100 + i, y: 64, z: 0 }));
    const bad = await r({ replace: far });
    expect(bad).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "replace_not_manual_edit", count: 100 } } });
    expect((bad as unknown as { error: { details: { sample: unknown[] } } }).error.details.sample.length).toBe(8);
    expect(h.world.stateAt(WINDOW.x, WINDOW.y, WINDOW.z)).toBe(PANE);
    expect(h.journal.listOperations("default", {}, 50)).toHaveLength(1);
  });
});
