import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBlockRegistry, rotateState } from "@mcb/blocks";
import { expandInspectedBlocks, type RegionInspectView } from "@mcb/engine";
import { OPERATION_TYPES } from "@mcb/recipe";
import { cli, mcb, root } from "../support.js";

/** Listed from the start (the build toolset), then what toolsets_enable adds. */
const BUILD_TOOLS = [
  "project_context",
  "material_search",
  "material_describe",
  "region_inspect",
  "build_prepare",
  "batch_undo",
  "build_apply",
  "operation_status",
  "operation_cancel",
  "operation_undo_prepare",
  "part_get",
  "part_define",
  "camera_list",
  "camera_capture",
  "camera_save",
  "region_changes",
  "region_surface",
  "operation_list",
  "part_diff",
  "part_rename",
  "part_delete",
  "toolsets_enable",
];
const MORE_TOOLS = [
  "asset_list",
  "schematic_export",
  "schematic_import_prepare",
  "schematic_paste",
  "terrain_preview",
  "terrain_prepare",
  "terrain_apply",
  "terrain_brush_prepare",
];

const v = (x: number, y: number, z: number) => ({ x, y, z });
/** A hollow stone-brick tower with directional parts, so a 90° turn is visible in the states. */
const TOWER = {
  version: 1,
  operations: [
    { type: "box", min: v(0, 64, 0), max: v(6, 75, 6), block: "minecraft:stone_bricks", hollow: true },
    { type: "line", from: v(0, 76, 0), to: v(6, 76, 0), block: "minecraft:oak_stairs[facing=north]" },
    { type: "line", from: v(0, 76, 6), to: v(6, 76, 6), block: "minecraft:oak_log[axis=x]" },
    { type: "box", min: v(3, 64, 0), max: v(3, 65, 0), block: "minecraft:air" },
  ],
};

let client: Client;
let transport: StdioClientTransport;
const state = mkdtempSync(join(tmpdir(), "mcb-mcp-"));

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
async function ok<T = Record<string, any>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const r = await call(name, args);
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  return r.structuredContent as T;
}
async function applied(plan: Record<string, any>, key: string): Promise<Record<string, any>> {
  let op = await ok("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: key });
  for (let i = 0; i < 500 && (op.status === "queued" || op.status === "running"); i++) {
    await new Promise((r) => setTimeout(r, 20));
    op = await ok("operation_status", { operation_id: op.operation_id });
  }
  expect(op.status).toBe("applied");
  expect(op.saved).toBe(true); // the embedded world saves an operation before answering that it ended
  return op;
}
/** The structured error of a failed call (JSON text content). */
function errorOf(r: CallToolResult): { error: { code: string; retryable: boolean; details?: Record<string, unknown> } } {
  expect(r.isError).toBe(true);
  const t = r.content[0];
  if (t === undefined || t.type !== "text") throw new Error("no text content");
  return JSON.parse(t.text);
}
/** A tool's image (captures: JPEG by default; terrain previews: PNG), decoded by libvips (sharp) to RGBA. */
async function image(r: CallToolResult, mimeType = "image/jpeg"): Promise<{ width: number; height: number; data: Buffer }> {
  const img = r.content.find((c) => c.type === "image");
  if (img === undefined || img.type !== "image") throw new Error("no image content");
  expect(img.mimeType).toBe(mimeType);
  const { data, info } = await sharp(Buffer.from(img.data, "base64")).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}
async function blocks(min: ReturnType<typeof v>, max: ReturnType<typeof v>): Promise<Map<string, string>> {
  const r = await ok<RegionInspectView>("region_inspect", { min, max, detail: "blocks" });
  return new Map(expandInspectedBlocks(r).map((b) => [`${b.pos.x},${b.pos.y},${b.pos.z}`, b.state]));
}

beforeAll(async () => {
  transport = new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--state", state], cwd: root, stderr: "pipe" });
  client = new Client({ name: "mcb-e2e", version: "1.0.0" });
  await client.connect(transport);
});
afterAll(async () => {
  await client.close();
});

describe("mcb mcp over stdio with a real MCP client", () => {
  it("lists the build toolset, adds terrain and schematic tools on toolsets_enable (with list_changed), and shares the building guidance", async () => {
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([...BUILD_TOOLS].sort());
    const early = errorOf(await call("asset_list"));
    expect(early.error).toMatchObject({ code: "not_found", details: { reason: "toolset_not_enabled", toolset: "schematic" } });
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    expect(await ok("toolsets_enable", { toolsets: ["terrain", "schematic"] })).toMatchObject({ enabled: ["build", "terrain", "schematic"] });
    await changed;
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...BUILD_TOOLS, ...MORE_TOOLS].sort());
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
      expect(t.description?.length ?? 0).toBeGreaterThan(20);
    }
    expect(client.getInstructions()).toContain("Workflow");
    // The guidance is also a resource and a prompt, for clients that hide server instructions.
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["mcb://guidance/building"]);
    const read = await client.readResource({ uri: "mcb://guidance/building" });
    expect(read.contents[0]).toMatchObject({ uri: "mcb://guidance/building", mimeType: "text/markdown", text: client.getInstructions() });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["building_guidance"]);
    const prompt = await client.getPrompt({ name: "building_guidance", arguments: { task: "a watchtower" } });
    expect(prompt.messages[0]!.content).toMatchObject({ type: "text", text: `${client.getInstructions()}\n\nTask: a watchtower` });
    const prepare = JSON.stringify(tools.find((t) => t.name === "build_prepare")!.inputSchema);
    for (const op of OPERATION_TYPES) expect(prepare).toContain(`"${op}"`);
    const terrain = JSON.stringify(tools.find((t) => t.name === "terrain_preview")!.inputSchema);
    for (const f of ["hill", "ridge", "plateau", "basin", "channel", "noise", "terrace"]) expect(terrain).toContain(`"${f}"`);
    const ctx = await ok("project_context");
    expect(ctx.capabilities).toMatchObject({ schematics: true, camera: true, terrain: true });
  });

  it("builds a hollow tower, sees it in a camera capture, exports, undoes and re-imports it rotated 90°", async () => {
    const pose = { x: 3.5, y: 66, z: -22, yaw: 0, pitch: -5, width: 320, height: 180 };
    const before = await call("camera_capture", { pose });
    expect(before.isError).toBeFalsy();
    const empty = await image(before);
    expect([empty.width, empty.height]).toEqual([320, 180]);
    // The embedded world's flat ground fills the lower part of the view; nothing stands on it yet.
    const ground = (before.structuredContent as { hit_fraction: number }).hit_fraction;
    expect(ground).toBeGreaterThan(0.2);
    expect(ground).toBeLessThan(0.6);

    const plan = await ok("build_prepare", { recipe: TOWER });
    expect(plan.changed_blocks).toBe(7 * 7 * 12 - 5 * 5 * 10 - 2 + 14);
    const op = await applied(plan, "tower-1");
    const again = await ok("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "tower-1" });
    expect(again.operation_id).toBe(op.operation_id);

    const shot = await call("camera_capture", { pose, after_operation_id: op.operation_id });
    const png = await image(shot);
    let changed = 0;
    for (let i = 0; i < png.data.length; i += 4)
      if (png.data[i] !== empty.data[i] || png.data[i + 1] !== empty.data[i + 1] || png.data[i + 2] !== empty.data[i + 2]) changed++;
    const fraction = changed / (png.width * png.height);
    expect(fraction).toBeGreaterThan(0.03);
    // The tower hides some ground and covers some sky: more of the view hits blocks than before.
    expect((shot.structuredContent as { hit_fraction: number }).hit_fraction).toBeGreaterThan(ground);
    const reread = await call("camera_capture", { capture_id: (shot.structuredContent as { capture_id: string }).capture_id });
    expect((await image(reread)).data.equals(png.data)).toBe(true);

    const original = await blocks(v(0, 64, 0), v(6, 76, 6));
    const asset = await ok("schematic_export", { name: "tower", min: v(0, 64, 0), max: v(6, 76, 6) });
    expect(asset).toMatchObject({ asset_id: "tower", width: 7, height: 13, length: 7, offset: v(0, 0, 0), block_count: plan.changed_blocks });
    expect((await ok("asset_list", { query: "TOW" })).assets).toEqual([asset]);
    // Exports are not capped at one inspection (4,096 positions): 64 × 32 × 64 = 131,072, ground and tower.
    const wide = await ok("schematic_export", { name: "tower_ground", min: v(-32, 48, -32), max: v(31, 79, 31) });
    expect(wide).toMatchObject({ width: 64, height: 32, length: 64, block_count: 64 * 64 * 16 + plan.changed_blocks });

    const undo = await ok("operation_undo_prepare", { operation_id: op.operation_id });
    expect(undo.changed_blocks).toBe(plan.changed_blocks);
    await applied(undo, "tower-undo");
    const cleared = await ok("region_inspect", { min: v(0, 64, 0), max: v(6, 76, 6), detail: "summary" });
    expect(cleared.palette).toEqual([{ state: "minecraft:air", count: 7 * 13 * 7 }]);

    const paste = await ok("schematic_import_prepare", { asset_id: "tower", target: v(100, 64, 0), rotation: 90 });
    expect(paste.region).toEqual({ min: v(94, 64, 0), max: v(100, 76, 6) });
    await applied(paste, "tower-paste-90");
    const rotated = await blocks(v(94, 64, 0), v(100, 76, 6));
    const registry = createBlockRegistry();
    if (!registry.ok) throw new Error("registry");
    for (const [key, s] of original) {
      const [x, y, z] = key.split(",").map(Number) as [number, number, number];
      const want = rotateState(registry.value, registry.value.stateOf(s), 1).canonical;
      expect(rotated.get(`${100 - z},${y},${x}`)).toBe(want);
    }
    expect(rotated.get("100,76,0")).toBe("minecraft:oak_stairs[facing=east,half=bottom,shape=straight,waterlogged=false]");
    expect(rotated.get("94,76,3")).toBe("minecraft:oak_log[axis=z]");
    const repeat = await ok("schematic_import_prepare", { asset_id: "tower", target: v(100, 64, 0), rotation: 90 });
    expect(repeat.changed_blocks).toBe(0);
  });

  it("captures from a viewpoint saved with the CLI while the server runs", async () => {
    const saved = await mcb("camera", "save", "tower_view", "--state", state, "--", "97", "70", "-15", "0", "10", "60");
    expect(saved.code).toBe(0);
    const list = await ok("camera_list");
    expect(list.cameras).toEqual([{ camera_id: "tower_view", pose: { x: 97, y: 70, z: -15, yaw: 0, pitch: 10, fov: 60 } }]);
    expect(list.worker).toMatchObject({ status: "ready", default_width: 640, default_height: 360 });
    const shot = await call("camera_capture", { camera_id: "tower_view" });
    const png = await image(shot);
    expect([png.width, png.height]).toEqual([640, 360]);
    expect(shot.structuredContent).toMatchObject({ status: "completed", camera_id: "tower_view", inside_block: false });
    expect((shot.structuredContent as { hit_fraction: number }).hit_fraction).toBeGreaterThan(0.02);
  });

  it("returns structured errors: wrong hash, oversized text, bad schematic names, unknown assets", async () => {
    const plan = await ok("build_prepare", {
      recipe: { version: 1, operations: [{ type: "box", min: v(50, 64, 50), max: v(50, 64, 50), block: "minecraft:stone" }] },
    });
    const bad = await call("build_apply", { plan_id: plan.plan_id, plan_hash: "0".repeat(64), idempotency_key: "x" });
    expect(errorOf(bad)).toMatchObject({ error: { code: "invalid_request", retryable: false } });
    const big = await call("region_inspect", { min: v(0, 64, 0), max: v(16, 79, 15), detail: "blocks" });
    expect(errorOf(big)).toMatchObject({ error: { code: "budget_exceeded", details: { limit: 4096, positions: 17 * 16 * 16 } } });
    for (const name of ["../x", "a.b", "a b"])
      expect(errorOf(await call("schematic_export", { name, min: v(0, 64, 0), max: v(1, 64, 1) }))).toMatchObject({ error: { code: "invalid_request" } });
    expect(errorOf(await call("schematic_import_prepare", { asset_id: "nope", target: v(0, 64, 0) }))).toMatchObject({ error: { code: "not_found" } });
    expect(errorOf(await call("camera_capture", { camera_id: "nope" }))).toMatchObject({ error: { code: "camera_unavailable" } });
    expect(errorOf(await call("build_apply", { plan_id: 5 }))).toMatchObject({
      error: { code: "invalid_request", details: { reason: "schema", issues: [{ path: "plan_id" }, { path: "plan_hash" }, { path: "idempotency_key" }] } },
    });
    expect(errorOf(await call("operation_status", { operation_id: "x", operationId: "y" }))).toMatchObject({
      error: { code: "invalid_request", details: { reason: "schema" } },
    });
    expect(errorOf(await call("camera_capture", { pose: { x: 0, y: 64, z: 0, yaw: 0, pitch: 100 } }))).toMatchObject({
      error: { code: "invalid_request", details: { issues: [{ path: "pose.pitch" }] } },
    });
    expect(errorOf(await call("no_such_tool"))).toMatchObject({ error: { code: "not_found" } });
    let deep: Record<string, unknown> = { type: "box", min: v(0, 64, 0), max: v(0, 64, 0), block: "minecraft:stone" };
    for (let i = 0; i < 40; i++) deep = { type: "repeat", count: 1, offset: v(0, 0, 0), operations: [deep] };
    expect(errorOf(await call("build_prepare", { recipe: { version: 1, operations: [deep] } }))).toMatchObject({
      error: { code: "invalid_request", details: { reason: "json_shape" } },
    });
    const recipeError = errorOf(
      await call("build_prepare", {
        recipe: { version: 1, operations: [{ type: "box", min: v(0, 64, 0), max: v(1, 64, 1), block: "minecraft:stone", colour: "red" }] },
      }),
    );
    expect(recipeError).toMatchObject({ error: { code: "invalid_request", details: { reason: "schema" } } });
  });

  it("previews terrain, applies a tile, and prepares a brush on it", async () => {
    const recipe = {
      version: 1,
      seed: 5,
      area: { min: { x: 200, z: 0 }, max: { x: 215, z: 15 } },
      base: 64,
      features: [{ type: "hill", center: { x: 207, z: 7 }, radius: 8, height: 6 }],
    };
    const preview = await call("terrain_preview", { recipe });
    const heightmap = await image(preview, "image/png");
    expect([heightmap.width, heightmap.height]).toEqual([16, 16]);
    const p = preview.structuredContent as { terrain_id: string; tiles: { count: number }; world_verified: boolean; stats: { max: number } };
    expect(p.world_verified).toBe(false);
    expect(p.tiles.count).toBe(1);
    const tile = await ok("terrain_prepare", { terrain_id: p.terrain_id, tile_index: 0 });
    expect(tile.status).toBe("prepared");
    await applied(tile, "terrain-tile-0");
    const top = await ok("region_inspect", { min: v(207, p.stats.max, 7), max: v(207, p.stats.max, 7), detail: "summary" });
    expect(top.palette[0].state).toBe("minecraft:grass_block[snowy=false]");
    const again = await ok("terrain_prepare", { terrain_id: p.terrain_id, tile_index: 0 });
    expect(again).toMatchObject({ status: "empty", changed_blocks: 0 });
    const brush = await call("terrain_brush_prepare", {
      brush: { action: "raise", center: { x: 207, z: 7 }, radius: 4, amount: 3, y_range: { min: 50, max: 100 } },
    });
    expect(brush.isError).toBeFalsy();
    const b = brush.structuredContent as { plan_state: string; columns: { changed: number }; dependencies: number };
    expect(b.plan_state).toBe("prepared");
    expect(b.columns.changed).toBeGreaterThan(10);
    expect(b.dependencies).toBeGreaterThan(0);
    const panels = await image(brush, "image/png");
    expect(panels.width).toBeGreaterThan(panels.height * 2); // before | after | delta
    await applied(brush.structuredContent as Record<string, any>, "brush-raise-1");
    const peak = p.stats.max;
    const raisedTop = await ok("region_inspect", { min: v(207, peak, 7), max: v(207, peak + 4, 7), detail: "blocks" });
    expect(expandInspectedBlocks(raisedTop as RegionInspectView).map((b) => b.state)).toEqual([
      "minecraft:dirt",
      "minecraft:dirt",
      "minecraft:dirt",
      "minecraft:grass_block[snowy=false]",
      "minecraft:air",
    ]);
  });
});

describe("agent ergonomics over stdio", () => {
  it("region_surface finds the flat ground of untouched land, then a build's top; region_changes and operation_list page through what happened", async () => {
    const bare = await ok("region_surface", { min: { x: 300, z: 300 }, max: { x: 331, z: 331 } });
    expect(bare).toMatchObject({ columns: { x: 32, z: 32 }, empty_columns: 0, min_height: 63, max_height: 63 });
    const sky = await ok("region_surface", { min: { x: 300, z: 300 }, max: { x: 331, z: 331 }, y_range: { min: 64, max: 319 } });
    expect(sky).toMatchObject({ empty_columns: 1024, min_height: null, max_height: null });
    expect(sky.summary).toMatch(/^empty: every sampled column is air from y=64 to y=319/);
    const cursor = (await ok("project_context")).change_cursor as string;
    const hut = await ok("build_prepare", {
      recipe: { version: 1, operations: [{ type: "box", min: v(300, 64, 300), max: v(303, 67, 303), block: "minecraft:spruce_planks", hollow: true }] },
    });
    const built = await applied(hut, "hut-1");
    const roof = await ok("build_prepare", {
      recipe: { version: 1, operations: [{ type: "box", min: v(300, 68, 300), max: v(303, 68, 303), block: "minecraft:spruce_slab" }] },
    });
    const roofOp = await applied(roof, "hut-roof");
    const surface = await ok("region_surface", { min: { x: 298, z: 300 }, max: { x: 305, z: 300 } });
    // run-length encoded: [height, top, count]…
    const [grass, slab] = [
      surface.palette.indexOf("minecraft:grass_block[snowy=false]"),
      surface.palette.indexOf("minecraft:spruce_slab[type=bottom,waterlogged=false]"),
    ];
    expect(surface.runs).toEqual([63, grass, 2, 68, slab, 4, 63, grass, 2]);
    const sampled = await ok("region_surface", { min: { x: 300, z: 300 }, max: { x: 303, z: 303 }, step: 3, y_range: { min: 60, max: 67 } });
    expect(sampled).toMatchObject({ columns: { x: 2, z: 2 }, runs: [67, 0, 4] });

    // region_changes: every write since the cursor, oldest first, in pages.
    const seen: { pos: { x: number; y: number; z: number }; operation_id?: string; source: string }[] = [];
    let page = await ok("region_changes", { min: v(300, 64, 300), max: v(303, 68, 303), since_cursor: cursor, limit: 50 });
    seen.push(...page.changes);
    while (!page.complete) {
      page = await ok("region_changes", { min: v(300, 64, 300), max: v(303, 68, 303), since_cursor: page.next_cursor, limit: 50 });
      seen.push(...page.changes);
    }
    expect(seen).toHaveLength(hut.changed_blocks + roof.changed_blocks);
    expect(new Set(seen.map((c) => c.operation_id))).toEqual(new Set([built.operation_id, roofOp.operation_id]));
    expect(seen.every((c) => c.source === "operation")).toBe(true);
    expect(errorOf(await call("region_changes", { min: v(0, 0, 0), max: v(1, 1, 1), since_cursor: "ch2.0000000000000000.1.0" }))).toMatchObject({
      error: { code: "resync_required" },
    });

    // operation_list: all operations, two per page, no repeats; filters.
    const ids: string[] = [];
    let list = await ok("operation_list", { limit: 2 });
    ids.push(...list.operations.map((o: { operation_id: string }) => o.operation_id));
    while (list.next_cursor !== undefined) {
      list = await ok("operation_list", { limit: 2, cursor: list.next_cursor });
      ids.push(...list.operations.map((o: { operation_id: string }) => o.operation_id));
    }
    expect(ids[0]).toBe(roofOp.operation_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual((await ok("operation_list", { limit: 50 })).operations.map((o: { operation_id: string }) => o.operation_id));
    const undos = await ok("operation_list", { kind: "undo" });
    expect(undos.operations.length).toBeGreaterThan(0);
    expect(undos.operations.every((o: { kind: string }) => o.kind === "undo")).toBe(true);
    await ok("part_define", { name: "hut walls", operation_id: built.operation_id });
    const part = (await ok("project_context")).parts.find((p: { name: string }) => p.name === "hut walls");
    expect((await ok("operation_list", { part_id: part.part_id })).operations.map((o: { operation_id: string }) => o.operation_id)).toEqual([
      built.operation_id,
    ]);
  });

  it("region_inspect detail blocks returns all 4096 positions of a 64-state cube in under 64 KiB", async () => {
    const colours = [
      "white",
      "orange",
      "magenta",
      "light_blue",
      "yellow",
      "lime",
      "pink",
      "gray",
      "light_gray",
      "cyan",
      "purple",
      "blue",
      "brown",
      "green",
      "red",
      "black",
    ];
    const choices = colours
      .flatMap((c) => [`${c}_wool`, `${c}_concrete`, `${c}_terracotta`, `${c}_stained_glass`])
      .map((b) => ({ block: `minecraft:${b}`, weight: 1 }));
    const cube = await ok("build_prepare", {
      recipe: {
        version: 1,
        seed: 3,
        palettes: { mix: { choices } },
        operations: [{ type: "box", min: v(400, 64, 400), max: v(415, 79, 415), block: { palette: "mix" } }],
      },
    });
    await applied(cube, "cube");
    const r = await call("region_inspect", { min: v(400, 64, 400), max: v(415, 79, 415), detail: "blocks" });
    expect(r.isError).toBeFalsy();
    const text = (r.content[0] as { text: string }).text;
    expect(Buffer.byteLength(text)).toBeLessThan(65536);
    const view = r.structuredContent as unknown as RegionInspectView;
    expect(view.positions).toBe(4096);
    expect(view.palette).toHaveLength(64);
    const all = expandInspectedBlocks(view);
    expect(all).toHaveLength(4096);
    for (const p of view.palette) expect(all.filter((b) => b.state === p.state)).toHaveLength(p.count);
    for (const i of [0, 17, 1234, 4095]) {
      const b = all[i]!;
      const one = await ok("region_inspect", { min: b.pos, max: b.pos, detail: "summary" });
      expect(one.palette).toEqual([{ state: b.state, count: 1 }]);
    }
  });
});

describe("mcb mcp state survives a restart", () => {
  it("operations, schematics and the world persist; undo works from the next process", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-mcp-restart-"));
    const start = async () => {
      const t = new StdioClientTransport({
        command: process.execPath,
        args: [cli, "mcp", "--toolsets", "schematic", "--state", dir],
        cwd: root,
        stderr: "pipe",
      });
      const c = new Client({ name: "restart", version: "1" });
      await c.connect(t);
      const run = async (name: string, args: Record<string, unknown> = {}) => {
        const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
        if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
        return r.structuredContent as Record<string, any>;
      };
      return { c, run };
    };
    const first = await start();
    const cursor = (await first.run("project_context")).change_cursor as string;
    const plan = await first.run("build_prepare", {
      recipe: { version: 1, operations: [{ type: "box", min: v(0, 64, 0), max: v(3, 66, 3), block: "minecraft:bricks", hollow: true }] },
    });
    let op = await first.run("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "persist-1", wait_ms: 5000 });
    expect(op.status).toBe("applied");
    await first.run("schematic_export", { name: "hut", min: v(0, 64, 0), max: v(3, 66, 3) });
    await first.c.close();
    // A person's edit while no server runs: the next one reports it, and the first one's cursor still works.
    expect((await mcb("edit", "9", "64", "9", "minecraft:glass", "--state", dir)).code).toBe(0);

    const second = await start();
    const changes = await second.run("region_changes", { min: v(0, 64, 0), max: v(9, 66, 9), since_cursor: cursor });
    expect(changes.changes.filter((c: { source: string }) => c.source === "operation")).toHaveLength(plan.changed_blocks);
    expect(changes.changes.filter((c: { source: string }) => c.source === "external")).toEqual([
      expect.objectContaining({ pos: v(9, 64, 9), after: "minecraft:glass", source: "external" }),
    ]);
    const ctx = await second.run("project_context");
    expect(ctx.recent_operations.map((o: { operation_id: string }) => o.operation_id)).toContain(op.operation_id);
    expect((await second.run("asset_list")).assets.map((a: { asset_id: string }) => a.asset_id)).toEqual(["hut"]);
    const same = await second.run("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "persist-1" });
    expect(same.operation_id).toBe(op.operation_id);
    const undo = await second.run("operation_undo_prepare", { operation_id: op.operation_id });
    op = await second.run("build_apply", { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "persist-undo", wait_ms: 5000 });
    expect(op.status).toBe("applied");
    expect((await second.run("region_inspect", { min: v(0, 64, 0), max: v(3, 66, 3), detail: "summary" })).palette).toEqual([
      { state: "minecraft:air", count: 48 },
    ]);
    await second.c.close();
  });
});

describe("people's edits over MCP (the three-way merge, part tools)", () => {
  it("a person's edit (mcb edit, through the running server) is kept by a rebuild, found by part_diff, and a redesign over it is a structured conflict", async () => {
    const wall = { version: 1, operations: [{ type: "box", min: v(500, 64, 500), max: v(509, 67, 500), block: "minecraft:stone_bricks" }] };
    const op = await applied(await ok("build_prepare", { recipe: wall }), "merge-wall");
    const part = await ok("part_define", { name: "merge wall", operation_id: op.operation_id });
    expect(part).toMatchObject({ count: 40, revision: 1, retired: false });
    // The person's window, posted from another process into this server's world.
    const edit = await mcb("edit", "--fill", "503", "65", "500", "505", "66", "500", "minecraft:glass", "--state", state);
    expect(edit.code, edit.stderr).toBe(0);
    const diff = await ok("part_diff", { part_id: part.part_id });
    expect(diff).toMatchObject({ positions: 40, changed: 6, observed: 6, boxes: [{ min: v(503, 65, 500), max: v(505, 66, 500) }], boxes_truncated: false });
    const again = await ok("build_prepare", { recipe: wall });
    expect(again).toMatchObject({ changed_blocks: 0, manual_edits: { kept: 6, conflicts: 0, replaced: 0 } });
    const redesign = { version: 1, operations: [{ type: "box", min: v(500, 64, 500), max: v(509, 67, 500), block: "minecraft:bricks" }] };
    const refused = errorOf(await call("build_prepare", { recipe: redesign }));
    expect(refused.error).toMatchObject({
      code: "conflict",
      retryable: false,
      details: { reason: "manual_edits", count: 6, boxes: [{ min: v(503, 65, 500), max: v(505, 66, 500) }] },
    });
    const kept = await ok("build_prepare", { recipe: redesign, on_manual_edit: "keep" });
    expect(kept).toMatchObject({ changed_blocks: 34, manual_edits: { kept: 6, conflicts: 6 } });
    const bad = errorOf(await call("build_prepare", { recipe: redesign, replace: [v(500, 64, 500)] }));
    expect(bad.error).toMatchObject({ code: "invalid_request", details: { reason: "replace_not_manual_edit" } });
    const badPolicy = errorOf(await call("build_prepare", { recipe: redesign, on_manual_edit: "overwrite" }));
    expect(badPolicy.error).toMatchObject({ code: "invalid_request", details: { reason: "schema" } });

    // Parts: rename, undo takes the blocks out (retired), operation_status no longer undoable, delete.
    expect(await ok("part_rename", { part_id: part.part_id, name: "north wall" })).toMatchObject({ name: "north wall", revision: 2 });
    const undo = await ok("operation_undo_prepare", { operation_id: op.operation_id });
    expect(undo).toMatchObject({ changed_blocks: 34, conflicts: { count: 6 }, uncertain_blocks: 0 });
    await applied(undo, "merge-wall-undo");
    expect(await ok("operation_status", { operation_id: op.operation_id })).toMatchObject({ undoable: false });
    // the 6 blocks the person changed are the person's: they left the part with the undone ones, so it retired
    expect(await ok("part_get", { part_id: part.part_id })).toMatchObject({ count: 0, retired: true, revision: 3 });
    expect(await ok("part_delete", { part_id: part.part_id })).toMatchObject({ name: "north wall" });
    expect(errorOf(await call("part_get", { part_id: part.part_id })).error.code).toBe("not_found");
    expect((await blocks(v(503, 65, 500), v(505, 65, 500))).get("504,65,500")).toBe("minecraft:glass");
  });
});
