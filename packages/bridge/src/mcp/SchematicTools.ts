import { fail, ok } from "@mcb/blocks";
import { ASSET_ID, DROP_CATEGORIES, type DropCategory } from "@mcb/schematic";
import { assetView, pasteOf, preparePasteTile } from "../workspace/jobs/SchematicActions.js";
import { exportRegionAsset } from "../workspace/jobs/RegionExport.js";
import { z } from "zod";
import type { McpContext } from "../workspace/agent/McpContext.js";
import type { ToolTable } from "./ToolTable.js";
import { AssetOutput, LossOutput, ManualEditInputs, PrepareFields, RegionOut, Vec3, jobOutput } from "./Schemas.js";
import { toolResult } from "./ToolResult.js";
import { PreviewInput, PreviewOutput, withPreview } from "./CameraTools.js";
import type { ApplyConsent } from "./ApplyConsent.js";
import { batchJob, waitForJob } from "./JobWait.js";
import { pasteBatch } from "../workspace/jobs/SchematicJobs.js";

const int = z.number().int();
/** The library's one rule for asset ids (= schematic_export names = file stems), published in the schema. */
const AssetId = z.string().regex(ASSET_ID, "must match [A-Za-z0-9][A-Za-z0-9_-]{0,63}");
const positive = (what: string) => int.min(1).optional().describe(what);
/** What a paste may leave out of the file (reported all the same). */
const Drop = z
  .array(z.enum(DROP_CATEGORIES as [DropCategory, ...DropCategory[]]))
  .max(DROP_CATEGORIES.length)
  .optional()
  .describe("accepted losses");

/** asset_list, schematic_export, schematic_import_prepare and schematic_paste over the local schematic library. */
export function registerSchematicTools(tools: ToolTable, m: McpContext, consent: ApplyConsent): void {
  registerAssetsAndExport(tools, m);
  registerSchematicImport(tools, m);
  registerSchematicPaste(tools, m, consent);
}

/** asset_list and schematic_export. */
function registerAssetsAndExport(tools: ToolTable, m: McpContext): void {
  tools.register(
    "asset_list",
    {
      title: "List schematic assets",
      description: "The local schematic library (.schem, .litematic, .nbt): size, format, offset, and what an import would lose.",
      inputSchema: { query: z.string().max(64).optional().describe("part of an id") },
      outputSchema: z.strictObject({ assets: z.array(AssetOutput) }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ query }) => {
      const r = m.library.list(query);
      return toolResult(r.ok ? { ok: true, value: { assets: r.value.map(assetView) } } : r);
    },
  );

  tools.register(
    "schematic_export",
    {
      title: "Export a region as a schematic",
      description:
        "Save a box (air and block entity data included; ≤ 20,000,000 positions by default) as a Sponge v3 .schem; origin (default min) is its paste anchor.",
      inputSchema: {
        name: AssetId.describe("new asset id"),
        min: Vec3.describe("corner"),
        max: Vec3.describe("other corner"),
        origin: Vec3.optional().describe("paste anchor, default min"),
      },
      outputSchema: AssetOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ name, min, max, origin }) => {
      const saved = await exportRegionAsset(m, name, min, max, origin);
      return toolResult(saved.ok ? { ok: true, value: assetView(saved.value) } : saved);
    },
  );
}

/** schematic_import_prepare. */
function registerSchematicImport(tools: ToolTable, m: McpContext): void {
  tools.register(
    "schematic_import_prepare",
    {
      title: "Prepare a schematic paste",
      description:
        "Prepare pasting a library asset with its anchor at target, rotated clockwise 0–270. Air in it clears blocks. Losses (entities, biomes) refuse until named in drop. Over 100,000 positions: prepare tiles 0, 1, … in order.",
      inputSchema: {
        asset_id: AssetId.describe("asset id"),
        target: Vec3.describe("anchor lands here"),
        rotation: z.literal([0, 90, 180, 270]).optional().describe("clockwise"),
        tile_index: int.min(0).optional().describe("tile, from 0"),
        include_air: z.boolean().optional().describe("default true: air clears"),
        drop: Drop,
        limits: z
          .strictObject({
            max_positions: positive("positions"),
            max_compressed_bytes: positive("file bytes"),
            max_nbt_bytes: positive("NBT bytes"),
            max_palette_entries: positive("palette entries"),
            max_block_entities: positive("block entities"),
          })
          .optional()
          .describe("read limits ≤ server's"),
        ...ManualEditInputs,
        preview: PreviewInput.optional(),
      },
      outputSchema: z.strictObject({
        ...PrepareFields,
        tile_index: int,
        tiles: z.strictObject({ count: int, tile_blocks: int }),
        tile_bounds: RegionOut,
        paste_bounds: RegionOut,
        source: z.strictObject({
          format: AssetOutput.shape.format,
          source_data_version: int,
          upgrades: z.record(z.string(), int),
          loss: LossOutput,
          notes: z.array(z.string()),
        }),
        preview: PreviewOutput.optional(),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ asset_id, target, rotation, tile_index, include_air, drop, limits, preview, ...resolution }) => {
      const l = m.library.limitsFor({
        maxPositions: limits?.max_positions,
        maxCompressedBytes: limits?.max_compressed_bytes,
        maxNbtBytes: limits?.max_nbt_bytes,
        maxPaletteEntries: limits?.max_palette_entries,
        maxBlockEntities: limits?.max_block_entities,
      });
      if (!l.ok) {
        // The library names its fields in camelCase; the client wrote them in snake_case under limits.
        const wire = String(l.error.details?.field ?? "").replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
        return toolResult(fail({ ...l.error, details: { ...l.error.details, field: `limits.${wire}` } }));
      }
      const asset = m.library.load(asset_id, { drop: drop ?? [], limits: l.value });
      if (!asset.ok) return toolResult(asset);
      const r = await preparePasteTile(m, pasteOf(m.registry, asset.value.schematic, target, rotation, include_air === false), tile_index, resolution);
      if (!r.ok) return toolResult(r);
      const { info, upgrades } = asset.value;
      const prepared = ok({
        ...r.value,
        source: { format: info.format, source_data_version: info.sourceDataVersion, upgrades, loss: info.loss, notes: info.notes },
      });
      return preview === undefined ? toolResult(prepared) : withPreview(m, prepared, preview);
    },
  );
}

/**
 * schematic_paste: a library asset of any size (up to the library's read limits) pasted in one call,
 * in the background as `mcb schem import` runs it (the same batch and progress file, so either
 * resumes the other's work): its tiles prepared and applied in order, each checked and undoable,
 * their blocks one part. Asking again gives its progress; while a call waits, a client that sent a
 * progress token is told the blocks written. A client that can ask its person does so first for a
 * paste of at least the server's size threshold.
 */
function registerSchematicPaste(tools: ToolTable, m: McpContext, consent: ApplyConsent): void {
  tools.register(
    "schematic_paste",
    {
      title: "Paste a schematic whole",
      description:
        "Paste a library asset of any size in one call: its tiles prepared and applied in the background, checked and undoable, one part; call again for progress or to resume.",
      inputSchema: {
        asset_id: AssetId.describe("asset id"),
        target: Vec3.describe("anchor lands here"),
        rotation: z.literal([0, 90, 180, 270]).optional().describe("clockwise"),
        include_air: z.boolean().optional().describe("default true: air clears"),
        drop: Drop,
        part_name: z.string().min(1).max(64).optional().describe("default: paste <paste_id>"),
        on_manual_edit: ManualEditInputs.on_manual_edit,
        wait_ms: z.number().int().min(0).max(10_000).optional().describe("default 2000"),
      },
      outputSchema: jobOutput("paste_id"),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      job: batchJob(m.pasteJobs, "paste_id"),
    },
    async ({ asset_id, target, rotation, include_air, drop, part_name, on_manual_edit, wait_ms }, progress) => {
      const asset = m.library.load(asset_id, { drop: drop ?? [] });
      if (!asset.ok) return toolResult(asset);
      const paste = pasteOf(m.registry, asset.value.schematic, target, rotation, include_air === false);
      const batch = pasteBatch(paste, asset.value.info.sha256, target, rotation ?? 0, include_air === false);
      const before = m.pasteJobs.status(batch.id);
      if (before?.state !== "done" && !m.pasteJobs.running(batch.id)) {
        const positions = paste.box();
        const asked = await consent.confirm(
          `Paste ${asset_id} at ${target.x} ${target.y} ${target.z}? It covers x ${positions.minX}..${positions.maxX}, y ${positions.minY}..${positions.maxY}, z ${positions.minZ}..${positions.maxZ} in ${paste.count} tile(s).`,
          volume(positions),
          { paste_id: batch.id },
        );
        if (!asked.ok) return toolResult(asked);
        m.pasteJobs.start({ engine: m.engine, ctx: m.ctx, log: m.log, interrupt: m.stop }, batch, {
          partName: part_name ?? before?.part?.name ?? `paste ${batch.id}`,
          ...(on_manual_edit === undefined ? {} : { onManualEdit: on_manual_edit }),
        });
      }
      const { id, ...status } = await waitForJob(m.pasteJobs, batch.id, wait_ms ?? 2000, progress);
      return toolResult(ok({ paste_id: id, ...status }));
    },
  );
}

function volume(b: { minX: number; minY: number; minZ: number; maxX: number; maxY: number; maxZ: number }): number {
  return (b.maxX - b.minX + 1) * (b.maxY - b.minY + 1) * (b.maxZ - b.minZ + 1);
}
