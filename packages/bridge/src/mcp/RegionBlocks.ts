import { Interner, ok, type Result } from "@mcb/blocks";
import type { Vec3 } from "@mcb/engine";
import type { McpContext } from "./McpContext.js";

/** A dense region read as palette indices in (y, z, x) order, with block-entity digests by index. */
export interface DenseRegion {
  readonly min: Vec3;
  readonly max: Vec3;
  readonly palette: readonly string[];
  readonly states: Uint32Array;
  readonly digests: Map<number, string>;
}

/**
 * Reads a region through `region_inspect` (detail "blocks"): the caller's permission, the project
 * area and the 4096-position limit apply exactly as for the agent's own reads.
 */
export async function readDenseRegion(m: McpContext, min: Vec3, max: Vec3): Promise<Result<DenseRegion>> {
  const read = await m.engine.regionInspect(m.ctx, { min, max, detail: "blocks" });
  if (!read.ok) return read;
  const palette = new Interner();
  const blocks = read.value.blocks ?? [];
  const states = new Uint32Array(blocks.length);
  const digests = new Map<number, string>();
  blocks.forEach((b, i) => {
    states[i] = palette.id(b.state);
    if (b.snapshot_id !== undefined) digests.set(i, b.snapshot_id);
  });
  return ok({ min: read.value.region.min, max: read.value.region.max, palette: palette.values, states, digests });
}
