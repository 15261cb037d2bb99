import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { NbtError, NbtReader, TAG, type NbtCompound } from "@mcb/nbt";

/**
 * A save's world generation settings (seed, dimensions and their types): level.dat's
 * `WorldGenSettings` (1.16 to 1.21), else 26.1's `data/minecraft/world_gen_settings.dat` (its
 * `data`); null when the save has neither or the file is unreadable (callers fall back to the
 * version's defaults).
 */
export function worldGenSettings(dir: string, levelData: NbtCompound): NbtCompound | null {
  const inLevel = levelData.v.get("WorldGenSettings");
  if (inLevel?.t === TAG.Compound) return inLevel;
  const file = join(dir, "data", "minecraft", "world_gen_settings.dat");
  if (!existsSync(file)) return null;
  try {
    const raw = readFileSync(file);
    const r = new NbtReader(raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw, { maxOutputLength: 64 << 20 }) : raw);
    if (r.root().type !== TAG.Compound) return null;
    const data = r.compoundValue().v.get("data");
    return data?.t === TAG.Compound ? data : null;
  } catch (e) {
    if (e instanceof NbtError || (e as { code?: string }).code === "Z_DATA_ERROR") return null;
    throw e;
  }
}

/** The world's seed as a decimal string (`WorldGenSettings.seed`, or `RandomSeed` before 1.16), null when it has none. */
export function worldSeed(levelData: NbtCompound, settings: NbtCompound | null): string | null {
  const seed = settings?.v.get("seed") ?? levelData.v.get("RandomSeed");
  return seed?.t === TAG.Long ? seed.v.toString() : null;
}
