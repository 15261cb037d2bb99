import { describeMaterial, ok, searchMaterials } from "@mcb/blocks";
import { z } from "zod";
import type { McpContext } from "../workspace/McpContext.js";
import type { ToolTable } from "./ToolTable.js";
import { Column, RegionOut, Vec3 } from "./Schemas.js";
import { toolResult } from "./ToolResult.js";

const READ = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;
const int = z.number().int();
const Vec3Out = z.strictObject({ x: int, y: int, z: int });

/** Limits and capabilities the bridge adds to the engine's project context. */
const BRIDGE_LIMITS = { max_schematic_positions: 4096, max_library_files: 64, max_text_response_bytes: 65536 } as const;
const BRIDGE_CAPABILITIES = { schematics: true, camera: true, terrain: true, terrain_brushes: true } as const;

/** project_context, material_search, material_describe, region_inspect, region_surface, region_changes. */
export function registerWorldTools(tools: ToolTable, m: McpContext): void {
  tools.register(
    "project_context",
    {
      title: "Project context",
      description:
        "Scope, world, permitted area, limits, capabilities, material catalog summary, parts, recent operations, recovery state and a change_cursor for region_changes. Call it first and reuse it.",
      inputSchema: {},
      outputSchema: z.strictObject({
        schema_version: z.literal(1),
        project_id: z.string(),
        description: z.string(),
        world: z.strictObject({ id: z.string(), epoch: int, minecraft_version: z.string(), data_version: int, min_y: int, max_y: int, capabilities: z.array(z.string()) }),
        area: RegionOut,
        limits: z.record(z.string(), z.number()),
        capabilities: z.record(z.string(), z.boolean()),
        material_catalog: z.strictObject({ version: z.string(), materials: int, blocks: int, items: int, search_default_limit: int, search_max_limit: int }),
        parts: z.array(z.strictObject({ part_id: z.string(), name: z.string(), count: int, retired: z.boolean() })),
        parts_truncated: z.boolean(),
        recent_operations: z.array(z.strictObject({ operation_id: z.string(), kind: z.string(), status: z.string(), written: int, total: int })),
        recovery_required: z.array(z.string()),
        change_cursor: z.string(),
      }),
      annotations: READ,
    },
    async () => {
      const r = await m.engine.projectContext(m.ctx);
      if (!r.ok) return toolResult(r);
      const c = r.value;
      return toolResult(ok({ ...c, capabilities: { ...c.capabilities, ...BRIDGE_CAPABILITIES }, limits: { ...c.limits, ...BRIDGE_LIMITS } }));
    },
  );

  tools.register(
    "material_search",
    {
      title: "Search materials",
      description:
        "Find block/item ids: every whitespace-separated token must occur in the id (case-insensitive). Search a focused family, then describe 1–3 results; reuse answers while catalog_version is unchanged.",
      inputSchema: {
        query: z.string().max(96).optional().describe('space-separated tokens, e.g. "spruce trapdoor"; empty lists everything (paged)'),
        kind: z.enum(["block", "item", "all"]).optional().describe("block (default), item or all"),
        limit: z.number().int().min(1).max(32).optional().describe("results per page, 1..32, default 16"),
        cursor: z.string().max(100).optional().describe("next_cursor of the previous page (bound to the catalog version, query and kind)"),
      },
      outputSchema: z.strictObject({
        catalog_version: z.string(),
        query: z.string(),
        kind: z.enum(["block", "item", "all"]),
        total: int,
        results: z.array(z.strictObject({ id: z.string(), block: z.boolean(), item: z.boolean() })),
        next_cursor: z.string().optional(),
      }),
      annotations: READ,
    },
    async (args) => toolResult(searchMaterials(m.catalog, args)),
  );

  tools.register(
    "material_describe",
    {
      title: "Describe a material",
      description: "One material id: default state, allowed values per property, behaviour hints. Item-only entries are not placeable.",
      inputSchema: { id: z.string().max(128).describe('material id, e.g. "minecraft:oak_stairs" ("oak_stairs" means the same)') },
      outputSchema: z.strictObject({
        catalog_version: z.string(),
        id: z.string(),
        block: z.boolean(),
        item: z.boolean(),
        placeable: z.boolean(),
        default_state: z.string().optional(),
        properties: z.record(z.string(), z.array(z.string())).optional(),
        behavior: z.array(z.string()).optional(),
      }),
      annotations: READ,
    },
    async ({ id }) => toolResult(describeMaterial(m.catalog, id)),
  );

  tools.register(
    "region_inspect",
    {
      title: "Inspect a region",
      description:
        "Blocks of an inclusive region (≤ 4096 positions) from loaded chunks. summary: palette with counts. blocks: also every position, compactly — blocks.runs is [palette index, count] pairs over the region in y, then z, then x order (x fastest); snapshots lists block entities as {pos, snapshot_id} (a SHA-256 of their data, never the data). For what stands where over a wide area, use region_surface.",
      inputSchema: {
        min: Vec3.describe("one corner (inclusive)"),
        max: Vec3.describe("the opposite corner (inclusive)"),
        detail: z.enum(["summary", "blocks"]).describe("summary: palette counts only; blocks: every position as palette runs"),
      },
      outputSchema: z.strictObject({
        world: z.strictObject({ id: z.string(), epoch: int }),
        region: RegionOut,
        detail: z.enum(["summary", "blocks"]),
        positions: int,
        palette: z.array(z.strictObject({ state: z.string(), count: int })),
        block_entities: int,
        blocks: z.strictObject({ order: z.literal("yzx"), runs: z.array(int) }).optional(),
        snapshots: z.array(z.strictObject({ pos: Vec3Out, snapshot_id: z.string() })).optional(),
        observed_at: z.string(),
      }),
      annotations: READ,
    },
    async (args) => toolResult(await m.engine.regionInspect(m.ctx, args)),
  );

  tools.register(
    "region_surface",
    {
      title: "Surface heights",
      description:
        "What stands where, cheaply: for each sampled column of an area (≤ 4096 columns), the height and state of the highest non-air block (water, leaves and plants count), scanning down through y_range. heights and tops are z-major (row by row of x). An area with no blocks at all says so in summary.",
      inputSchema: {
        min: Column.describe("one corner column (inclusive)"),
        max: Column.describe("the opposite corner column (inclusive)"),
        step: z.number().int().min(1).max(64).optional().describe("sample every step-th column from min (default 1)"),
        y_range: z
          .strictObject({ min: int.describe("lowest level scanned"), max: int.describe("highest level scanned") })
          .optional()
          .describe("levels scanned (default: the project area's full height)"),
      },
      outputSchema: z.strictObject({
        region: z.strictObject({ min: z.strictObject({ x: int, z: int }), max: z.strictObject({ x: int, z: int }) }),
        step: int,
        y_range: z.strictObject({ min: int, max: int }),
        columns: z.strictObject({ x: int, z: int }),
        heights: z.array(int.nullable()),
        tops: z.array(int),
        palette: z.array(z.string()),
        empty_columns: int,
        min_height: int.nullable(),
        max_height: int.nullable(),
        summary: z.string(),
        observed_at: z.string(),
      }),
      annotations: READ,
    },
    async (args) => toolResult(await m.engine.regionSurface(m.ctx, args)),
  );

  tools.register(
    "region_changes",
    {
      title: "Changes in a region",
      description:
        "Block changes (ours and observed player/plugin edits) inside a region since a cursor, oldest first, in pages of ≤ 100. Without since_cursor: returns the current cursor (project_context.change_cursor is one too). resync_required means the cursor is stale (restart, gap, too old): take a fresh region_inspect and a new cursor.",
      inputSchema: {
        min: Vec3.describe("one corner (inclusive)"),
        max: Vec3.describe("the opposite corner (inclusive)"),
        since_cursor: z.string().max(64).optional().describe("cursor from project_context, a previous page, or a call without since_cursor"),
        limit: z.number().int().min(1).max(100).optional().describe("changes per page, 1..100, default 100"),
      },
      outputSchema: z.strictObject({
        changes: z.array(z.strictObject({ seq: int, pos: Vec3Out, state: z.string(), source: z.enum(["operation", "external"]), operation_id: z.string().optional() })),
        next_cursor: z.string(),
        complete: z.boolean(),
      }),
      annotations: READ,
    },
    async (args) => toolResult(await m.engine.regionChanges(m.ctx, args)),
  );
}
