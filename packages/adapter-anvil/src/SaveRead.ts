import { BoxRead } from "@mcb/adapter-kit";
import type { Box3 } from "@mcb/blocks";
import { MAX_ADAPTER_READ, type RegionRead, type WriteRefusal } from "@mcb/engine";
import { canonicalNbt, stripPosition, type NbtCompound } from "@mcb/nbt";
import type { Chunk } from "./Chunk.js";

const VOID_AIR = "minecraft:void_air";

/** What a box read needs from the world: its height and its chunks (throwing for a missing one). */
export interface ChunkSource {
  readonly minY: number;
  readonly maxY: number;
  chunk(cx: number, cz: number): Chunk;
  digest(e: NbtCompound): string;
  /** Why a write into the chunk would be refused, null when it may be written. */
  refusal(cx: number, cz: number): WriteRefusal | null;
}

function size(box: Box3): { sx: number; sy: number; sz: number } {
  const sx = box.maxX - box.minX + 1,
    sy = box.maxY - box.minY + 1,
    sz = box.maxZ - box.minZ + 1;
  if (sx <= 0 || sy <= 0 || sz <= 0) throw new RangeError("read box has min > max");
  if (sx * sy * sz > MAX_ADAPTER_READ) throw new RangeError(`read of ${sx * sy * sz} positions exceeds ${MAX_ADAPTER_READ}`);
  return { sx, sy, sz };
}

function entityPos(e: NbtCompound): { x: number; y: number; z: number } {
  return { x: (e.v.get("x") as { v: number }).v, y: (e.v.get("y") as { v: number }).v, z: (e.v.get("z") as { v: number }).v };
}

/** A box of a save, section by section (`BoxRead`), void air outside the height. */
export function readBox(src: ChunkSource, box: Box3): RegionRead {
  const read = new BoxRead(box, src);
  const outside = box.maxY < src.minY || box.minY > src.maxY;
  if (box.minY < src.minY || box.maxY > src.maxY) read.palette.id(VOID_AIR); // first in the palette, as saves have always read
  const unwritable: WriteRefusal[] = [];
  for (let cz = box.minZ >> 4; cz <= box.maxZ >> 4; cz++)
    for (let cx = box.minX >> 4; cx <= box.maxX >> 4; cx++) {
      const chunk = outside ? null : src.chunk(cx, cz);
      const refused = chunk === null ? null : src.refusal(cx, cz);
      if (refused !== null) unwritable.push(refused);
      for (let cy = box.minY >> 4; cy <= box.maxY >> 4; cy++) read.section(cx, cy, cz, chunk?.sections.get(cy));
      if (chunk === null) continue;
      const x0 = Math.max(box.minX, cx * 16),
        x1 = Math.min(box.maxX, cx * 16 + 15);
      const z0 = Math.max(box.minZ, cz * 16),
        z1 = Math.min(box.maxZ, cz * 16 + 15);
      for (const e of chunk.entities.values()) {
        const { x, y, z } = entityPos(e);
        if (x < x0 || x > x1 || y < box.minY || y > box.maxY || z < z0 || z > z1) continue;
        read.digests.set(read.index(x, y, z), src.digest(e));
      }
    }
  return read.result(unwritable);
}

/** The block-entity data in a box (canonical bytes, without position and id), by position index. */
export function readBlockEntities(src: ChunkSource, box: Box3): ReadonlyMap<number, Uint8Array> {
  const { sx, sz } = size(box);
  const out = new Map<number, Uint8Array>();
  if (box.maxY < src.minY || box.minY > src.maxY) return out;
  for (let cz = box.minZ >> 4; cz <= box.maxZ >> 4; cz++)
    for (let cx = box.minX >> 4; cx <= box.maxX >> 4; cx++) {
      for (const e of src.chunk(cx, cz).entities.values()) {
        const { x, y, z } = entityPos(e);
        if (x < box.minX || x > box.maxX || y < box.minY || y > box.maxY || z < box.minZ || z > box.maxZ) continue;
        out.set(x - box.minX + (z - box.minZ) * sx + (y - box.minY) * sx * sz, canonicalNbt(stripPosition(e)));
      }
    }
  return out;
}
