import { isAir, ok, type Result } from "@mcb/blocks";
import { NATURAL_IDS } from "./TilePlan.js";

/** Reads an inclusive box (y, z, x order): the engine's region read, ≤ 4096 positions per call. */
export type BoxReader = (box: {
  minX: number;
  minY: number;
  minZ: number;
  maxX: number;
  maxY: number;
  maxZ: number;
}) => Promise<Result<{ readonly palette: readonly string[]; readonly states: Uint32Array }>>;

/** What a column scan found. Only "ground" columns can be edited. */
export type ColumnKind = "ground" | "water" | "blocked" | "no_surface" | "buried";

export interface ScannedColumn {
  readonly x: number;
  readonly z: number;
  readonly kind: ColumnKind;
  /** Highest ground block (for "ground"). */
  readonly surfaceY: number;
  readonly surfaceState: string;
  /** The ground block under the surface, when it is in the window. */
  readonly belowState: string | null;
  /** A plant or snow layer on the surface (cleared when the surface moves). */
  readonly coverState: string | null;
  /** Highest level of the cover stack (tall plants are two blocks); surfaceY when there is none. */
  readonly coverTopY: number;
}

const COVER = new Set(
  ["short_grass", "tall_grass", "fern", "large_fern", "dead_bush", "dandelion", "poppy", "snow", "moss_carpet"].map((i) => `minecraft:${i}`),
);
const GROUND = new Set(NATURAL_IDS.filter((id) => !isAir(id) && !COVER.has(id)));
const FLUIDS = new Set(["minecraft:water", "minecraft:lava", "minecraft:bubble_column"]);

function idOf(state: string): string {
  const i = state.indexOf("[");
  return i < 0 ? state : state.slice(0, i);
}

/** Largest scan window height: one x row × window stays within a 4096-position read. */
export const MAX_SCAN_LEVELS = 80;

/**
 * Finds the live surface of each column by scanning down from `maxY` to `minY`: air and cover
 * (grass, flowers, snow layers) are passed, the first natural ground block is the surface. Water
 * or a non-natural block above any ground stops the scan ("water", "blocked"); ground already at
 * `maxY` means the surface is above the window ("buried"). Reads one x row per call; the first
 * failed read ends the scan with its error.
 */
export async function scanSurface(read: BoxReader, columns: readonly { x: number; z: number }[], minY: number, maxY: number): Promise<Result<ScannedColumn[]>> {
  const rows = new Map<number, number[]>();
  for (const c of columns) rows.set(c.z, [...(rows.get(c.z) ?? []), c.x]);
  const out: ScannedColumn[] = [];
  for (const z of [...rows.keys()].sort((a, b) => a - b)) {
    const xs = rows.get(z)!.sort((a, b) => a - b);
    const minX = xs[0]!,
      maxX = xs[xs.length - 1]!;
    const w = maxX - minX + 1;
    const got = await read({ minX, minY, minZ: z, maxX, maxY, maxZ: z });
    if (!got.ok) return got;
    const r = got.value;
    const at = (x: number, y: number) => r.palette[r.states[x - minX + (y - minY) * w]!]!;
    for (const x of xs) {
      let kind: ColumnKind = "no_surface",
        surfaceY = minY - 1,
        surfaceState = "minecraft:air",
        belowState: string | null = null,
        coverState: string | null = null,
        coverTopY = minY - 1;
      for (let y = maxY; y >= minY; y--) {
        const s = at(x, y);
        const id = idOf(s);
        if (isAir(id)) continue;
        if (COVER.has(id)) {
          if (coverState === null) coverTopY = y;
          coverState = s;
          continue;
        }
        if (GROUND.has(id)) {
          if (y === maxY) kind = "buried";
          else {
            kind = "ground";
            surfaceY = y;
            surfaceState = s;
            belowState = y > minY && GROUND.has(idOf(at(x, y - 1))) ? at(x, y - 1) : null;
            if (coverState !== null && !COVER.has(idOf(at(x, y + 1)))) coverState = null;
          }
          break;
        }
        kind = FLUIDS.has(id) || s.includes("waterlogged=true") ? "water" : "blocked";
        break;
      }
      if (coverState === null) coverTopY = surfaceY;
      out.push({ x, z, kind, surfaceY, surfaceState, belowState, coverState, coverTopY });
    }
  }
  return ok(out);
}
