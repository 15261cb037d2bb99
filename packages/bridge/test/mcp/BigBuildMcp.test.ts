import { ProgressNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { setup, v } from "./InProcessMcp.js";

type Answer = Record<string, any>;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** 32 × 100 × 32 = 102,400 positions of stone: over one plan's 100,000, two tiles. */
const tower = { version: 1, operations: [{ type: "box", min: v(0, 0, 0), max: v(31, 99, 31), block: "minecraft:stone" }] };

describe("build_prepare with apply of a recipe over one plan's size", () => {
  it("builds it in one call as a job of tiles, tells its progress, names one part; the same call again only reports; batch_undo undoes it", async () => {
    const s = await setup();
    closers.push(s.close);
    // without apply the size refusal stands, as before
    const refused = s.error(await s.call("build_prepare", { recipe: tower }));
    expect(refused).toMatchObject({ code: "budget_exceeded", details: { ways_out: ["split_into_parts", "apply_in_tiles"] } });
    expect(refused.message).toMatch(/or prepare it with apply: it is built in tiles of 100000 as one job$/);
    const told: { progress: number; message?: string }[] = [];
    s.client.setNotificationHandler(ProgressNotificationSchema, (n) => void told.push(n.params));
    const ask = { recipe: tower, apply: { idempotency_key: "tower-1", part_name: "tower", wait_ms: 10_000 } };
    const r = (await s.client.callTool({ name: "build_prepare", arguments: ask, _meta: { progressToken: "b1" } })) as CallToolResult;
    expect(r.isError, JSON.stringify(r.content)).not.toBe(true);
    const a = r.structuredContent as Answer;
    expect(a.plan_id).toMatch(/^b_[0-9a-f]{24}$/);
    expect(a).toMatchObject({
      kind: "build",
      changed_blocks: 102_400,
      region: { min: v(0, 0, 0), max: v(31, 99, 31) },
      materials: [{ state: "minecraft:stone", count: 102_400 }],
      operation: { operation_id: a.plan_id, status: "applied", written: 102_400, total: 102_400, conflicts: 0, part: { name: "tower", error: null } },
    });
    expect(a.warnings[0]).toMatch(/^a build of 102400 positions: 2 tiles of up to 100000, applied in the background as one job/);
    expect(a.operation.part.part_id).toMatch(/^part_/);
    expect(s.world.stateAt(0, 0, 0)).toBe("minecraft:stone");
    expect(s.world.stateAt(31, 99, 31)).toBe("minecraft:stone");
    expect(told.length).toBeGreaterThan(0);
    expect(told.at(-1)!.message).toMatch(/of 2 tiles, [\d,]+ blocks written$/);
    const part = (await s.call("part_get", { part_id: a.operation.part.part_id })).structuredContent as Answer;
    expect(part.count).toBe(102_400);
    // the same call again: the same job, done; nothing written twice
    const again = (await s.call("build_prepare", ask)).structuredContent as Answer;
    expect(again.operation).toEqual(a.operation);
    expect(((await s.call("operation_list", { limit: 10 })).structuredContent as Answer).operations).toHaveLength(2);
    // undone whole in one call
    const undo = (await s.call("batch_undo", { batch_id: a.plan_id, wait_ms: 10_000 })).structuredContent as Answer;
    expect(undo).toMatchObject({ state: "done", operations: 2, undone: 2, restored_blocks: 102_400 });
    expect(s.world.stateAt(0, 0, 0)).not.toBe("minecraft:stone");
  });

  it("refuses what applies to one plan only (part_id, expected_blocks, replace, take_over), writing nothing", async () => {
    const s = await setup();
    closers.push(s.close);
    const apply = { idempotency_key: "k" };
    for (const extra of [
      { part_id: "part_x" },
      { expected_blocks: [{ pos: v(0, 0, 0), state: "minecraft:air" }] },
      { replace: [v(0, 0, 0)] },
      { apply: { ...apply, take_over: ["a"] } },
    ])
      expect(s.error(await s.call("build_prepare", { recipe: tower, apply, ...extra }))).toMatchObject({
        code: "invalid_request",
        details: { reason: "tiled_build", positions: 102_400, tiles: 2 },
      });
    expect(s.world.stateAt(0, 0, 0)).not.toBe("minecraft:stone");
    expect(((await s.call("operation_list", {})).structuredContent as Answer).operations).toHaveLength(0);
  });
});
