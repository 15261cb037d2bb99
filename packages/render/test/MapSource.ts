import type { BlockSource } from "../src/index.js";
import type { Box3 } from "@mcb/blocks";

/** A tiny world for tests: a map of positions to states, air elsewhere; reads are counted. */
export class MapSource implements BlockSource {
  readonly blocks = new Map<string, string>();
  reads = 0;
  set(x: number, y: number, z: number, state: string): this {
    this.blocks.set(`${x},${y},${z}`, state);
    return this;
  }
  async read(box: Box3) {
    this.reads++;
    const palette = ["minecraft:air"];
    const index = new Map([["minecraft:air", 0]]);
    const states = new Uint32Array((box.maxX - box.minX + 1) * (box.maxY - box.minY + 1) * (box.maxZ - box.minZ + 1));
    let i = 0;
    for (let y = box.minY; y <= box.maxY; y++)
      for (let z = box.minZ; z <= box.maxZ; z++)
        for (let x = box.minX; x <= box.maxX; x++, i++) {
          const s = this.blocks.get(`${x},${y},${z}`);
          if (s === undefined) continue;
          if (!index.has(s)) index.set(s, palette.push(s) - 1);
          states[i] = index.get(s)!;
        }
    return { palette, states };
  }
}
