import { blockEntityPredicate, fail, mcbError, type QuarterTurns } from "@mcb/blocks";
import { schematicFromRegion, schematicToPlan } from "@mcb/schematic";
import { z } from "zod";
import type { McpContext } from "./McpContext.js";
import type { ToolTable } from "./ToolTable.js";
import { readDenseRegion } from "./RegionBlocks.js";
import { AssetOutput, PrepareOutput, Vec3 } from "./Schemas.js";
import { toolResult } from "./ToolResult.js";

const ASSET = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** asset_list, schematic_export, schematic_import_prepare over the local .schem library. */
export function registerSchematicTools(tools: ToolTable, m: McpContext): void {
  const hasBlockEntity = blockEntityPredicate(m.registry);

  tools.register(
    "asset_list",
    {
      title: "List schematic assets",
      description: "The local .schem library (≤ 64 files): id, size, block count, DataVersion, offset, SHA-256, bytes. query filters ids case-insensitively. Every file is validated; a corrupt one fails the list.",
      inputSchema: { query: z.string().max(64).optional() },
      outputSchema: z.object({ assets: z.array(AssetOutput) }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ query }) => {
      const r = m.library.list(query);
      return toolResult(r.ok ? { ok: true, value: { assets: r.value } } : r);
    },
  );

  tools.register(
    "schematic_export",
    {
      title: "Export a region as a schematic",
      description:
        "Save the dense inclusive region min..max (air included, ≤ 4096 positions, inside the project area) as a Sponge v2 .schem named `name` ([A-Za-z0-9][A-Za-z0-9_-]{0,63}); origin (default min) becomes the paste anchor. Regions with block entities are refused rather than losing their data. Returns the asset metadata.",
      inputSchema: { name: z.string().min(1).max(64), min: Vec3, max: Vec3, origin: Vec3.optional() },
      outputSchema: AssetOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ name, min, max, origin }) => {
      if (!ASSET.test(name)) return toolResult(fail(mcbError("invalid_request", "name must match [A-Za-z0-9][A-Za-z0-9_-]{0,63} (it becomes the asset id)", { reason: "asset_id" })));
      const read = await readDenseRegion(m, min, max);
      if (!read.ok) return toolResult(read);
      const { min: rmin, max: rmax, palette, states, digests } = read.value;
      const info = await m.world.info();
      const s = schematicFromRegion({
        region: { box: { minX: rmin.x, minY: rmin.y, minZ: rmin.z, maxX: rmax.x, maxY: rmax.y, maxZ: rmax.z }, palette, states, digests },
        origin: origin ?? rmin,
        dataVersion: info.dataVersion,
        hasBlockEntity,
        name,
      });
      if (!s.ok) return toolResult(s);
      return toolResult(m.library.save(name, s.value));
    },
  );

  tools.register(
    "schematic_import_prepare",
    {
      title: "Prepare a schematic paste",
      description:
        "Validate a library asset and prepare a normal checked plan pasting it at target (its anchor), rotated clockwise seen from above by 0/90/180/270 about the target; block states turn with it. Air in the schematic is part of the plan. Apply with build_apply.",
      inputSchema: { asset_id: z.string().max(64), target: Vec3, rotation: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).optional() },
      outputSchema: PrepareOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ asset_id, target, rotation }) => {
      const asset = m.library.load(asset_id);
      if (!asset.ok) return toolResult(asset);
      const plan = schematicToPlan(m.registry, asset.value.schematic, { target, turns: ((rotation ?? 0) / 90) as QuarterTurns });
      if (!plan.ok) return toolResult(plan);
      return toolResult(await m.engine.buildPrepare(m.ctx, { plan: plan.value }));
    },
  );
}
