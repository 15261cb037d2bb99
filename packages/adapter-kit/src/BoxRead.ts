import { type Box3, Interner } from "@mcb/blocks";
import { MAX_ADAPTER_READ, type RegionRead } from "@mcb/engine";

const AIR = "minecraft:air";
const VOID_AIR = "minecraft:void_air";

/** A 16³ section's blocks: a palette and one index per block (y, z, x order, x fastest); null indices: every block is palette[0]. */
export interface SectionBlocks {
  readonly palette: readonly string[];
  readonly indices: ArrayLike<number> | null;
}

/**
 * A read box being filled section by section, as every adapter that keeps 16³ sections reads: one
 * palette remap per section instead of a lookup per position; `minecraft:void_air` outside the
 * world's height, air where a section is absent. Throws a RangeError for an empty box or one over
 * `MAX_ADAPTER_READ` positions (the engine never asks for one).
 */
export class BoxRead {
  readonly palette = new Interner();
  readonly states: Uint32Array;
  readonly digests = new Map<number, string>();
  readonly sx: number;
  readonly sz: number;

  constructor(
    readonly box: Box3,
    private readonly height: { readonly minY: number; readonly maxY: number },
  ) {
    const sx = box.maxX - box.minX + 1,
      sy = box.maxY - box.minY + 1,
      sz = box.maxZ - box.minZ + 1;
    if (sx <= 0 || sy <= 0 || sz <= 0) throw new RangeError("read box has min > max");
    if (sx * sy * sz > MAX_ADAPTER_READ) throw new RangeError(`read of ${sx * sy * sz} positions exceeds ${MAX_ADAPTER_READ}`);
    this.sx = sx;
    this.sz = sz;
    this.states = new Uint32Array(sx * sy * sz);
  }

  /** The index of a position of the box in `states` (y, z, x order). */
  index(x: number, y: number, z: number): number {
    return x - this.box.minX + (z - this.box.minZ) * this.sx + (y - this.box.minY) * this.sx * this.sz;
  }

  /** Copies the part of the box inside section (cx, cy, cz): its blocks, or void air / air where it has none. */
  section(cx: number, cy: number, cz: number, section: SectionBlocks | undefined): void {
    const { box, states, palette, sx, sz } = this;
    const x0 = Math.max(box.minX, cx * 16),
      x1 = Math.min(box.maxX, cx * 16 + 15);
    const y0 = Math.max(box.minY, cy * 16),
      y1 = Math.min(box.maxY, cy * 16 + 15);
    const z0 = Math.max(box.minZ, cz * 16),
      z1 = Math.min(box.maxZ, cz * 16 + 15);
    if (x0 > x1 || y0 > y1 || z0 > z1) return;
    const remap = section === undefined ? null : new Int32Array(section.palette.length).fill(-1);
    const indices = section?.indices ?? null;
    for (let y = y0; y <= y1; y++) {
      const fill = y < this.height.minY || y > this.height.maxY ? palette.id(VOID_AIR) : section === undefined ? palette.id(AIR) : -1;
      for (let z = z0; z <= z1; z++) {
        let o = x0 - box.minX + (z - box.minZ) * sx + (y - box.minY) * sx * sz;
        if (fill >= 0) {
          states.fill(fill, o, o + (x1 - x0 + 1));
          continue;
        }
        const base = ((y & 15) << 8) | ((z & 15) << 4);
        for (let x = x0; x <= x1; x++, o++) {
          const p = indices === null ? 0 : indices[base | (x & 15)]!;
          let r = remap![p]!;
          if (r < 0) r = remap![p] = palette.id(section!.palette[p]!);
          states[o] = r;
        }
      }
    }
  }

  /** The read, with the writes the world would refuse in it when there are any. */
  result(unwritable: RegionRead["unwritable"] = []): RegionRead {
    const { box, states, digests } = this;
    return unwritable !== undefined && unwritable.length > 0
      ? { box, palette: this.palette.values, states, digests, unwritable }
      : { box, palette: this.palette.values, states, digests };
  }
}
