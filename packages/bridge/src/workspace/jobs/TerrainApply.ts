import { ok, type BlockRegistry } from "@mcb/blocks";
import { terrainTilePlan, type CompiledTerrain } from "@mcb/terrain";
import type { BatchJobSpec } from "./BatchJobs.js";

/**
 * terrain_apply's batch: every tile of a previewed terrain, prepared and applied in order, as the
 * CLI's `terrain batch` runs it (the same id and idempotency keys, so either resumes the other's
 * work; its progress file is `<dir>/terrain/<terrain_id>.json`).
 */
export function terrainBatch(registry: BlockRegistry, terrain: CompiledTerrain): BatchJobSpec {
  const id = terrain.terrainId;
  return {
    id,
    total: terrain.tiles.count,
    keyPrefix: `terrain-${id}`,
    plan: (i) => {
      const tile = terrainTilePlan(registry, terrain, i);
      return tile.ok ? ok(tile.value.plan) : tile;
    },
    retryConflicts: true,
    origin: "terrain",
  };
}
