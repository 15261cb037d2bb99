import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRecipe, DEFAULT_LIMITS } from "../src/index.js";
import { registry } from "./support.js";

const box = (max: { x: number; y: number; z: number }, min = { x: 0, y: 0, z: 0 }, block = "minecraft:stone") => ({ type: "box", min, max, block });

function error(recipe: unknown, limits?: Parameters<typeof compileRecipe>[2]) {
  const r = compileRecipe(registry(), recipe, limits);
  expect(r.ok).toBe(false);
  return r.ok ? undefined : r.error;
}

describe("compile limits", () => {
  it("rejects any primitive over 100,000 blocks in preflight, before emitting (property)", () => {
    // Volumes up to ~10^17 blocks: allocating or emitting any of them would exhaust memory or time.
    const dim = fc.integer({ min: 1, max: 60_000_000 });
    const y = fc.integer({ min: 1, max: 4_000 });
    fc.assert(
      fc.property(dim, y, dim, (dx, dy, dz) => {
        fc.pre(dx * dy * dz > DEFAULT_LIMITS.maxBlocks);
        const e = error({
          version: 1,
          operations: [box({ x: dx - 30_000_000, y: dy - 2_048, z: dz - 30_000_000 }, { x: -30_000_000, y: -2_048, z: -30_000_000 })],
        });
        expect(e?.code).toBe("budget_exceeded");
        expect(e?.details).toMatchObject({ stage: "preflight", limit: 100_000, path: "operations[0]" });
      }),
      { numRuns: 200 },
    );
  });

  it("accepts exactly 100,000 blocks and rejects 100,001 after deduplication", () => {
    const exact = compileRecipe(registry(), { version: 1, operations: [box({ x: 99, y: 9, z: 99 })] });
    expect(exact.ok && exact.value.count).toBe(100_000);
    // Two disjoint halves, each under the per-primitive bound, together one over.
    const e = error({
      version: 1,
      operations: [box({ x: 99, y: 4, z: 99 }), box({ x: 99, y: 9, z: 99 }, { x: 0, y: 5, z: 0 }), box({ x: 0, y: 10, z: 0 }, { x: 0, y: 10, z: 0 })],
    });
    expect(e).toMatchObject({ code: "budget_exceeded", details: { stage: "compile", requested: 100_001 } });
    // Overlap that deduplicates to ≤ limit is fine.
    const overlap = compileRecipe(registry(), {
      version: 1,
      operations: [box({ x: 99, y: 9, z: 99 }), box({ x: 99, y: 9, z: 99 }, { x: 0, y: 0, z: 0 }, "minecraft:dirt")],
    });
    expect(overlap.ok && overlap.value.count).toBe(100_000);
  });

  it("bounds emitted work, operation instances, written operations and nesting depth", () => {
    const many = { type: "repeat", count: 1_024, offset: { x: 0, y: 0, z: 0 }, operations: [box({ x: 99, y: 9, z: 49 })] };
    expect(error({ version: 1, operations: [many] })).toMatchObject({ code: "budget_exceeded", details: { stage: "preflight", limit: 2_000_000 } });
    const instances = {
      type: "repeat",
      count: 1_024,
      offset: { x: 1, y: 0, z: 0 },
      operations: [{ type: "repeat", count: 1_024, offset: { x: 0, y: 0, z: 1 }, operations: [box({ x: 0, y: 0, z: 0 })] }],
    };
    expect(error({ version: 1, operations: [instances] })).toMatchObject({ code: "budget_exceeded", details: { limit: DEFAULT_LIMITS.maxOperations } });
    let nested: unknown = box({ x: 0, y: 0, z: 0 });
    for (let i = 0; i < 9; i++) nested = { type: "transform", rotate: 90, operations: [nested] };
    expect(error({ version: 1, operations: [nested] })).toMatchObject({ code: "budget_exceeded", details: { limit: 8 } });
    const written = Array.from({ length: 600 }, () => ({ type: "repeat", count: 1, offset: { x: 0, y: 0, z: 0 }, operations: [box({ x: 0, y: 0, z: 0 })] }));
    expect(error({ version: 1, operations: written })).toMatchObject({ code: "budget_exceeded", details: { limit: 1_000, requested: 1_200 } });
    expect(error({ version: 1, operations: [box({ x: 2, y: 2, z: 2 })] }, { limits: { maxBlocks: 26 } })).toMatchObject({
      details: { limit: 26, requested: 27 },
    });
  });

  it("rejects deeply nested or huge JSON before schema validation", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(error({ version: 1, operations: deep })).toMatchObject({ code: "invalid_request", details: { reason: "json_shape" } });
    const wide = { version: 1, operations: [box({ x: 0, y: 0, z: 0 })], junk: new Array(300_000).fill(0) };
    expect(error(wide)).toMatchObject({ code: "invalid_request", details: { reason: "json_shape" } });
  });

  it("rejects results outside the largest world, also when a transform moves them there", () => {
    expect(error({ version: 1, operations: [box({ x: 0, y: 2_048, z: 0 }, { x: 0, y: 2_048, z: 0 })] })).toMatchObject({ code: "out_of_bounds" });
    const moved = { type: "transform", translate: { x: 29_999_999, y: 0, z: 0 }, operations: [box({ x: 2, y: 0, z: 0 })] };
    expect(error({ version: 1, operations: [moved] })).toMatchObject({ code: "out_of_bounds", details: { path: "operations[0].operations[0]" } });
  });

  it("limits distinct states and dependencies", () => {
    const ops = Array.from({ length: 16 }, (_, i) => ({
      type: "box",
      min: { x: i, y: 0, z: 0 },
      max: { x: i, y: 0, z: 0 },
      block: `minecraft:oak_sign[rotation=${i}]`,
    }));
    expect(error({ version: 1, operations: ops }, { limits: { maxStates: 15 } })).toMatchObject({ code: "budget_exceeded", details: { limit: 15 } });
    const deps = Array.from({ length: 4_097 }, (_, i) => ({ x: i, y: 0, z: 0 }));
    expect(error({ version: 1, operations: [box({ x: 0, y: 0, z: 0 })] }, { dependencies: deps })).toMatchObject({ code: "budget_exceeded" });
  });
});
