import { join } from "node:path";
import { TAG, type NbtCompound, type NbtValue } from "@mcb/nbt";
import { DataPackUnreadable, dataPackFile } from "./DataPackFile.js";
import { SaveError } from "./SaveError.js";
import { worldGenSettings } from "./WorldGenSettings.js";

/** The first DataVersion whose overworld reaches from −64 to 319 (1.18); older ones span 0 to 255. */
export const TALL_WORLD_DATA_VERSION = 2860;

/** A world's vertical range (inclusive, whole sections) and where it was read. */
export interface WorldHeight {
  readonly minY: number;
  readonly maxY: number;
  /** For people: "the game's default for 1.18 and later", "data pack file/Caves.zip", "level.dat". */
  readonly source: string;
}

/** The game's limits on a dimension type (DimensionType: min_y and height multiples of 16 within ±2032). */
const LIMIT = 2032;

/**
 * The overworld's height as the game gets it: its dimension type, named in the world's generator
 * settings (level.dat `WorldGenSettings`, or 26.1's `data/minecraft/world_gen_settings.dat`) and
 * defined inline there or by an enabled data pack in `datapacks/` (a folder or a zip; the last
 * enabled pack that defines it wins, as in the game), else the game's built-in type of the save's
 * version: −64..319 from 1.18 (DataVersion 2860), 0..255 before (`settings`: `worldGenSettings`,
 * when the caller has read them already). A 1.17 world made with the Caves
 * & Cliffs preview pack is −64..319 this way. Throws `SaveError` (`bad_data_pack`) for a pack or a
 * dimension type that cannot be read: guessing would show the wrong blocks.
 */
export function worldHeightOf(dir: string, data: NbtCompound, dataVersion: number, settings = worldGenSettings(dir, data)): WorldHeight {
  const builtIn = (id: string): WorldHeight =>
    dataVersion >= TALL_WORLD_DATA_VERSION && id === "minecraft:overworld"
      ? { minY: -64, maxY: 319, source: "the game's default for 1.18 and later" }
      : { minY: 0, maxY: 255, source: dataVersion >= TALL_WORLD_DATA_VERSION ? `the game's ${id}` : "the game's default before 1.18" };
  const type = overworldType(settings);
  if (type !== null && type.t === TAG.Compound) return fromFields(readType(type), "level.dat", dir);
  const id = type?.t === TAG.String ? type.v : "minecraft:overworld";
  const m = /^([a-z0-9_.-]+):([a-z0-9_./-]+)$/.exec(id);
  if (m === null) return builtIn(id);
  const inside = `data/${m[1]}/dimension_type/${m[2]}.json`;
  for (const pack of enabledPacks(data).reverse()) {
    const where = join(dir, "datapacks", pack);
    let bytes: Buffer | null;
    try {
      bytes = dataPackFile(where, inside);
    } catch (e) {
      if (!(e instanceof DataPackUnreadable)) throw e;
      throw badPack(dir, `the data pack ${pack} is unreadable (${e.message})`);
    }
    if (bytes === null) continue;
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString("utf8"));
    } catch {
      throw badPack(dir, `${inside} in the data pack ${pack} is not JSON`);
    }
    const o = (typeof json === "object" && json !== null ? json : {}) as Record<string, unknown>;
    return fromFields({ minY: o["min_y"], height: o["height"] }, `data pack file/${pack}`, dir);
  }
  return builtIn(id);
}

function badPack(dir: string, why: string): SaveError {
  return new SaveError(
    "bad_data_pack",
    `${dir}: ${why}; mcb cannot tell the world's height without it (the game cannot load the world either): repair or remove the pack`,
    {
      file: join(dir, "datapacks"),
    },
  );
}

function fromFields(f: { minY: unknown; height: unknown }, source: string, dir: string): WorldHeight {
  const minY = f.minY ?? 0,
    height = f.height ?? 256;
  if (typeof minY !== "number" || typeof height !== "number" || !Number.isInteger(minY) || !Number.isInteger(height))
    throw badPack(dir, `the overworld's dimension type (${source}) has no whole min_y and height`);
  if (minY % 16 !== 0 || height % 16 !== 0 || height < 16 || minY < -LIMIT || minY + height > LIMIT)
    throw badPack(dir, `the overworld's dimension type (${source}) has min_y ${minY} and height ${height}, outside what the game accepts`);
  return { minY, maxY: minY + height - 1, source };
}

/** An inline dimension type's fields (1.16.2 to 1.18 kept them in level.dat). */
function readType(c: NbtCompound): { minY: unknown; height: unknown } {
  const num = (v: NbtValue | undefined): unknown => (v !== undefined && typeof v.v === "number" ? v.v : undefined);
  return { minY: num(c.v.get("min_y")), height: num(c.v.get("height")) };
}

/** The overworld's `type` in the generator settings (a name or an inline compound), null when the save does not say. */
function overworldType(settings: NbtCompound | null): NbtValue | null {
  const dims = settings?.v.get("dimensions");
  const overworld = dims?.t === TAG.Compound ? dims.v.get("minecraft:overworld") : undefined;
  return overworld?.t === TAG.Compound ? (overworld.v.get("type") ?? null) : null;
}

/** The save's enabled data packs that live in `datapacks/` (`file/<name>`), in load order; names that are not plain file names are ignored. */
function enabledPacks(data: NbtCompound): string[] {
  const packs = data.v.get("DataPacks");
  const enabled = packs?.t === TAG.Compound ? packs.v.get("Enabled") : undefined;
  if (enabled?.t !== TAG.List) return [];
  const out: string[] = [];
  for (const e of enabled.v) {
    if (e.t !== TAG.String || !e.v.startsWith("file/")) continue;
    const name = e.v.slice("file/".length);
    if (name.length === 0 || name === "." || name === ".." || /[/\\]/.test(name)) continue;
    out.push(name);
  }
  return out;
}
