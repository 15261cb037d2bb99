import { ASSET_ID } from "@mcb/schematic";
import { assetView, exportRegionAsset, preparePaste } from "../actions/SchematicActions.js";
import { z } from "zod";
import type { McpContext } from "./McpContext.js";
import type { ToolTable } from "./ToolTable.js";
import { AssetOutput, PrepareOutput, Vec3 } from "./Schemas.js";
import { toolResult } from "./ToolResult.js";

/** The library's one rule for asset ids (= schematic_export names = file stems), published in the schema. */
const AssetId = z.string().regex(ASSET_ID, "must match [A-Za-z0-9][A-Za-z0-9_-]{0,63}");

/** asset_list, schematic_export, schematic_import_prepare over the local .schem library. */
export function registerSchematicTools(tools: ToolTable, m: McpContext): void {
  tools.register(
    "asset_list",
    {
      title: "List schematic assets",
      description: "The local .schem library (≤ 64 files): id, size, block count, DataVersion, offset, SHA-256, bytes. query filters ids case-insensitively. Every file is validated; a corrupt one fails the list.",
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
        "Save the dense inclusive region min..max (air included, ≤ 4096 positions, inside the project area) as a Sponge v2 .schem named `name` ([A-Za-z0-9][A-Za-z0-9_-]{0,63}); origin (default min) becomes the paste anchor. Regions with block entities are refused rather than losing their data. Returns the asset metadata.",
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
        "Validate a library asset and prepare a normal checked plan pasting it at target (its anchor), rotated clockwise seen from above by 0/90/180/270 about the target; block states turn with it. Air in the schematic is part of the plan. Apply with build_apply.",
      inputSchema: {
        asset_id: AssetId.describe("an asset id from asset_list"),
        target: Vec3.describe("where the schematic's anchor lands"),
        rotation: z.literal([0, 90, 180, 270]).optional().describe("clockwise degrees seen from above about the target: 0, 90, 180 or 270 (default 0)"),
      },
      outputSchema: PrepareOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ asset_id, target, rotation }) => {
      const asset = m.library.load(asset_id);
      if (!asset.ok) return toolResult(asset);
      return toolResult(await preparePaste(m, asset.value.schematic, target, rotation));
    },
  );
}
