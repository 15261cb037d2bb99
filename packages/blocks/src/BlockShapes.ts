import { registryInternals, type BlockRegistry } from "./BlockRegistry.js";
import { FLAG_FLUID, FLAG_MOTION } from "./RegistryData.js";

/** Axis-aligned box in block units: [x0, y0, z0, x1, y1, z1]. */
export type ShapeBox = readonly [number, number, number, number, number, number];

export type Face = "down" | "up" | "north" | "south" | "west" | "east";

/** A rectangle on a face in sixteenths: [u0, v0, u1, v1) on the face's two other axes. */
export type FaceRect = readonly [number, number, number, number];

export interface BlockShapes {
  /** Collision boxes of a canonical state (empty for air, plants, open gates …). */
  collision(state: string): readonly ShapeBox[];
  /**
   * Whether the collision boxes touching `face` cover `rect` of it entirely (the game's
   * `isFaceSturdy` / `isCovered` tests). Face axes: down/up → (x, z); north/south → (x, y);
   * west/east → (z, y). Default rect: the whole face.
   */
  covers(state: string, face: Face, rect?: FaceRect): boolean;
  /** The game's `blocksMotion()` (heightmaps MOTION_BLOCKING, OCEAN_FLOOR); true for a state the registry does not have. */
  blocksMotion(state: string): boolean;
  /** The state holds a fluid (water, lava, kelp, a waterlogged block). */
  fluid(state: string): boolean;
}

const FULL: FaceRect = [0, 0, 16, 16];
const cache = new WeakMap<BlockRegistry, BlockShapes>();

/**
 * Block collision shapes and heightmap facts for the registry's version, from its generated data
 * (the game's per-state collision shapes, `blocksMotion` and fluid state, as Minestom dumps them;
 * states numbered last property fastest). Built once per registry.
 */
export function blockShapes(registry: BlockRegistry): BlockShapes {
  let s = cache.get(registry);
  if (s === undefined) {
    s = build(registry);
    cache.set(registry, s);
  }
  return s;
}

function build(registry: BlockRegistry): BlockShapes {
  const { raw, order } = registryInternals(registry);
  const byState = new Map<string, readonly [number, number]>();

  /** The kind ([shape, flags]) of a canonical state; undefined for a state the registry does not have. */
  const kindOf = (state: string): readonly [number, number] | undefined => {
    let kind = byState.get(state);
    if (kind !== undefined) return kind;
    const r = registry.resolveState(state);
    if (!r.ok) return undefined;
    const o = order.get(r.value.id)!;
    let index: number;
    if (typeof o.kinds === "number") index = o.kinds;
    else {
      let offset = 0;
      for (const [name, domain] of o.properties) offset = offset * domain.length + domain.indexOf(r.value.properties[name]!);
      index = o.kinds[offset]!;
    }
    kind = raw.kinds[index]!;
    if (byState.size < 65_536) byState.set(state, kind);
    return kind;
  };

  const collision = (state: string): readonly ShapeBox[] => {
    const kind = kindOf(state);
    return kind === undefined ? [] : (raw.shapes[kind[0]]! as readonly ShapeBox[]);
  };

  const blocksMotion = (state: string): boolean => {
    const kind = kindOf(state);
    return kind === undefined ? true : (kind[1] & FLAG_MOTION) !== 0;
  };

  const fluid = (state: string): boolean => {
    const kind = kindOf(state);
    return kind !== undefined && (kind[1] & FLAG_FLUID) !== 0;
  };

  const covers = (state: string, face: Face, rect: FaceRect = FULL): boolean => {
    // Rectangles of the boxes lying on the face, in sixteenths, then a raster check of `rect`.
    const rects: [number, number, number, number][] = [];
    const s16 = (v: number): number => Math.round(v * 16);
    for (const [x0, y0, z0, x1, y1, z1] of collision(state)) {
      const on = { down: y0 <= 0, up: y1 >= 1, north: z0 <= 0, south: z1 >= 1, west: x0 <= 0, east: x1 >= 1 }[face];
      if (!on) continue;
      if (face === "down" || face === "up") rects.push([s16(x0), s16(z0), s16(x1), s16(z1)]);
      else if (face === "north" || face === "south") rects.push([s16(x0), s16(y0), s16(x1), s16(y1)]);
      else rects.push([s16(z0), s16(y0), s16(z1), s16(y1)]);
    }
    for (let u = rect[0]; u < rect[2]; u++)
      for (let v = rect[1]; v < rect[3]; v++) if (!rects.some((r) => u >= r[0] && u < r[2] && v >= r[1] && v < r[3])) return false;
    return true;
  };

  return { collision, covers, blocksMotion, fluid };
}
