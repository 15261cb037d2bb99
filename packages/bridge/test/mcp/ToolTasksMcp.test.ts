import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CallToolResultSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { writeSchematic } from "@mcb/schematic";
import { setup, v } from "./InProcessMcp.js";

type Answer = Record<string, any>;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** 32 × `h` × 32 positions of stone: over one tile of 100,000 when h > 97. */
function column(h: number): Buffer {
  return writeSchematic({
    width: 32,
    height: h,
    length: 32,
    offset: v(0, 0, 0),
    dataVersion: 4903,
    palette: ["minecraft:stone"],
    blocks: new Uint8Array(32 * h * 32),
    blockEntities: [],
  });
}

describe("long jobs as MCP tasks, where the client opts in; polling otherwise", () => {
  it("the tools of long jobs say taskSupport optional; a task-augmented paste answers at once and its result is the finished paste", async () => {
    const s = await setup();
    closers.push(s.close);
    const listed = (await s.client.listTools()).tools;
    const tasked = listed.filter((t) => t.execution?.taskSupport === "optional").map((t) => t.name);
    expect(tasked.sort()).toEqual(["batch_undo", "build_prepare", "schematic_paste", "terrain_apply"]);
    mkdirSync(join(s.dir, "schematics"));
    writeFileSync(join(s.dir, "schematics", "tall.schem"), column(120));
    const seen: string[] = [];
    let result: CallToolResult | undefined;
    const stream = s.client.experimental.tasks.callToolStream(
      { name: "schematic_paste", arguments: { asset_id: "tall", target: v(0, -60, 0) } },
      CallToolResultSchema,
      {
        task: { ttl: 60_000 },
      },
    );
    for await (const m of stream) {
      seen.push(m.type === "taskStatus" ? `status:${m.task.status}` : m.type);
      if (m.type === "result") result = m.result as CallToolResult;
      if (m.type === "error") throw m.error;
    }
    expect(seen[0]).toBe("taskCreated");
    expect(seen.at(-1)).toBe("result");
    expect(result!.structuredContent).toMatchObject({ state: "done", written_blocks: 122_880, tiles: { total: 2, applied: 2 } });
    expect(s.world.stateAt(31, 59, 31)).toBe("minecraft:stone");
    // the task is listed, completed
    const tasks = await s.client.experimental.tasks.listTasks();
    expect(tasks.tasks.map((t) => t.status)).toEqual(["completed"]);
    // a tool that is no long job does not run as a task
    const refused = s.client.experimental.tasks.callToolStream({ name: "project_context", arguments: {} }, CallToolResultSchema, { task: { ttl: 60_000 } });
    const first = (await refused.next()).value!;
    expect(first.type).toBe("error");
    expect(first.type === "error" && first.error).toBeInstanceOf(McpError);
  });

  it("tasks/cancel stops the job after its current slice: no further tile starts, and a plain call resumes it", async () => {
    const s = await setup();
    closers.push(s.close);
    mkdirSync(join(s.dir, "schematics"));
    writeFileSync(join(s.dir, "schematics", "big.schem"), column(380)); // four tiles
    const ask = { asset_id: "big", target: v(0, -64, 0), wait_ms: 0 };
    const stream = s.client.experimental.tasks.callToolStream({ name: "schematic_paste", arguments: ask }, CallToolResultSchema, { task: { ttl: 60_000 } });
    const created = (await stream.next()).value!;
    if (created.type !== "taskCreated") throw new Error(`expected a task, got ${created.type}`);
    await s.client.experimental.tasks.cancelTask(created.task.taskId);
    expect((await s.client.experimental.tasks.getTask(created.task.taskId)).status).toBe("cancelled");
    // the job stops: its batch file settles with tiles left, and stays so
    const file = join(s.dir, "batches");
    const progress = () => {
      const name = readdirSync(file).find((f) => /^p_\w+\.json$/.test(f));
      if (name === undefined) return null;
      const entries = Object.values(JSON.parse(readFileSync(join(file, name), "utf8")).entries) as { state: string }[];
      return entries.map((e) => e.state).join(",");
    };
    let last = progress();
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const now = progress();
      if (now !== null && now === last && !now.includes("applying")) break;
      last = now;
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(progress()).toBe(last);
    expect(last!.split(",").filter((x) => x === "applied").length).toBeLessThan(4);
    // a plain call resumes it to the end
    let a = (await s.call("schematic_paste", { ...ask, wait_ms: 10_000 })).structuredContent as Answer;
    while (a.state === "running") a = (await s.call("schematic_paste", { ...ask, wait_ms: 10_000 })).structuredContent as Answer;
    expect(a).toMatchObject({ state: "done", written_blocks: 389_120 });
  });

  it("a cancel of the running tile's operation stops the whole paste after its slice; asking again resumes it to the end", async () => {
    const s = await setup();
    closers.push(s.close);
    mkdirSync(join(s.dir, "schematics"));
    writeFileSync(join(s.dir, "schematics", "big.schem"), column(380)); // 389,120 positions: four tiles
    const ask = { asset_id: "big", target: v(0, -64, 0), wait_ms: 0 };
    let a = (await s.call("schematic_paste", ask)).structuredContent as Answer;
    // Cancel the running tile's operation until one ends cancelled (a cancel that comes during its last slice ends it applied).
    let cancelled: string | null = null;
    for (let i = 0; i < 2000 && a.state === "running"; i++) {
      if (a.current_operation_id !== null) {
        let op = (await s.call("operation_cancel", { operation_id: a.current_operation_id })).structuredContent as Answer;
        while (op.status === "queued" || op.status === "applying") {
          await new Promise((r) => setTimeout(r, 5));
          op = (await s.call("operation_status", { operation_id: op.operation_id })).structuredContent as Answer;
        }
        if (op.status === "cancelled") {
          cancelled = op.operation_id;
          break; // (asking schematic_paste now would resume it)
        }
      }
      await new Promise((r) => setTimeout(r, 2));
      a = (await s.call("schematic_paste", { ...ask, wait_ms: 0 })).structuredContent as Answer;
    }
    expect(cancelled, "no tile's operation was cancelled before it ended").not.toBeNull();
    // The batch stopped: its progress file shows no tile applying and stays so; tiles are left.
    const file = join(s.dir, "batches", `${a.paste_id}.json`);
    const finished = () => {
      const entries = Object.values(JSON.parse(readFileSync(file, "utf8")).entries) as { state: string }[];
      return { applying: entries.filter((e) => e.state === "applying").length, done: entries.filter((e) => e.state === "applied").length };
    };
    for (let i = 0; i < 200 && finished().applying > 0; i++) await new Promise((r) => setTimeout(r, 10));
    const settled = finished();
    await new Promise((r) => setTimeout(r, 300));
    expect(finished()).toEqual(settled);
    expect(settled).toMatchObject({ applying: 0 });
    expect(settled.done).toBeLessThan(4);
    // no tile after the cancelled one started
    const entries = JSON.parse(readFileSync(file, "utf8")).entries as Record<string, { operation_id?: string }>;
    const at = Number(Object.entries(entries).find(([, e]) => e.operation_id === cancelled)![0]);
    expect(
      Object.keys(entries)
        .map(Number)
        .filter((k) => k > at),
    ).toEqual([]);
    const ops = ((await s.call("operation_list", { status: "cancelled" })).structuredContent as Answer).operations;
    expect(ops.map((o: Answer) => o.operation_id)).toEqual([cancelled]);
    // asked again: it resumes, the cancelled tile prepared again, and ends with every block
    a = (await s.call("schematic_paste", { ...ask, wait_ms: 10_000 })).structuredContent as Answer;
    while (a.state === "running") a = (await s.call("schematic_paste", { ...ask, wait_ms: 10_000 })).structuredContent as Answer;
    expect(a).toMatchObject({ state: "done", tiles: { total: 4, unfinished: 0 } });
    expect(s.world.stateAt(31, 315, 31)).toBe("minecraft:stone");
    const part = (await s.call("part_get", { part_id: a.part.part_id })).structuredContent as Answer;
    expect(part.count).toBe(389_120);
  });
});
