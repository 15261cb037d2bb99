import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Box3 } from "@mcb/blocks";
import { RegionFile } from "./RegionFile.js";
import { isSaveError } from "./SaveError.js";

const REGION = /^r\.(-?\d+)\.(-?\d+)\.mca$/;

/**
 * The box around every chunk a save's region files list (x and z in blocks, y the world's
 * height), or null when it has none: the area a person's save is edited in by default. Reads only
 * the 8 KiB headers; a region whose header is damaged counts with the chunks it names.
 */
export function generatedArea(regionDir: string, minY: number, maxY: number): Box3 | null {
  if (!existsSync(regionDir)) return null;
  let x0 = Infinity,
    z0 = Infinity,
    x1 = -Infinity,
    z1 = -Infinity;
  for (const name of readdirSync(regionDir)) {
    const m = REGION.exec(name);
    if (m === null) continue;
    let region: RegionFile | null;
    try {
      region = RegionFile.open(join(regionDir, name), Number(m[1]), Number(m[2]), false, true);
    } catch (e) {
      if (isSaveError(e)) continue; // a header too short to read: no chunks to count
      throw e;
    }
    if (region === null) continue;
    try {
      for (const c of region.chunks()) {
        ((x0 = Math.min(x0, c.x)), (z0 = Math.min(z0, c.z)), (x1 = Math.max(x1, c.x)), (z1 = Math.max(z1, c.z)));
      }
    } finally {
      region.close();
    }
  }
  if (x0 === Infinity) return null;
  return { minX: x0 * 16, minY, minZ: z0 * 16, maxX: x1 * 16 + 15, maxY, maxZ: z1 * 16 + 15 };
}
