import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { NbtError, NbtReader, TAG, encodeNbt, nbt, type NbtCompound, type NbtValue } from "@mcb/nbt";
import { atomicWriteFile } from "@mcb/adapter-kit";
import { SaveError } from "./SaveError.js";
import { worldHeightOf, type WorldHeight } from "./SaveHeight.js";
import { worldGenSettings, worldSeed } from "./WorldGenSettings.js";

/** The first DataVersion (26.1) whose saves keep dimensions under `dimensions/<namespace>/<name>`. */
export const DIMENSIONS_LAYOUT_DATA_VERSION = 4786;

/** Where a save keeps the overworld's region files: 26.1's `dimensions/…` or the older `region/`. */
export type SaveLayout = "dimensions" | "legacy";

export interface SaveSummary {
  readonly dir: string;
  readonly layout: SaveLayout;
  /** level.dat's DataVersion (0 when it has none: 1.8 and older). */
  readonly dataVersion: number;
  /** level.dat's `Version.Name` (`1.21.11`), when it has one (1.9 on). */
  readonly versionName: string | undefined;
  readonly levelName: string;
  /** The overworld's region folder. */
  readonly regionDir: string;
  /** The overworld's height (its dimension type: level.dat, a data pack, or the version's default). */
  readonly height: WorldHeight;
  /** The world's seed (decimal), what stays when the folder is moved or the world renamed; null when level.dat has none. */
  readonly seed: string | null;
  /** What a person should know before mcb writes into it (one sentence each). */
  readonly warnings: readonly string[];
}

function readLevelDat(dir: string): NbtCompound {
  const path = join(dir, "level.dat");
  if (!existsSync(path))
    throw new SaveError("not_a_save", `${dir} has no level.dat: not a Minecraft world save (pass the folder that holds level.dat)`, { file: path });
  try {
    const raw = readFileSync(path);
    const bytes = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw, { maxOutputLength: 64 << 20 }) : raw;
    const r = new NbtReader(bytes);
    if (r.root().type !== TAG.Compound) throw new NbtError("root is not a compound", 0);
    const data = r.compoundValue().v.get("Data");
    if (data?.t !== TAG.Compound) throw new NbtError("no Data compound", 0);
    return data;
  } catch (e) {
    if (e instanceof NbtError || (e as { code?: string }).code === "Z_DATA_ERROR")
      throw new SaveError("not_a_save", `${path} is unreadable (${(e as Error).message})`, { file: path });
    throw e;
  }
}

/**
 * Reads a save's level.dat and finds its overworld regions. A save with both `region/` and
 * `dimensions/minecraft/overworld/` mixes two layouts and is refused (`not_a_save`): which one the
 * game would use depends on its version, and writing to the wrong one would lose the build.
 */
export function inspectSave(dir: string): SaveSummary {
  const data = readLevelDat(dir);
  const dv = data.v.get("DataVersion");
  const dataVersion = dv?.t === TAG.Int ? dv.v : 0;
  const name = data.v.get("LevelName");
  const levelName = name?.t === TAG.String ? name.v : "";
  const version = data.v.get("Version");
  const vName = version?.t === TAG.Compound ? version.v.get("Name") : undefined;
  const versionName = vName?.t === TAG.String ? vName.v : undefined;
  const modern = join(dir, "dimensions", "minecraft", "overworld");
  const legacy = join(dir, "region");
  const hasModern = existsSync(join(modern, "region")),
    hasLegacy = existsSync(legacy);
  if (hasModern && hasLegacy)
    throw new SaveError(
      "not_a_save",
      `${dir} has both region/ (before 26.1) and dimensions/minecraft/overworld/region/ (26.1): open it once in Minecraft so it migrates, or remove the copy you do not use`,
      {
        file: dir,
        reason: "mixed_layouts",
      },
    );
  const layout: SaveLayout = hasModern || (!hasLegacy && dataVersion >= DIMENSIONS_LAYOUT_DATA_VERSION) ? "dimensions" : "legacy";
  const settings = worldGenSettings(dir, data); // read once: the height and the seed both come from it
  const height = worldHeightOf(dir, data, dataVersion, settings);
  const seed = worldSeed(data, settings);
  const warnings =
    layout === "legacy" && dataVersion >= DIMENSIONS_LAYOUT_DATA_VERSION
      ? [
          `${dir} is a Minecraft ${versionName ?? dataVersion} save with its regions in region/, as Paper and Spigot servers keep them; the game itself (26.1 and later) reads dimensions/minecraft/overworld/region/: mcb reads and writes region/, so open the world with the server it came from`,
        ]
      : [];
  return { dir, layout, dataVersion, versionName, levelName, regionDir: layout === "dimensions" ? join(modern, "region") : legacy, height, seed, warnings };
}

/** The flat ground of mcb's own world (bottom up), and what the game generates for its chunks. */
export const FLAT_LAYERS: readonly { readonly block: string; readonly state: string; readonly height: number }[] = [
  { block: "minecraft:bedrock", state: "minecraft:bedrock", height: 1 },
  { block: "minecraft:stone", state: "minecraft:stone", height: 123 },
  { block: "minecraft:dirt", state: "minecraft:dirt", height: 3 },
  { block: "minecraft:grass_block", state: "minecraft:grass_block[snowy=false]", height: 1 },
];

export interface NewSaveOptions {
  readonly levelName: string;
  readonly dataVersion: number;
  readonly minecraftVersion: string;
}

function gz(root: NbtCompound): Buffer {
  return gzipSync(encodeNbt("", root));
}

/**
 * Creates a new save of `options`' version (26.2 or 26.1) in `dir`: level.dat (creative, commands on, spawn on the ground at 0 64 0),
 * `data/minecraft/world_gen_settings.dat` with a superflat overworld whose layers are `FLAT_LAYERS`
 * (bedrock −64, stone to 59, dirt 60–62, grass 63: the chunks the game generates later match the
 * ones mcb generates), the overworld's region folder. Chunks are written by the world as it builds.
 */
export function createFlatSave(dir: string, options: NewSaveOptions): SaveSummary {
  const regionDir = join(dir, "dimensions", "minecraft", "overworld", "region");
  mkdirSync(regionDir, { recursive: true });
  mkdirSync(join(dir, "data", "minecraft"), { recursive: true });
  const dv = options.dataVersion;
  // A seed of its own (a flat world's generation does not use it): what tells this save from another one (SaveSummary.seed).
  const seed = randomBytes(8).readBigInt64BE();
  const worldGen = nbt.compound([
    [
      "data",
      nbt.compound([
        ["seed", nbt.long(seed)],
        ["generate_structures", nbt.byte(0)],
        ["bonus_chest", nbt.byte(0)],
        ["dimensions", flatDimensions()],
        ["DataVersion", nbt.int(dv)],
      ]),
    ],
  ]);
  atomicWriteFile(join(dir, "data", "minecraft", "world_gen_settings.dat"), gz(worldGen));
  atomicWriteFile(join(dir, "level.dat"), gz(levelDat(options)));
  return {
    dir,
    layout: "dimensions",
    dataVersion: dv,
    versionName: options.minecraftVersion,
    levelName: options.levelName,
    regionDir,
    height: { minY: -64, maxY: 319, source: "mcb's own world (the game's default)" },
    seed: seed.toString(),
    warnings: [],
  };
}

/** The three dimensions' generators: a superflat overworld of `FLAT_LAYERS`, the usual nether and end. */
function flatDimensions(): NbtCompound {
  const flat = nbt.compound([
    ["biome", nbt.string("minecraft:plains")],
    ["features", nbt.byte(0)],
    ["lakes", nbt.byte(0)],
    [
      "layers",
      nbt.list(
        TAG.Compound,
        FLAT_LAYERS.map((l) =>
          nbt.compound([
            ["block", nbt.string(l.block)],
            ["height", nbt.int(l.height)],
          ]),
        ),
      ),
    ],
    ["structure_overrides", nbt.list(TAG.String, [])],
  ]);
  const dimension = (type: string, generator: [string, NbtValue][]): NbtCompound =>
    nbt.compound([
      ["type", nbt.string(type)],
      ["generator", nbt.compound(generator)],
    ]);
  return nbt.compound([
    [
      "minecraft:overworld",
      dimension("minecraft:overworld", [
        ["type", nbt.string("minecraft:flat")],
        ["settings", flat],
      ]),
    ],
    [
      "minecraft:the_nether",
      dimension("minecraft:the_nether", [
        ["type", nbt.string("minecraft:noise")],
        ["settings", nbt.string("minecraft:nether")],
        [
          "biome_source",
          nbt.compound([
            ["type", nbt.string("minecraft:multi_noise")],
            ["preset", nbt.string("minecraft:nether")],
          ]),
        ],
      ]),
    ],
    [
      "minecraft:the_end",
      dimension("minecraft:the_end", [
        ["type", nbt.string("minecraft:noise")],
        ["settings", nbt.string("minecraft:end")],
        ["biome_source", nbt.compound([["type", nbt.string("minecraft:the_end")]])],
      ]),
    ],
  ]);
}

/** level.dat: creative, commands on, spawn on the ground at 0 64 0, the vanilla data pack. */
function levelDat(options: NewSaveOptions): NbtCompound {
  const dv = options.dataVersion;
  return nbt.compound([
    [
      "Data",
      nbt.compound([
        ["DataVersion", nbt.int(dv)],
        ["version", nbt.int(19133)],
        [
          "Version",
          nbt.compound([
            ["Id", nbt.int(dv)],
            ["Name", nbt.string(options.minecraftVersion)],
            ["Series", nbt.string("main")],
            ["Snapshot", nbt.byte(0)],
          ]),
        ],
        ["LevelName", nbt.string(options.levelName)],
        ["GameType", nbt.int(1)],
        ["allowCommands", nbt.byte(1)],
        ["hardcore", nbt.byte(0)],
        ["Difficulty", nbt.byte(2)],
        ["initialized", nbt.byte(1)],
        ["LastPlayed", nbt.long(0n)],
        [
          "DataPacks",
          nbt.compound([
            ["Enabled", nbt.list(TAG.String, [nbt.string("vanilla")])],
            ["Disabled", nbt.list(TAG.String, [])],
          ]),
        ],
        [
          "spawn",
          nbt.compound([
            ["dimension", nbt.string("minecraft:overworld")],
            ["pos", nbt.intArray([0, 64, 0])],
            ["yaw", { t: TAG.Float, v: 0 }],
            ["pitch", { t: TAG.Float, v: 0 }],
          ]),
        ],
      ]),
    ],
  ]);
}
