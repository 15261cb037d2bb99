import { fail } from "@mcb/blocks";
import { ASSET_ID, DROP_CATEGORIES, type DropCategory } from "@mcb/schematic";
import { assetView, exportRegionAsset, pasteOf, preparePasteTile } from "../workspace/SchematicActions.js";
import { z } from "zod";
import type { McpContext } from "../workspace/McpContext.js";
import type { ToolTable } from "./ToolTable.js";
import { AssetOutput, LossOutput, ManualEditInputs, PrepareFields, RegionOut, Vec3 } from "./Schemas.js";
import { toolResult } from "./ToolResult.js";

const int = z.number().int();
/** The library's one rule for asset ids (= schematic_export names = file stems), published in the schema. */
const AssetId = z.string().regex(ASSET_ID, "must match [A-Za-z0-9][A-Za-z0-9_-]{0,63}");
const positive = (what: string) => int.min(1).optional().describe(`${what}; at most the server's policy (its default)`);

/** asset_list, schematic_export, schematic_import_prepare over the local schematic library. */
export function registerSchematicTools(tools: ToolTable, m: McpContext): void {
  tools.register(
    "asset_list",
    {
      title: "List schematic assets",
      description:
        "The local schematic library (≤ 64 files: Sponge .schem v1/v2/v3, Litematica .litematic with one region, vanilla structure .nbt): id, size, block count, format, block entities, DataVersion (after upgrade, and the file's own), offset, SHA-256, bytes, and loss: what an import would leave behind (entities, biomes, …; name those categories in drop to import anyway). query filters ids case-insensitively. Every file is validated; a corrupt one fails the list.",
      inputSchema: { query: z.string().max(64).optional().describe("case-insensitive part of an asset id") },
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
        "Save the dense inclusive region min..max (air included, ≤ 4096 positions, inside the project area) as a Sponge v3 .schem named `name` ([A-Za-z0-9][A-Za-z0-9_-]{0,63}); origin (default min) becomes the paste anchor. Block entities (chests, signs, …) are saved with their data; where the world cannot give that data the export is refused rather than losing it. Returns the asset metadata.",
      inputSchema: {
        name: AssetId.describe("the new asset id: [A-Za-z0-9][A-Za-z0-9_-]{0,63}; an existing asset is never overwritten"),
        min: Vec3.describe("one corner (inclusive)"),
        max: Vec3.describe("the opposite corner (inclusive)"),
        origin: Vec3.optional().describe("the paste anchor (default min)"),
      },
      outputSchema: AssetOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ name, min, max, origin }) => {
      const saved = await exportRegionAsset(m, name, min, max, origin);
      return toolResult(saved.ok ? { ok: true, value: assetView(saved.value) } : saved);
    },
  );

  tools.register(
    "schematic_import_prepare",
    {
      title: "Prepare a schematic paste",
      description:
        "Validate a library asset and prepare a normal checked plan pasting it at target (its anchor), rotated clockwise seen from above by 0/90/180/270 about the target; block states turn with it, block entities keep their data (a paste never replaces an existing block entity's data). Air in the schematic is part of the plan. A paste of more than 100,000 positions is prepared tile by tile (tile_index 0..tiles.count−1, bottom up; apply each with build_apply, then part_define with all their operation_ids). Blocks renamed since the file's version are upgraded (listed in source.upgrades). A file with entities, biomes or other data the world cannot take is refused with a loss report unless those categories are named in drop. Apply with build_apply.",
      inputSchema: {
        asset_id: AssetId.describe("an asset id from asset_list"),
        target: Vec3.describe("where the schematic's anchor lands"),
        rotation: z.literal([0, 90, 180, 270]).optional().describe("clockwise degrees seen from above about the target: 0, 90, 180 or 270 (default 0)"),
        tile_index: int.min(0).optional().describe("which tile of a large paste (0..tiles.count − 1); needed when the paste has more than one"),
        drop: z
          .array(z.enum(DROP_CATEGORIES as [DropCategory, ...DropCategory[]]))
          .max(DROP_CATEGORIES.length)
          .optional()
          .describe(`what you accept to leave out (reported in source.loss): ${DROP_CATEGORIES.join(", ")}`),
        limits: z
          .strictObject({
            max_positions: positive("positions (width × height × length)"),
            max_compressed_bytes: positive("file size in bytes"),
            max_nbt_bytes: positive("decompressed NBT in bytes"),
            max_palette_entries: positive("distinct palette entries"),
            max_block_entities: positive("block entities"),
          })
          .optional()
          .describe("read limits for this file, each at most the server's policy"),
        ...ManualEditInputs,
      },
      outputSchema: z.strictObject({
        ...PrepareFields,
        tile_index: int,
        tiles: z.strictObject({ count: int, tile_blocks: int }),
        tile_bounds: RegionOut,
        source: z.strictObject({ format: AssetOutput.shape.format, source_data_version: int, upgrades: z.record(z.string(), int), loss: LossOutput }),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ asset_id, target, rotation, tile_index, drop, limits, ...resolution }) => {
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
      const r = await preparePasteTile(m, pasteOf(m.registry, asset.value.schematic, target, rotation), tile_index, resolution);
      if (!r.ok) return toolResult(r);
      const { info, upgrades } = asset.value;
      return toolResult({ ok: true, value: { ...r.value, source: { format: info.format, source_data_version: info.sourceDataVersion, upgrades, loss: info.loss } } });
    },
  );
}
