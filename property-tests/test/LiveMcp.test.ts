import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMinestomHost, type MinestomHost } from "../src/index.js";

/**
 * `mcb mcp --world port://…` with a real MCP client over stdio against the live Minestom host:
 * the tools of docs/PROTOCOL.md work on a real server world (all but part_diff, part_rename and part_delete, tested on the embedded world).
 */
const root = fileURLToPath(new URL("../../", import.meta.url));
const cli = join(root, "packages/bridge/dist/bin.js");
const v = (x: number, y: number, z: number) => ({ x, y, z });

describe("live: mcb mcp on a server world through the world port", () => {
  let host: MinestomHost;
  let client: Client;
  const state = mkdtempSync(join(tmpdir(), "mcb-live-mcp-"));
  const used = new Set<string>();

  async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    used.add(name);
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }
  async function ok<T = Record<string, any>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const r = await call(name, args);
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
    return r.structuredContent as T;
  }
  async function applied(plan: Record<string, any>, key: string): Promise<Record<string, any>> {
    let op = await ok("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: key });
    for (let i = 0; i < 500 && (op.status === "queued" || op.status === "running" || op.status === "applying"); i++) {
      await new Promise((r) => setTimeout(r, 20));
      op = await ok("operation_status", { operation_id: op.operation_id });
    }
    expect(op.status).toBe("applied");
    return op;
  }

  beforeAll(async () => {
    host = await startMinestomHost();
    // The token travels in the environment only: never on the command line.
    const env: Record<string, string> = { ...(process.env as Record<string, string>), MCB_PORT_TOKEN: host.token };
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, "mcp", "--toolsets", "all", "--world", host.url, "--state", state],
      cwd: root,
      env,
      stderr: "pipe",
    });
    client = new Client({ name: "mcb-live", version: "1.0.0" });
    await client.connect(transport);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await host?.stop();
    host?.dispose();
    rmSync(state, { recursive: true, force: true });
  }, 60_000); // the host saves on the way out: longer on CI's two busy cores

  it("runs every tool against the live server", async () => {
    const ctx = await ok("project_context");
    expect(ctx.world).toMatchObject({ minecraft_version: "26.2", data_version: 4903 });
    expect((await ok("material_search", { query: "oak stairs" })).results.length).toBeGreaterThan(0);
    expect((await ok("material_describe", { id: "minecraft:oak_stairs" })).placeable).toBe(true);
    expect((await ok("region_inspect", { min: v(0, 63, 0), max: v(3, 63, 3), detail: "summary" })).palette).toEqual([
      { state: "minecraft:grass_block[snowy=false]", count: 16 },
    ]);

    const tower = {
      version: 1,
      operations: [
        { type: "box", min: v(10, 64, 10), max: v(14, 72, 14), block: "minecraft:stone_bricks", hollow: true },
        { type: "line", from: v(10, 73, 10), to: v(14, 73, 10), block: "minecraft:oak_stairs[facing=north]" },
      ],
    };
    const plan = await ok("build_prepare", { recipe: tower });
    const op = await applied(plan, "tower");
    expect((await ok("operation_status", { operation_id: op.operation_id })).status).toBe("applied");
    expect(op.counters.written).toBe(plan.changed_blocks);
    expect((await ok("region_inspect", { min: v(10, 73, 10), max: v(10, 73, 10), detail: "summary" })).palette[0].state).toMatch(
      /^minecraft:oak_stairs\[facing=north/,
    );
    const part = await ok("part_define", { name: "tower", operation_id: op.operation_id });
    expect((await ok("part_get", { part_id: part.part_id })).count).toBe(plan.changed_blocks);

    expect((await ok("camera_list")).cameras).toBeDefined();
    const shot = await call("camera_capture", { pose: { x: 12.5, y: 69, z: 2, yaw: 0, pitch: 0 }, after_operation_id: op.operation_id });
    const img = shot.content.find((c) => c.type === "image");
    expect(img?.type).toBe("image");
    if (img?.type === "image") expect([img.mimeType, (await sharp(Buffer.from(img.data, "base64")).metadata()).width]).toEqual(["image/jpeg", 640]);
    // The view reaches past the chunks the server keeps loaded: those sections draw nothing and are counted.
    const meta = shot.structuredContent as { sections_unloaded: number; sections_with_blocks: number; hit_fraction: number };
    expect(meta.sections_unloaded).toBeGreaterThan(0);
    expect(meta.sections_with_blocks).toBeGreaterThan(0);
    expect(meta.hit_fraction).toBeGreaterThan(0.05);
    const far = await call("camera_capture", { pose: { x: 3000, y: 100, z: 3000, yaw: 0, pitch: 0 } });
    expect(far.isError).toBe(true);
    expect(JSON.parse((far.content[0] as { text: string }).text)).toMatchObject({
      error: { code: "camera_unavailable", details: { reason: "scene_not_loaded" } },
    });

    const asset = await ok("schematic_export", { name: "live_tower", min: v(10, 64, 10), max: v(14, 73, 14) });
    expect((await ok("asset_list", { query: "live" })).assets).toEqual([asset]);
    const paste = await ok("schematic_import_prepare", { asset_id: "live_tower", target: v(30, 64, 10), rotation: 90 });
    await applied(paste, "paste");
    expect((await ok("region_inspect", { min: v(30, 64, 10), max: v(34, 73, 14), detail: "summary" })).palette.map((p: { state: string }) => p.state)).toEqual(
      expect.arrayContaining(["minecraft:stone_bricks", expect.stringMatching(/^minecraft:oak_stairs\[facing=east/)]),
    );

    const undo = await ok("operation_undo_prepare", { operation_id: op.operation_id });
    await applied(undo, "undo-tower");
    expect((await ok("region_inspect", { min: v(10, 64, 10), max: v(14, 73, 14), detail: "summary" })).palette).toEqual([
      { state: "minecraft:air", count: 250 },
    ]);

    const big = await ok("build_prepare", {
      recipe: { version: 1, operations: [{ type: "box", min: v(-40, 74, -40), max: v(-1, 83, -1), block: "minecraft:glass" }] },
    });
    const started = await ok("build_apply", { plan_id: big.plan_id, plan_hash: big.plan_hash, idempotency_key: "big" });
    const cancelled = await ok("operation_cancel", { operation_id: started.operation_id });
    expect(["cancelled", "applied", "queued", "applying"]).toContain(cancelled.status);

    const recipe = {
      version: 1,
      seed: 5,
      area: { min: { x: 20, z: 30 }, max: { x: 35, z: 45 } },
      base: 63,
      features: [{ type: "hill", center: { x: 27, z: 37 }, radius: 8, height: 6 }],
    };
    const preview = await call("terrain_preview", { recipe });
    expect(preview.isError).toBeFalsy();
    const p = preview.structuredContent as { terrain_id: string; stats: { max: number } };
    const tile = await ok("terrain_prepare", { terrain_id: p.terrain_id, tile_index: 0 });
    await applied(tile, "terrain");
    expect((await ok("region_inspect", { min: v(27, p.stats.max, 37), max: v(27, p.stats.max, 37), detail: "summary" })).palette[0].state).toBe(
      "minecraft:grass_block[snowy=false]",
    );
    const brush = await ok("terrain_brush_prepare", {
      brush: { action: "raise", center: { x: 27, z: 37 }, radius: 4, amount: 2, y_range: { min: 40, max: 100 } },
    });
    await applied(brush, "brush");

    const surface = await ok("region_surface", { min: { x: 0, z: 0 }, max: { x: 3, z: 0 } });
    expect(surface.runs).toEqual([63, 0, 4]); // the flat world's grass: one run of four columns
    const changes = await ok("region_changes", { min: v(10, 64, 10), max: v(14, 73, 14), since_cursor: ctx.change_cursor, limit: 100 });
    expect(changes.changes.length).toBeGreaterThan(0);
    expect((await ok("operation_list", { limit: 50 })).operations.length).toBeGreaterThanOrEqual(6);

    const TOOLS = [
      "project_context",
      "material_search",
      "material_describe",
      "region_inspect",
      "build_prepare",
      "build_apply",
      "operation_status",
      "operation_cancel",
      "operation_undo_prepare",
      "part_get",
      "part_define",
      "camera_list",
      "camera_capture",
      "asset_list",
      "schematic_export",
      "schematic_import_prepare",
      "terrain_preview",
      "terrain_prepare",
      "terrain_brush_prepare",
      "region_changes",
      "region_surface",
      "operation_list",
    ];
    expect([...used].sort()).toEqual([...TOOLS].sort());
  }, 180_000);
});
