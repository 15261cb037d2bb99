import { isAir, type BlockRegistry, type Box3, fail, mcbError, type QuarterTurns, type Result } from "@mcb/blocks";
import { planFromBlocks, type Plan } from "@mcb/recipe";
import { STRUCTURE_VOID } from "./read/StructureRead.js";
import type { Schematic } from "./Schematic.js";
import { rotateSchematic } from "./SchematicRotate.js";

/** Positions in one tile of a large paste: the engine's plan limit (DEFAULT_ENGINE_LIMITS.maxPlanBlocks). */
export const PASTE_TILE_BLOCKS = 100_000;

export interface PasteInput {
  readonly target: { readonly x: number; readonly y: number; readonly z: number };
  readonly turns?: QuarterTurns;
  readonly maxBlocks?: number;
}

/** One tile of a paste: its plan and the world box it covers. */
export interface PasteTile {
  readonly index: number;
  readonly plan: Plan;
  readonly bounds: Box3;
}

/**
 * A schematic turned and placed at a target, cut into tiles of at most `tileBlocks` positions
 * (default 100,000) for a paste as a sequence of checked operations. Tiles go bottom up: whole
 * layers while a layer fits (so what rests on a layer is written after it), else rows of one
 * layer, else runs of one row. The rotation is done once; each tile's plan is built on demand.
 */

export class SchematicPaste {
  readonly count: number;
  private readonly s: Schematic;
  private readonly base: { x: number; y: number; z: number };
  private readonly layers: number;
  private readonly rows: number;
  private readonly cols: number;
  private readonly perLayer: number;

  constructor(
    private readonly registry: BlockRegistry,
    schematic: Schematic,
    target: PasteInput["target"],
    turns: QuarterTurns = 0,
    readonly tileBlocks: number = PASTE_TILE_BLOCKS,
    /** Leave the schematic's air out (WorldEdit's `//paste -a`): what stands there stays. Default: air clears. */
    private readonly skipAir = false,
  ) {
    if (!Number.isSafeInteger(tileBlocks) || tileBlocks < 1) throw new RangeError("tileBlocks must be a positive integer");
    this.s = rotateSchematic(registry, schematic, turns);
    const { width: w, height: h, length: l } = this.s;
    this.base = { x: target.x + this.s.offset.x, y: target.y + this.s.offset.y, z: target.z + this.s.offset.z };
    if (w * l <= tileBlocks) {
      this.layers = Math.floor(tileBlocks / (w * l));
      this.rows = l;
      this.cols = w;
      this.perLayer = 1;
      this.count = Math.ceil(h / this.layers);
    } else {
      this.layers = 1;
      this.rows = w <= tileBlocks ? Math.floor(tileBlocks / w) : 1;
      this.cols = w <= tileBlocks ? w : tileBlocks;
      this.perLayer = Math.ceil(l / this.rows) * Math.ceil(w / this.cols);
      this.count = h * this.perLayer;
    }
  }

  /** The local box (in the turned schematic) of tile `index`. */
  private localBox(index: number): Box3 {
    const { width: w, height: h, length: l } = this.s;
    const layer = Math.floor(index / this.perLayer),
      k = index % this.perLayer;
    const colTiles = Math.ceil(w / this.cols);
    const row = Math.floor(k / colTiles),
      col = k % colTiles;
    const minY = layer * this.layers,
      minZ = row * this.rows,
      minX = col * this.cols;
    return { minX, minY, minZ, maxX: Math.min(w, minX + this.cols) - 1, maxY: Math.min(h, minY + this.layers) - 1, maxZ: Math.min(l, minZ + this.rows) - 1 };
  }

  /** The world box the whole paste covers. */
  box(): Box3 {
    const { width: w, height: h, length: l } = this.s;
    return { minX: this.base.x, minY: this.base.y, minZ: this.base.z, maxX: this.base.x + w - 1, maxY: this.base.y + h - 1, maxZ: this.base.z + l - 1 };
  }

  /** The world box tile `index` covers. */
  bounds(index: number): Box3 {
    const b = this.localBox(index);
    return {
      minX: this.base.x + b.minX,
      minY: this.base.y + b.minY,
      minZ: this.base.z + b.minZ,
      maxX: this.base.x + b.maxX,
      maxY: this.base.y + b.maxY,
      maxZ: this.base.z + b.maxZ,
    };
  }

  /** The plan of tile `index` (0..count − 1). Errors: invalid_request (reason tile_index). */
  tile(index: number): Result<PasteTile> {
    if (!Number.isSafeInteger(index) || index < 0 || index >= this.count)
      return fail(mcbError("invalid_request", `tile_index must be 0..${this.count - 1}`, { reason: "tile_index", tiles: this.count }));
    const plan = this.planOf(this.localBox(index), this.tileBlocks);
    return plan.ok ? { ok: true, value: { index, plan: plan.value, bounds: this.bounds(index) } } : plan;
  }

  /** The whole paste as one plan (limited by `maxBlocks`, default the plan assembler's limit). */
  whole(maxBlocks?: number): Result<Plan> {
    const { width: w, height: h, length: l } = this.s;
    return this.planOf({ minX: 0, minY: 0, minZ: 0, maxX: w - 1, maxY: h - 1, maxZ: l - 1 }, maxBlocks);
  }

  /**
   * Every position of `box` (air included: air in a schematic clears what is there) except
   * structure void (the world keeps its block), with the block entities' data.
   */
  private planOf(box: Box3, maxBlocks: number | undefined): Result<Plan> {
    const s = this.s;
    // Palette entries left out: structure void, and with skipAir every kind of air.
    const skip = Uint8Array.from(s.palette, (p) => (p === STRUCTURE_VOID || (this.skipAir && isAir(p)) ? 1 : 0));
    const { width: w, length: l } = s;
    let n = 0;
    for (let y = box.minY; y <= box.maxY; y++)
      for (let z = box.minZ; z <= box.maxZ; z++) for (let x = box.minX, i = x + z * w + y * w * l; x <= box.maxX; x++, i++) if (skip[s.blocks[i]!] === 0) n++;
    const xs = new Int32Array(n),
      ys = new Int32Array(n),
      zs = new Int32Array(n),
      state = new Uint32Array(n);
    const { x: bx, y: by, z: bz } = this.base;
    let k = 0;
    for (let y = box.minY; y <= box.maxY; y++)
      for (let z = box.minZ; z <= box.maxZ; z++)
        for (let x = box.minX, i = x + z * w + y * w * l; x <= box.maxX; x++, i++) {
          if (skip[s.blocks[i]!] === 1) continue;
          xs[k] = bx + x;
          ys[k] = by + y;
          zs[k] = bz + z;
          state[k++] = s.blocks[i]!;
        }
    const blockData = s.blockEntities
      .filter((be) => be.x >= box.minX && be.x <= box.maxX && be.y >= box.minY && be.y <= box.maxY && be.z >= box.minZ && be.z <= box.maxZ)
      .map((be) => ({ x: bx + be.x, y: by + be.y, z: bz + be.z, data: be.data }));
    return planFromBlocks(this.registry, {
      states: s.palette,
      blocks: { x: xs, y: ys, z: zs, state },
      blockData,
      ...(maxBlocks === undefined ? {} : { maxBlocks }),
    });
  }
}

/**
 * The paste of a schematic as one ordinary plan: every position, air included, at target +
 * offset + local after the rotation about the target, block entities with their data. Structure
 * void positions are left out. For more than `maxBlocks` positions use `SchematicPaste` tiles.
 */
export function schematicToPlan(registry: BlockRegistry, schematic: Schematic, input: PasteInput): Result<Plan> {
  return new SchematicPaste(registry, schematic, input.target, input.turns ?? 0).whole(input.maxBlocks);
}
