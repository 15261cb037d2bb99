import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { MemoryWorld } from "@mcb/adapter-memory";
import { blockEntityPredicate } from "@mcb/blocks";
import { Engine, openJournal } from "@mcb/engine";
import { afterEach, describe, expect, it } from "vitest";
import { registry } from "../../../blocks/test/registry.js";
import { createMcbMcpServer, mcpContextFor } from "../../src/index.js";
import { TOOLSET_NAMES } from "../../src/workspace/agent/Toolsets.js";
import type { SharedStores } from "../../src/workspace/agent/McpContext.js";

/**
 * terrain_apply: one call applies every tile in the background as one part; it resumes after a
 * stop, and a terrain_id outlives the process that previewed it (the recipe is kept in the state).
 */
const recipe = {
  version: 1,
  seed: 4,
  area: { min: { x: 0, z: 0 }, max: { x: 47, z: 40 } },
  base: 66,
  features: [
    { type: "hill", center: { x: 20, z: 20 }, radius: 14, height: 6 },
    { type: "noise", amplitude: 1, scale: 8 },
  ],
};
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function serve(engine: Engine, world: MemoryWorld, dir: string, shared: SharedStores = {}) {
  const ctx = { principal: { playerId: "alice", role: "agent" as const }, projectId: "p" };
  const server = createMcbMcpServer(mcpContextFor({ engine, registry: registry(), world, dir }, ctx, undefined, shared), "test", { toolsets: TOOLSET_NAMES });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "t", version: "1" });
  await client.connect(b);
  closers.push(() => client.close());
  return async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (r.isError) return { error: JSON.parse((r.content[0] as { text: string }).text).error };
    return r.structuredContent as Record<string, any>;
  };
}

async function fixture() {
  const dir = mkdtempSync(join(tmpdir(), "mcb-tapply-"));
  const world = new MemoryWorld({ hasBlockEntity: blockEntityPredicate(registry()) });
  const journal = openJournal(":memory:");
  const engine = await Engine.open({
    adapter: world,
    journal,
    registry: registry(),
    projects: [{ projectId: "p", ownerId: "alice", area: { minX: -64, minY: -64, minZ: -64, maxX: 127, maxY: 319, maxZ: 127 } }],
  });
  return { dir, world, engine, journal };
}

describe("terrain_apply", () => {
  it("applies every tile and names one part of all their blocks; a second call reports the same, writing nothing", async () => {
    const { dir, world, engine } = await fixture();
    const call = await serve(engine, world, dir);
    const preview = await call("terrain_preview", { recipe, resolution: 96 });
    expect(preview.image).toEqual({ width: 48, height: 41, blocks_per_pixel: 1 });
    const done = await call("terrain_apply", { terrain_id: preview.terrain_id, part_name: "valley", wait_ms: 10_000 });
    expect(done).toMatchObject({
      state: "done",
      tiles: { total: preview.tiles.count, unfinished: 0 },
      current_operation_id: null,
      error: null,
      part: { name: "valley", error: null },
    });
    expect(done.tiles.total).toBeGreaterThan(1);
    expect(done.operation_ids.length).toBe(done.tiles.applied);
    const part = await call("part_get", { part_id: done.part.part_id });
    expect(part.count).toBe(done.written_blocks);
    for (const id of done.operation_ids) expect((await call("operation_status", { operation_id: id })).status).toBe("applied");
    const again = await call("terrain_apply", { terrain_id: preview.terrain_id });
    expect(again).toEqual(done);
    expect((await call("operation_list", {})).operations).toHaveLength(done.operation_ids.length);
  });

  it("stops between tiles on a stop signal and resumes from a new process, the terrain_id still known; the part covers every tile", async () => {
    const { dir, world, engine, journal } = await fixture();
    // The process is asked to stop once the first tile is applied: no further tile starts.
    const first = await serve(engine, world, dir, {
      stop: {
        get requested() {
          return journal.listOperations("p", { status: "applied" }, 1).length > 0;
        },
        add: () => {},
      },
    });
    const preview = await first("terrain_preview", { recipe });
    const stopped = await first("terrain_apply", { terrain_id: preview.terrain_id, part_name: "valley", wait_ms: 10_000 });
    expect(stopped.tiles.applied).toBe(1);
    expect(stopped.state).toBe("stopped");
    expect(stopped.tiles.unfinished).toBeGreaterThan(0);
    expect(stopped.part).toMatchObject({ name: "valley", part_id: null });
    // A new process (new stores) over the same state directory: the terrain_id is found on disk.
    const second = await serve(engine, world, dir);
    const done = await second("terrain_apply", { terrain_id: preview.terrain_id, wait_ms: 10_000 });
    expect(done).toMatchObject({ state: "done", tiles: { unfinished: 0 }, part: { name: "valley", error: null } });
    expect((await second("part_get", { part_id: done.part.part_id })).count).toBe(done.written_blocks);
    expect(await second("terrain_apply", { terrain_id: "t_0000" })).toMatchObject({ error: { code: "not_found" } });
  });
});
