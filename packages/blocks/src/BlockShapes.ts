import mcData from "minecraft-data";
import type { BlockRegistry } from "./BlockRegistry.js";

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
}

const FULL: FaceRect = [0, 0, 16, 16];
const cache = new WeakMap<BlockRegistry, BlockShapes>();

interface RawState {
  readonly name: string;
  readonly type: string;
  readonly values?: readonly unknown[];
}

/**
 * Block collision shapes for the registry's version, from minecraft-data's blockCollisionShapes
 * (per-state shape ids, decoded with the same state numbering as the registry: last property
 * fastest). Built once per registry.
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
  const data = mcData(registry.minecraftVersion);
  const table = (data as unknown as { blockCollisionShapes?: { blocks: Record<string, number | number[]>; shapes: Record<string, number[][]> } }).blockCollisionShapes;
  if (table === undefined) throw new Error(`minecraft-data ${registry.minecraftVersion} has no collision shapes`);
  const order = new Map<string, readonly RawState[]>();
  for (const b of data.blocksArray) order.set(`minecraft:${b.name}`, (b.states ?? []) as readonly RawState[]);
  const byState = new Map<string, readonly ShapeBox[]>();

  const collision = (state: string): readonly ShapeBox[] => {
    let boxes = byState.get(state);
    if (boxes !== undefined) return boxes;
    const st = registry.stateOf(state);
    const raw = order.get(st.id) ?? [];
    let offset = 0;
    for (const r of raw) {
      const domain = r.type === "bool" ? ["true", "false"] : (r.values ?? []).map(String);
      offset = offset * domain.length + Math.max(0, domain.indexOf(st.properties[r.name] ?? ""));
    }
    const entry = table.blocks[st.id.slice("minecraft:".length)];
    const id = Array.isArray(entry) ? entry[offset] : entry;
    boxes = ((id === undefined ? [] : table.shapes[String(id)]) ?? []).map((b) => [b[0]!, b[1]!, b[2]!, b[3]!, b[4]!, b[5]!] as const);
    byState.set(state, boxes);
    return boxes;
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

  return { collision, covers };
}
