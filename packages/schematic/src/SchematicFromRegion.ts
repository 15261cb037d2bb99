import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import { NbtError, NbtReader } from "@mcb/nbt";
import { TAG } from "@mcb/nbt";
import { canonicalNbt } from "@mcb/nbt";
import { stripPosition } from "@mcb/nbt";
import { canonicalSchematic, type Schematic, type SchematicBlockEntity } from "./Schematic.js";

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
  /** The block entities' data (NBT) by position index, as the world keeps it; absent: none available. */
  readonly entityData?: ReadonlyMap<number, Uint8Array>;
  /** The paste anchor; the offset is box minimum − origin. */
  readonly origin: { readonly x: number; readonly y: number; readonly z: number };
  readonly dataVersion: number;
  /** The block-entity type of a state (the registry's `blockEntityType`), null for plain blocks. */
  readonly blockEntityType: (state: string) => string | null;
  readonly name?: string;
  /**
   * A block entity whose data `entityData` lacks is left out (the block stays, an import gives it
   * the game's defaults) instead of refusing the export: for a world read from an older save,
   * whose block-entity data needs the game's own upgrade. The caller reports how many.
   */
  readonly leaveOutMissing?: boolean;
}

/** The block entities of a region read, as a schematic holds them (positions local to the read's box). */
export interface RegionEntities {
  readonly entities: SchematicBlockEntity[];
  /** Positions whose data the world could not give as NBT (refuse: a schematic would lose it). */
  readonly missing: { readonly count: number; readonly sample: readonly { x: number; y: number; z: number; state: string }[] };
}

/**
 * The block entities of a region read, in (y, z, x) order: every position with a block-entity
 * state or a digest, its data from `entityData` in canonical form (its id from the data, else the
 * state's type). A position `leaveOut(i)` names is left out (a chunk of an older game, whose data
 * only that game's upgrade can read); one whose data is absent is counted as missing.
 */
export function regionEntities(
  region: RegionBlocks,
  entityData: ReadonlyMap<number, Uint8Array> | undefined,
  blockEntityType: (state: string) => string | null,
  leaveOut: (index: number) => boolean,
): RegionEntities {
  const { box } = region;
  const width = box.maxX - box.minX + 1,
    length = box.maxZ - box.minZ + 1;
  const entityStates = new Set(region.palette.map((s, i) => (blockEntityType(s) !== null ? i : -1)).filter((i) => i >= 0));
  const sample: { x: number; y: number; z: number; state: string }[] = [];
  let count = 0;
  const entities: SchematicBlockEntity[] = [];
  const at = (i: number) => ({ x: i % width, z: Math.floor(i / width) % length, y: Math.floor(i / (width * length)) });
  const visit = (i: number): void => {
    const state = region.palette[region.states[i]!]!;
    if (leaveOut(i)) return;
    const raw = entityData?.get(i);
    const data = raw === undefined ? null : canonicalData(raw);
    const p = at(i);
    if (data === null) {
      count++;
      if (sample.length < 8) sample.push({ x: box.minX + p.x, y: box.minY + p.y, z: box.minZ + p.z, state });
      return;
    }
    entities.push({ ...p, id: data.id ?? blockEntityType(state) ?? state.replace(/\[.*$/, ""), data: data.bytes });
  };
  if (entityStates.size === 0) {
    // Only digests can name block entities: visit those (in index order) instead of every position.
    for (const i of [...region.digests.keys()].sort((a, b) => a - b)) visit(i);
  } else for (let i = 0; i < region.states.length; i++) if (entityStates.has(region.states[i]!) || region.digests.has(i)) visit(i);
  return { entities, missing: { count, sample } };
}

/** The refusal for block entities whose data a schematic would lose. */
export function missingEntities(missing: RegionEntities["missing"]): ReturnType<typeof mcbError> {
  return mcbError(
    "invalid_request",
    `the data of ${missing.count} block entities in the region cannot be read as NBT; a schematic would lose it, so export refuses`,
    {
      reason: "block_entities",
      count: missing.count,
      sample: missing.sample,
    },
  );
}

/**
 * A schematic of a region, block entities included: every block-entity position needs its data in
 * `entityData` (NBT, as the world keeps it; it is stored canonical), or the export is refused
 * (invalid_request, reason "block_entities") rather than losing it.
 */
export function schematicFromRegion(input: FromRegionInput): Result<Schematic> {
  const { region } = input;
  const { box } = region;
  const width = box.maxX - box.minX + 1,
    height = box.maxY - box.minY + 1,
    length = box.maxZ - box.minZ + 1;
  const found = regionEntities(
    region,
    input.entityData,
    input.blockEntityType,
    (i) => input.leaveOutMissing === true && input.entityData?.get(i) === undefined,
  );
  if (found.missing.count > 0) return fail(missingEntities(found.missing));
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
      blockEntities: found.entities,
      ...(input.name === undefined ? {} : { name: input.name }),
    }),
  );
}

/** World block-entity data (an NBT compound, named or not) in canonical form, with its id if it has one. */
function canonicalData(raw: Uint8Array): { bytes: Uint8Array; id?: string } | null {
  try {
    const r = new NbtReader(raw);
    if (r.root().type !== TAG.Compound) return null;
    const c = r.compoundValue();
    if (r.remaining !== 0) return null;
    const id = c.v.get("id");
    return { bytes: canonicalNbt(stripPosition(c)), ...(id?.t === TAG.String ? { id: id.v } : {}) };
  } catch (e) {
    if (e instanceof NbtError) return null;
    throw e;
  }
}
