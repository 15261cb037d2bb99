import { fail, mcbError, ok } from "@mcb/blocks";
import {
  BrushSchema,
  PREVIEW_DEFAULT_RESOLUTION,
  TerrainRecipeSchema,
  PREVIEW_MAX_RESOLUTION,
  brushColumns,
  compileTerrain,
  heightPreviewPng,
  parseBrush,
  planBrush,
  scanSurface,
  terrainTilePlan,
  type BoxReader,
} from "@mcb/terrain";
import { z } from "zod";
import type { McpContext } from "../workspace/agent/McpContext.js";
import type { ToolTable } from "./ToolTable.js";
import { ColumnRectOut, ManualEditInputs, PrepareFields, jobOutput } from "./Schemas.js";
import { toolResult } from "./ToolResult.js";
import { batchJob, waitForJob } from "./JobWait.js";
import { terrainBatch } from "../workspace/jobs/TerrainApply.js";

const int = z.number().int();
/** The plan summary, present when a plan was prepared. */
const OptionalPlan = Object.fromEntries(Object.entries(PrepareFields).map(([k, v]) => [k, v.optional()])) as {
  [K in keyof typeof PrepareFields]: z.ZodOptional<(typeof PrepareFields)[K]>;
};

const unknownTerrain = () => fail(mcbError("not_found", "unknown terrain_id: preview the recipe again (the newest 256 recipes are kept)"));

function columnRect(b: { minX: number; minZ: number; maxX: number; maxZ: number }) {
  return { min: { x: b.minX, z: b.minZ }, max: { x: b.maxX, z: b.maxZ } };
}

/** terrain_preview, terrain_prepare, terrain_apply, terrain_brush_prepare. */
export function registerTerrainTools(tools: ToolTable, m: McpContext): void {
  registerTerrainPreview(tools, m);
  registerTerrainPrepare(tools, m);
  registerTerrainApply(tools, m);
  registerTerrainBrush(tools, m);
}

/** terrain_preview. */
function registerTerrainPreview(tools: ToolTable, m: McpContext): void {
  tools.register(
    "terrain_preview",
    {
      title: "Preview a terrain recipe",
      description: "Evaluate a height-field terrain recipe without touching the world: heightmap PNG, terrain_id (kept across restarts), tiles, statistics.",
      inputSchema: {
        recipe: TerrainRecipeSchema,
        resolution: z.number().int().min(8).max(PREVIEW_MAX_RESOLUTION).optional().describe(`longer side in pixels, 8..${PREVIEW_MAX_RESOLUTION}`),
      },
      outputSchema: z.strictObject({
        terrain_id: z.string(),
        area: ColumnRectOut,
        columns: int,
        floor: int,
        ceiling: int,
        tiles: z.strictObject({ size: int, columns: int, rows: int, count: int }),
        stats: z.strictObject({ min: z.number(), max: z.number(), mean: z.number() }),
        image: z.strictObject({ width: int, height: int, blocks_per_pixel: z.number() }),
        world_verified: z.literal(false),
      }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ recipe, resolution }) => {
      const t = compileTerrain(m.registry, recipe);
      if (!t.ok) return toolResult(t);
      m.terrain.put(t.value);
      const { field, tiles } = t.value;
      const png = heightPreviewPng(field, { resolution: resolution ?? PREVIEW_DEFAULT_RESOLUTION, tileSize: tiles.size });
      // The image never has more pixels than the area has columns: say what it has.
      const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
      return toolResult(
        ok({
          terrain_id: t.value.terrainId,
          area: t.value.recipe.area,
          columns: field.width * field.length,
          floor: t.value.floor,
          ceiling: t.value.ceiling,
          tiles,
          stats: t.value.stats,
          image: { width, height, blocks_per_pixel: Math.round((field.width / width) * 1000) / 1000 },
          world_verified: false as const,
        }),
        [{ data: png, mimeType: "image/png" }],
      );
    },
  );
}

/** terrain_prepare: one tile's checked plan. */
function registerTerrainPrepare(tools: ToolTable, m: McpContext): void {
  tools.register(
    "terrain_prepare",
    {
      title: "Prepare one terrain tile",
      description: "A checked plan for one tile of a previewed terrain; changes natural blocks only (builds and water stay).",
      inputSchema: {
        terrain_id: z.string().max(64).describe("from terrain_preview"),
        tile_index: z.number().int().min(0).describe("tile, row-major"),
        ...ManualEditInputs,
      },
      outputSchema: z.strictObject({
        ...OptionalPlan,
        status: z.enum(["prepared", "empty"]),
        changed_blocks: int,
        unchanged_blocks: int,
        filtered_blocks: int,
        tile_index: int,
        tile_bounds: ColumnRectOut,
        preserved_columns: int,
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ terrain_id, tile_index, ...resolution }) => {
      const t = m.terrain.get(terrain_id);
      if (t === undefined) return toolResult(unknownTerrain());
      const tile = terrainTilePlan(m.registry, t, tile_index);
      if (!tile.ok) return toolResult(tile);
      const r = await m.engine.buildPrepare(m.ctx, { plan: tile.value.plan, origin: "terrain", ...resolution });
      if (!r.ok) return toolResult(r);
      const extra = { tile_index, tile_bounds: columnRect(tile.value.bounds), preserved_columns: tile.value.preservedColumns };
      if (r.value.changed_blocks === 0)
        return toolResult(
          ok({
            status: "empty" as const,
            changed_blocks: 0,
            unchanged_blocks: r.value.unchanged_blocks,
            filtered_blocks: r.value.filtered_blocks,
            manual_edits: r.value.manual_edits,
            ...extra,
          }),
        );
      return toolResult(ok({ status: "prepared" as const, ...r.value, ...extra }));
    },
  );
}

/** terrain_apply: every tile, in the background (a job per terrain), with progress. */
function registerTerrainApply(tools: ToolTable, m: McpContext): void {
  tools.register(
    "terrain_apply",
    {
      title: "Apply a whole terrain",
      description: "Prepare and apply every tile of a previewed terrain in the background (as one part with part_name); call again for progress or to resume.",
      inputSchema: {
        terrain_id: z.string().max(64).describe("from terrain_preview"),
        part_name: z.string().min(1).max(64).optional().describe("name all tiles' blocks as a part"),
        on_manual_edit: ManualEditInputs.on_manual_edit,
        wait_ms: z.number().int().min(0).max(10_000).optional().describe("default 2000"),
      },
      outputSchema: jobOutput("terrain_id"),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      job: batchJob(m.terrainJobs, "terrain_id"),
    },
    async ({ terrain_id, part_name, on_manual_edit, wait_ms }, progress) => {
      const t = m.terrain.get(terrain_id);
      if (t === undefined) return toolResult(unknownTerrain());
      const scope = m.engine.projectScope(m.ctx);
      if (!scope.ok) return toolResult(scope);
      const before = m.terrainJobs.status(terrain_id);
      if (before?.state !== "done" || (part_name !== undefined && before.part === null)) {
        m.terrainJobs.start({ engine: m.engine, ctx: m.ctx, log: m.log, interrupt: m.stop }, terrainBatch(m.registry, t), {
          ...(part_name === undefined ? {} : { partName: part_name }),
          ...(on_manual_edit === undefined ? {} : { onManualEdit: on_manual_edit }),
        });
      }
      const { id, ...status } = await waitForJob(m.terrainJobs, terrain_id, wait_ms ?? 2000, progress);
      return toolResult(ok({ terrain_id: id, ...status }));
    },
  );
}

/** terrain_brush_prepare. */
function registerTerrainBrush(tools: ToolTable, m: McpContext): void {
  tools.register(
    "terrain_brush_prepare",
    {
      title: "Prepare a relative terrain edit",
      description: "Raise, lower, flatten or smooth the live surface around a column; returns before/after/delta images and a plan.",
      inputSchema: { brush: BrushSchema, ...ManualEditInputs },
      outputSchema: z.strictObject({
        ...OptionalPlan,
        plan_state: z.enum(["prepared", "empty"]),
        columns: z.strictObject({ scanned: int, changed: int, skipped: z.record(z.string(), int) }),
        raised: int,
        lowered: int,
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ brush, ...resolution }) => {
      const b = parseBrush(brush);
      if (!b.ok) return toolResult(b);
      // Scans go through region_inspect: the same permission, area and 4096-position limit as any read.
      const read: BoxReader = (box) =>
        m.engine.regionBlocks(m.ctx, { min: { x: box.minX, y: box.minY, z: box.minZ }, max: { x: box.maxX, y: box.maxY, z: box.maxZ } });
      const scan = await scanSurface(read, brushColumns(b.value), b.value.y_range.min, b.value.y_range.max);
      if (!scan.ok) return toolResult(scan);
      const r = planBrush(m.registry, b.value, scan.value);
      if (!r.ok) return toolResult(r);
      const image = [{ data: r.value.png, mimeType: "image/png" as const }];
      const summary = { columns: r.value.columns, raised: r.value.raised, lowered: r.value.lowered };
      if (r.value.plan === null) return toolResult(ok({ plan_state: "empty" as const, ...summary }), image);
      const prepared = await m.engine.buildPrepare(m.ctx, { plan: r.value.plan, origin: "brush", ...resolution });
      if (!prepared.ok) return toolResult(prepared);
      return toolResult(ok({ plan_state: "prepared" as const, ...prepared.value, ...summary }), image);
    },
  );
}
