import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatProcess } from "../../chat/ChatProcess.js";
import { mcbProcess, openWorld } from "../../support.js";
import { box, call, httpClient, serve, stdioClient, type Answer, holderKit } from "./Holder.js";

const kit = holderKit();

async function count(state: string, min: { x: number; y: number; z: number }, max: { x: number; y: number; z: number }, block: string): Promise<number> {
  const w = await openWorld(state);
  try {
    const r = await w.world.read({ minX: min.x, minY: min.y, minZ: min.z, maxX: max.x, maxY: max.y, maxZ: max.z });
    let n = 0;
    for (const i of r.states) if (r.palette[i] === block) n++;
    return n;
  } finally {
    await w.close();
  }
}

const HOLLOW = 114; // a 5 × 6 × 5 hollow box

describe("one embedded world, every front end at once, through the process that holds it", () => {
  it("two MCP clients over HTTP, one over stdio, mcb build, mcb camera capture and mcb chat --console: all land, one key is one operation, a person's edit is kept, each is attributed", async () => {
    const state = kit.state();
    const served = await serve(state, ["--http", "0"]);
    kit.defer(() => served.stop());
    const [a, b, s] = await Promise.all([
      httpClient("agent-a", served.port, served.token),
      httpClient("agent-b", served.port, served.token),
      stdioClient("agent-s", state),
    ]);
    kit.defer(() => Promise.all([a.close(), b.close(), s.close()]));
    const chat = new ChatProcess(["--console", "--state", state]);
    kit.defer(() => chat.kill());
    const cursor = (await call(s, "region_changes", { min: { x: 0, y: 0, z: 0 }, max: { x: 70, y: 100, z: 10 } })).next_cursor as string;
    const recipe = join(state, "..", `${state.split("/").pop()}-d.json`);
    writeFileSync(recipe, JSON.stringify(box(50, 0)));
    kit.defer(() => rmSync(recipe, { force: true }));
    const shot = join(state, "shot.png");

    // All at once: three agents, a person's command-line build and capture, and the chat's agent.
    const apply = (key: string) => ({ idempotency_key: key, wait_ms: 10_000 });
    const [ra, rb, rs, cliBuild, capture, told] = await Promise.all([
      call(a, "build_prepare", { recipe: box(20, 0), apply: apply("a-1") }),
      call(b, "build_prepare", { recipe: box(30, 0), apply: apply("b-1") }),
      call(s, "build_prepare", { recipe: box(40, 0), apply: apply("s-1") }),
      mcbProcess("build", recipe, "--state", state),
      mcbProcess("camera", "capture", "35", "70", "-25", "0", "15", "--width", "160", "--height", "90", "-o", shot, "--state", state),
      (async () => {
        chat.send("/ai build a tower");
        const at = await chat.waitFor(/^Tower finished: \d+ blocks written/, 0, 60_000);
        return chat.texts()[at];
      })(),
    ]);
    for (const r of [ra, rb, rs]) expect(r.operation).toMatchObject({ status: "applied", written: HOLLOW, total: HOLLOW, conflicts: 0 });
    expect(cliBuild.code, cliBuild.stderr).toBe(0);
    expect(cliBuild.stdout).toMatch(/^operation op_\w+ applied$/m);
    expect(cliBuild.stdout).toContain(`written ${HOLLOW} of ${HOLLOW}`);
    expect(capture.code, capture.stderr).toBe(0);
    expect(readFileSync(shot).subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(told).toMatch(/^Tower finished: 146 blocks written by op_\w+, part part_\w+\.$/);

    // One idempotency key through two clients is one operation.
    const plan = await call(a, "build_prepare", { recipe: box(60, 0) });
    const same = { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "shared-key" };
    const [x, y] = await Promise.all([call(a, "build_apply", same), call(b, "build_apply", same)]);
    expect(y.operation_id).toBe(x.operation_id);

    // A person's edit through the holder is kept by an agent's rebuild.
    const edit = await mcbProcess("edit", "20", "66", "0", "minecraft:glass", "--state", state);
    expect(edit.code, edit.stderr).toBe(0);
    const refused = (await a.callTool({ name: "build_prepare", arguments: { recipe: box(20, 0, "minecraft:oak_planks") } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.content[0]!.text).error).toMatchObject({ code: "conflict", details: { reason: "manual_edits", count: 1 } });
    const rebuilt = await call(a, "build_prepare", { recipe: box(20, 0, "minecraft:oak_planks"), on_manual_edit: "keep", apply: apply("a-2") });
    expect(rebuilt.manual_edits.kept).toBe(1);
    expect(rebuilt.operation).toMatchObject({ status: "applied", written: HOLLOW - 1 });
    const inspect = await mcbProcess("inspect", "20", "66", "0", "20", "66", "0", "--state", state);
    expect(inspect.code, inspect.stderr).toBe(0);
    expect(inspect.stdout).toContain("minecraft:glass");

    // One front end undoes another's operation, checked as always: the person's build from the command line, by agent b.
    const cliOp = /^operation (op_\w+) applied$/m.exec(cliBuild.stdout)![1]!;
    const undone = await call(b, "operation_undo_prepare", { operation_id: cliOp, apply: { idempotency_key: "undo-cli" } });
    expect(undone.operation).toMatchObject({ status: "applied", written: HOLLOW });

    // Each front end's operations carry its name.
    const ops = (await call(s, "operation_list", { limit: 50 })).operations as Answer[];
    const by = (re: RegExp): Answer[] => ops.filter((o) => re.test(String(o.client)));
    expect(by(/^agent-a \(http [0-9a-f]{6}\)$/)).toHaveLength(3); // a-1, the shared key, a-2
    expect(by(/^agent-b \(http [0-9a-f]{6}\)$/)).toHaveLength(2); // b-1 and the undo of the command line's build
    expect(by(/^agent-s \(pid \d+\)$/)).toHaveLength(1);
    expect(by(/^mcb build \(pid \d+\)$/)).toHaveLength(1);
    expect(by(/^mcb chat$/)).toHaveLength(1); // the chat's agent's tower
    const cliStatus = await mcbProcess("status", "--state", state);
    expect(cliStatus.stdout).toMatch(/^ {2}op_\w+ build applied 113\/113 \(agent-a \(http [0-9a-f]{6}\)\)$/m); // the rebuild
    const status = await call(b, "operation_status", { operation_id: rb.operation.operation_id });
    expect(status.client).toMatch(/^agent-b \(http [0-9a-f]{6}\)$/);
    const changes = (await call(b, "region_changes", { min: { x: 30, y: 64, z: 0 }, max: { x: 34, y: 69, z: 4 }, since_cursor: cursor })).changes as Answer[];
    expect(changes.length).toBeGreaterThan(0);
    expect(new Set(changes.map((c) => c.client))).toEqual(new Set([status.client]));

    // The chat ends with its input; the holder keeps serving, then stops cleanly.
    expect(await chat.end()).toBe(0);
    await Promise.all([a.close(), b.close(), s.close()]);
    expect(await served.stop()).toBe(0);
    expect(await count(state, { x: 30, y: 64, z: 0 }, { x: 34, y: 69, z: 4 }, "minecraft:stone_bricks")).toBe(HOLLOW);
    expect(await count(state, { x: 50, y: 64, z: 0 }, { x: 54, y: 69, z: 4 }, "minecraft:stone_bricks")).toBe(0); // undone
    expect(await count(state, { x: 20, y: 64, z: 0 }, { x: 24, y: 69, z: 4 }, "minecraft:oak_planks")).toBe(HOLLOW - 1);
    expect(await count(state, { x: 2, y: 64, z: 2 }, { x: 6, y: 71, z: 6 }, "minecraft:stone_bricks")).toBe(146);
  }, 120_000);
});
