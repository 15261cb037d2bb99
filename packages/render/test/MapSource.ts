import type { BlockSource } from "../src/index.js";
import type { Box3 } from "@mcb/blocks";

/** A tiny world for tests: a map of positions to states, air elsewhere; reads are counted. */
export class MapSource implements BlockSource {
  /** Blocks by their 16³ section ("sx,sy,sz"), each section by position ("x,y,z"). */
  private readonly sections = new Map<string, Map<string, { x: number; y: number; z: number; state: string }>>();
  reads = 0;
  set(x: number, y: number, z: number, state: string): this {
    const key = `${x >> 4},${y >> 4},${z >> 4}`;
    let section = this.sections.get(key);
    if (section === undefined) this.sections.set(key, (section = new Map()));
    section.set(`${x},${y},${z}`, { x, y, z, state });
    return this;
  }
  /** Every block becomes air. */
  clear(): this {
    this.sections.clear();
    return this;
  }
  /** Reads only the stored blocks of the sections the box touches (a read of empty sections is cheap). */
  async read(box: Box3) {
    this.reads++;
    const palette = ["minecraft:air"];
    const index = new Map([["minecraft:air", 0]]);
    const sizeX = box.maxX - box.minX + 1,
      sizeZ = box.maxZ - box.minZ + 1;
    const states = new Uint32Array(sizeX * (box.maxY - box.minY + 1) * sizeZ);
    for (let sy = box.minY >> 4; sy <= box.maxY >> 4; sy++)
      for (let sz = box.minZ >> 4; sz <= box.maxZ >> 4; sz++)
        for (let sx = box.minX >> 4; sx <= box.maxX >> 4; sx++) {
          const section = this.sections.get(`${sx},${sy},${sz}`);
          if (section === undefined) continue;
          for (const { x, y, z, state } of section.values()) {
            if (x < box.minX || x > box.maxX || y < box.minY || y > box.maxY || z < box.minZ || z > box.maxZ) continue;
            if (!index.has(state)) index.set(state, palette.push(state) - 1);
            states[(y - box.minY) * sizeX * sizeZ + (z - box.minZ) * sizeX + (x - box.minX)] = index.get(state)!;
          }
        }
    return { palette, states };
  }
}
