import { describeMaterial, ok, searchMaterials } from "@mcb/blocks";
import { z } from "zod";
import type { McpContext } from "./McpContext.js";
import type { ToolTable } from "./ToolTable.js";
import { Region, Vec3 } from "./Schemas.js";
import { toolResult } from "./ToolResult.js";

const READ = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** project_context, material_search, material_describe, region_inspect. */
export function registerWorldTools(tools: ToolTable, m: McpContext): void {
  tools.register(
    "project_context",
    {
      title: "Project context",
      description: "Scope, world, permitted area, limits, capabilities, material catalog summary, parts, recent operations and recovery state. Call it first and reuse it.",
      inputSchema: {},
      outputSchema: z.looseObject({
        schema_version: z.literal(1),
        project_id: z.string(),
        world: z.looseObject({ id: z.string(), epoch: z.number(), minecraft_version: z.string(), data_version: z.number() }),
        area: Region,
        limits: z.record(z.string(), z.number()),
        capabilities: z.record(z.string(), z.boolean()),
        material_catalog: z.looseObject({ version: z.string() }),
        recent_operations: z.array(z.looseObject({ operation_id: z.string(), status: z.string() })),
        recovery_required: z.array(z.string()),
      }),
      annotations: READ,
    },
    async () => {
      const r = await m.engine.projectContext(m.ctx);
      if (!r.ok) return toolResult(r);
      const c = r.value;
      return toolResult(
        ok({
          ...c,
          capabilities: { ...c.capabilities, schematics: true, camera: true, terrain: true, terrain_brushes: true },
          limits: { ...c.limits, max_schematic_positions: 4096, max_library_files: 64, max_text_response_bytes: 65536 },
        }),
      );
    },
  );

  tools.register(
    "material_search",
    {
      title: "Search materials",
      description: "Find block/item ids: every whitespace-separated token must match the id (case-insensitive). kind block (default), item or all; limit 1..32 (default 16); cursor continues a page and is bound to the catalog version and filter.",
      inputSchema: {
        query: z.string().max(96).optional(),
        kind: z.enum(["block", "item", "all"]).optional(),
        limit: z.number().int().min(1).max(32).optional(),
        cursor: z.string().max(100).optional(),
      },
      outputSchema: z.looseObject({
        catalog_version: z.string(),
        query: z.string(),
        kind: z.string(),
        total: z.number().int(),
        results: z.array(z.object({ id: z.string(), block: z.boolean(), item: z.boolean() })),
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
      description: "One exact namespaced id (e.g. minecraft:oak_stairs): default state, allowed values per property, behaviour hints. Item-only entries are not placeable.",
      inputSchema: { id: z.string().max(128) },
      outputSchema: z.looseObject({ catalog_version: z.string(), id: z.string(), block: z.boolean(), item: z.boolean(), placeable: z.boolean() }),
      annotations: READ,
    },
    async ({ id }) => toolResult(describeMaterial(m.catalog, id, { requireNamespace: true })),
  );

  tools.register(
    "region_inspect",
    {
      title: "Inspect a region",
      description: "Blocks of an inclusive region (≤ 4096 positions) from loaded chunks: palette with counts (summary) or exact {pos, state, snapshot_id?} (blocks). Block entities show only a SHA-256 snapshot_id. Responses over 64 KiB fail: use summary or a smaller region.",
      inputSchema: { min: Vec3, max: Vec3, detail: z.enum(["summary", "blocks"]) },
      outputSchema: z.looseObject({
        region: Region,
        detail: z.enum(["summary", "blocks"]),
        positions: z.number().int(),
        palette: z.array(z.object({ state: z.string(), count: z.number().int() })),
        block_entities: z.number().int(),
        blocks: z.array(z.looseObject({ pos: Vec3, state: z.string(), snapshot_id: z.string().optional() })).optional(),
        observed_at: z.string(),
      }),
      annotations: READ,
    },
    async (args) => toolResult(await m.engine.regionInspect(m.ctx, args)),
  );
}
