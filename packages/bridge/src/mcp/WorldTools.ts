import { describeMaterial, ok, searchMaterials } from "@mcb/blocks";
import { CHANGE_SOURCES } from "@mcb/engine";
import { z } from "zod";
import type { McpContext } from "../workspace/agent/McpContext.js";
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
  registerProjectContext(tools, m);
  registerMaterialTools(tools, m);
  registerRegionReads(tools, m);
  registerRegionChanges(tools, m);
}

/** project_context. */
function registerProjectContext(tools: ToolTable, m: McpContext): void {
  tools.register(
    "project_context",
    {
      title: "Project context",
      description: "Call first, reuse: area, limits, capabilities, catalog, parts, recent operations, recovery state, change_cursor.",
      inputSchema: {},
      outputSchema: z.strictObject({
        schema_version: z.literal(1),
        project_id: z.string(),
        description: z.string(),
        world: z.strictObject({
          id: z.string(),
          epoch: int,
          minecraft_version: z.string(),
          data_version: int,
          min_y: int,
          max_y: int,
          capabilities: z.array(z.string()),
          saved_by: z.strictObject({ data_version: int, release: z.string() }).optional(),
          read_only: z.string().optional(),
        }),
        area: RegionOut,
        limits: z.record(z.string(), z.number()),
        capabilities: z.record(z.string(), z.boolean()),
        material_catalog: z.strictObject({ version: z.string(), materials: int, blocks: int, items: int, search_default_limit: int, search_max_limit: int }),
        parts: z.array(z.strictObject({ part_id: z.string(), name: z.string(), count: int, retired: z.boolean() })),
        parts_truncated: z.boolean(),
        recent_operations: z.array(
          z.strictObject({
            operation_id: z.string(),
            kind: z.string(),
            status: z.string(),
            written: int,
            total: int,
            undone_by: z.string().nullable(),
            client: z.string().optional(),
          }),
        ),
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
}

/** material_search and material_describe. */
function registerMaterialTools(tools: ToolTable, m: McpContext): void {
  tools.register(
    "material_search",
    {
      title: "Search materials",
      description: "Find block ids: every space-separated token must occur in the id. Search one family, then describe 1–3.",
      inputSchema: {
        query: z.string().max(96).optional().describe('e.g. "spruce trapdoor"'),
        kind: z.enum(["block", "item", "all"]).optional().describe("block (default), item or all"),
        limit: z.number().int().min(1).max(32).optional().describe("page size, default 16"),
        cursor: z.string().max(100).optional().describe("next_cursor"),
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
      description: "One id: default state, property values with their meaning, hints. Items are not placeable.",
      inputSchema: { id: z.string().max(128).describe('id, e.g. "oak_stairs"') },
      outputSchema: z.strictObject({
        catalog_version: z.string(),
        id: z.string(),
        block: z.boolean(),
        item: z.boolean(),
        placeable: z.boolean(),
        default_state: z.string().optional(),
        properties: z.record(z.string(), z.array(z.string())).optional(),
        behavior: z.array(z.string()).optional(),
        meanings: z.record(z.string(), z.string()).optional(),
      }),
      annotations: READ,
    },
    async ({ id }) => toolResult(describeMaterial(m.catalog, id)),
  );
}

/** region_inspect and region_surface. */
function registerRegionReads(tools: ToolTable, m: McpContext): void {
  tools.register(
    "region_inspect",
    {
      title: "Inspect a region",
      description:
        "Blocks of a box (≤ 4096 positions): palette counts; detail blocks adds runs ([palette index, count], y then z then x) and block entity snapshot ids.",
      inputSchema: {
        min: Vec3.describe("corner"),
        max: Vec3.describe("other corner"),
        detail: z.enum(["summary", "blocks"]).optional().describe("summary (default) or blocks"),
      },
      outputSchema: z.strictObject({
        world: z.strictObject({ id: z.string(), epoch: int }),
        region: RegionOut,
        detail: z.enum(["summary", "blocks"]),
        positions: int,
        palette: z.array(z.strictObject({ state: z.string(), count: int, unknown: z.literal(true).optional() })),
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
      description: "Top non-air block and height per sampled column (≤ 4096), run-length encoded. Empty areas say so.",
      inputSchema: {
        min: Column.describe("corner"),
        max: Column.describe("other corner"),
        step: z.number().int().min(1).max(64).optional().describe("every step-th column"),
        y_range: z
          .strictObject({ min: int.describe("lowest y"), max: int.describe("highest y") })
          .optional()
          .describe("levels scanned"),
      },
      outputSchema: z.strictObject({
        region: z.strictObject({ min: z.strictObject({ x: int, z: int }), max: z.strictObject({ x: int, z: int }) }),
        step: int,
        y_range: z.strictObject({ min: int, max: int }),
        columns: z.strictObject({ x: int, z: int }),
        runs: z.array(int.nullable()).optional().describe("[height, top, count]…, z-major; null, -1: air"),
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
}

/** region_changes. */
function registerRegionChanges(tools: ToolTable, m: McpContext): void {
  tools.register(
    "region_changes",
    {
      title: "Changes in a region",
      description:
        "Block changes in a box since a cursor, oldest first, ≤ 100 a page (before null: never known); no cursor: the current one. resync_required: inspect again.",
      inputSchema: {
        min: Vec3.describe("corner"),
        max: Vec3.describe("other corner"),
        since_cursor: z.string().max(64).optional().describe("change cursor"),
        limit: z.number().int().min(1).max(100).optional().describe("page size, default 100"),
        source: z.enum(CHANGE_SOURCES).optional().describe("ours, person or all (default)"),
      },
      outputSchema: z.strictObject({
        changes: z.array(
          z.strictObject({
            seq: int,
            pos: Vec3Out,
            before: z.string().nullable(),
            after: z.string(),
            source: z.enum(["operation", "external"]),
            operation_id: z.string().optional(),
            client: z.string().optional(),
          }),
        ),
        next_cursor: z.string(),
        complete: z.boolean(),
        note: z.string().optional(),
      }),
      annotations: READ,
    },
    async (args) => toolResult(await m.engine.regionChanges(m.ctx, args)),
  );
}
