import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import { canonicalSchematic, type Schematic } from "./Schematic.js";

/** A dense region read (engine `RegionRead` shape): states in y, z, x order over an inclusive box. */
export interface RegionBlocks {
  readonly box: { readonly minX: number; readonly minY: number; readonly minZ: number; readonly maxX: number; readonly maxY: number; readonly maxZ: number };
  readonly palette: readonly string[];
  readonly states: Uint32Array;
  /** Block-entity digests by position index. */
  readonly digests: ReadonlyMap<number, string>;
}

export interface FromRegionInput {
  readonly region: RegionBlocks;
  /** The paste anchor; the offset is box minimum − origin. */
  readonly origin: { readonly x: number; readonly y: number; readonly z: number };
  readonly dataVersion: number;
  /** True for block types that carry block-entity data (chests, signs, ...). */
  readonly hasBlockEntity: (state: string) => boolean;
  readonly name?: string;
}

/**
 * A schematic of a region. Refuses (invalid_request, reason "block_entities") any block entity,
 * empty ones included: their data would be silently lost in a state-only file.
 */
export function schematicFromRegion(input: FromRegionInput): Result<Schematic> {
  const { region } = input;
  const { box } = region;
  const width = box.maxX - box.minX + 1, height = box.maxY - box.minY + 1, length = box.maxZ - box.minZ + 1;
  const entityStates = new Set(region.palette.map((s, i) => (input.hasBlockEntity(s) ? i : -1)).filter((i) => i >= 0));
  const found: { x: number; y: number; z: number; state: string }[] = [];
  let total = 0;
  for (let i = 0; i < region.states.length; i++) {
    if (!entityStates.has(region.states[i]!) && !region.digests.has(i)) continue;
    total++;
    if (found.length < 8) {
      const x = box.minX + (i % width), z = box.minZ + (Math.floor(i / width) % length), y = box.minY + Math.floor(i / (width * length));
      found.push({ x, y, z, state: region.palette[region.states[i]!]! });
    }
  }
  if (total > 0)
    return fail(
      mcbError("invalid_request", `the region holds ${total} block entities; a schematic would lose their data, so export refuses it`, {
        reason: "block_entities",
        count: total,
        sample: found,
      }),
    );
  const offset = { x: box.minX - input.origin.x, y: box.minY - input.origin.y, z: box.minZ - input.origin.z };
  return ok(
    canonicalSchematic({
      width,
      height,
      length,
      offset,
      dataVersion: input.dataVersion,
      palette: region.palette,
      blocks: region.states,
      ...(input.name === undefined ? {} : { name: input.name }),
    }),
  );
}
