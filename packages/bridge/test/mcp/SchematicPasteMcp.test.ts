import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ProgressNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { writeSchematic } from "@mcb/schematic";
import { setup, v } from "./InProcessMcp.js";

type Answer = Record<string, any>;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** 32 × 120 × 32 = 122,880 positions of stone and glass layers: more than one tile of 100,000. */
function tall(): Buffer {
  const [w, h, l] = [32, 120, 32];
  const blocks = new Uint8Array(w * h * l);
  for (let y = 0; y < h; y++) blocks.fill(y % 10 === 9 ? 1 : 0, y * w * l, (y + 1) * w * l);
  return writeSchematic({
    width: w,
    height: h,
    length: l,
    offset: v(0, 0, 0),
    dataVersion: 4903,
    palette: ["minecraft:stone", "minecraft:glass"],
    blocks,
    blockEntities: [],
  });
}

describe("schematic_paste: a big paste in one MCP call", () => {
  it("runs every tile in the background, tells a client that asked its progress, makes one part, and a second call only reports", async () => {
    const s = await setup();
    closers.push(s.close);
    mkdirSync(join(s.dir, "schematics"));
    writeFileSync(join(s.dir, "schematics", "tall.schem"), tall());
    const told: { progress: number; message?: string }[] = [];
    s.client.setNotificationHandler(ProgressNotificationSchema, (n) => void told.push(n.params));
    const r = (await s.client.callTool({
      name: "schematic_paste",
      arguments: { asset_id: "tall", target: v(0, -60, 0), wait_ms: 10_000 },
      _meta: { progressToken: "p1" },
    })) as CallToolResult;
    const a = r.structuredContent as Answer;
    expect(r.isError).not.toBe(true);
    expect(a).toMatchObject({ state: "done", tiles: { total: 2, applied: 2, unfinished: 0 }, written_blocks: 122_880, error: null });
    expect(a.paste_id).toMatch(/^p_[0-9a-f]{24}$/);
    expect(a.operation_ids).toHaveLength(2);
    expect(a.part).toMatchObject({ name: `paste ${a.paste_id}`, error: null });
    expect(s.world.stateAt(5, -60, 5)).toBe("minecraft:stone");
    expect(s.world.stateAt(31, 59, 31)).toBe("minecraft:glass");
    // progress notifications went to the client that sent a token, growing
    expect(told.length).toBeGreaterThan(0);
    expect(told.every((t, i) => i === 0 || t.progress > told[i - 1]!.progress)).toBe(true);
    expect(told[0]!.message).toMatch(/of 2 tiles, [\d,]+ blocks written$/);
    // the part holds every block of both tiles
    const part = (await s.call("part_get", { part_id: a.part.part_id })).structuredContent as Answer;
    expect(part.count).toBe(122_880);
    // the progress file records the part as mcb schem import records it (either reads the other's)
    expect(JSON.parse(readFileSync(join(s.dir, "batches", `${a.paste_id}.json`), "utf8")).completed).toEqual({
      part_id: a.part.part_id,
      part_name: `paste ${a.paste_id}`,
      part_blocks: 122_880,
    });
    // asked again: the same job, done, nothing written twice
    const again = (await s.call("schematic_paste", { asset_id: "tall", target: v(0, -60, 0) })).structuredContent as Answer;
    expect(again).toMatchObject({ paste_id: a.paste_id, state: "done", written_blocks: 122_880, operation_ids: a.operation_ids });
    const ops = (await s.call("operation_list", { limit: 10 })).structuredContent as Answer;
    expect(ops.operations).toHaveLength(2);
  });

  it("batch_undo undoes the whole paste in one call: every tile, a person's later edit kept and counted, the part retired; asked again it only reports", async () => {
    const s = await setup();
    closers.push(s.close);
    mkdirSync(join(s.dir, "schematics"));
    writeFileSync(join(s.dir, "schematics", "tall.schem"), tall());
    const before = s.world.stateAt(5, -60, 5);
    const pasted = (await s.call("schematic_paste", { asset_id: "tall", target: v(0, -60, 0), wait_ms: 10_000 })).structuredContent as Answer;
    expect(pasted.state).toBe("done");
    s.world.externalEdit(7, 30, 7, "minecraft:gold_block"); // a person's edit inside the paste, after it
    const told: { progress: number; message?: string }[] = [];
    s.client.setNotificationHandler(ProgressNotificationSchema, (n) => void told.push(n.params));
    const r = (await s.client.callTool({
      name: "batch_undo",
      arguments: { batch_id: pasted.paste_id, wait_ms: 10_000 },
      _meta: { progressToken: "u1" },
    })) as CallToolResult;
    expect(r.isError).not.toBe(true);
    const a = r.structuredContent as Answer;
    expect(a).toMatchObject({ batch_id: pasted.paste_id, state: "done", operations: 2, undone: 2, restored_blocks: 122_879, left_as_they_are: 1, error: null });
    expect(a.undo_operation_ids).toHaveLength(2);
    expect(s.world.stateAt(5, -60, 5)).toBe(before);
    expect(s.world.stateAt(31, 59, 31)).toBe(before);
    expect(s.world.stateAt(7, 30, 7)).toBe("minecraft:gold_block");
    expect(told.every((t, i) => i === 0 || t.progress > told[i - 1]!.progress)).toBe(true);
    if (told.length > 0) expect(told.at(-1)!.message).toMatch(/of 2 operations undone, [\d,]+ blocks restored$/);
    const part = (await s.call("part_get", { part_id: pasted.part.part_id })).structuredContent as Answer;
    expect(part.count).toBe(0); // retired: the block left as it was is the person's now
    // asked again: the report, no new operation
    const again = (await s.call("batch_undo", { batch_id: pasted.paste_id })).structuredContent as Answer;
    expect(again).toEqual(a);
    const ops = (await s.call("operation_list", { limit: 10 })).structuredContent as Answer;
    expect(ops.operations).toHaveLength(4);
    // an id this state has not: not_found, nothing done
    for (const id of ["p_0123456789abcdef0123", "../batches/x", "op_1"])
      expect(s.error(await s.call("batch_undo", { batch_id: id }))).toMatchObject({ code: "not_found", details: { reason: "unknown_batch" } });
  });

  it("refuses what the library refuses, with nothing started", async () => {
    const s = await setup();
    closers.push(s.close);
    expect(s.error(await s.call("schematic_paste", { asset_id: "none", target: v(0, 0, 0) }))).toMatchObject({ code: "not_found" });
    const outside = (await s.call("schematic_paste", { asset_id: "none", target: v(0, 0, 0), rotation: 45 })) as CallToolResult;
    expect(s.error(outside)).toMatchObject({ code: "invalid_request" });
  });
});
