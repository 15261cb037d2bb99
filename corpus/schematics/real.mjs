// Real schematic files kept in real/ (licences allow it; notices in LICENSES.md), with what each holds.
export const REAL = [
  {
    file: "real/smallhouse1.schem",
    source: "npm prismarine-schematic@1.3.0 test/schematics/smallhouse1.schem (https://github.com/PrismarineJS/prismarine-schematic); the same file ships in mineflayer-builder@1.0.1",
    licence: "MIT, Copyright (c) 2020 PrismarineJS",
    writer: "WorldEdit 7.2 on Minecraft 1.16.4 (Sponge v2)",
    features: ["sponge_v2", "1.16.4 (DataVersion 2584)", "173 palette entries (two-byte varints)", "72 block entities (chests, furnaces, signs, …)", "renames: chain, cauldron levels"],
    expect: { read: { format: "sponge_v2", width: 21, height: 28, length: 20, palette: 173, block_entities: 72, source_data_version: 2584, upgrades: { "cauldron with water levels → water_cauldron": 1, "minecraft:chain → minecraft:iron_chain": 1 } } },
  },
  {
    file: "real/DualFullBlockCrafter.litematic",
    source: "npm litematic-parser@1.0.0 test/DualFullBlockCrafter.litematic (https://github.com/JaRoMasterDev/litematic-parser)",
    licence: "MIT (package.json), Copyright (c) Jarne Rolf",
    writer: "Litematica on Minecraft 1.21 (DataVersion 4671)",
    features: ["litematic", "crafter, comparators, hoppers", "7 block entities"],
    expect: { read: { format: "litematic", width: 3, height: 3, length: 5, palette: 10, block_entities: 7, source_data_version: 4671 } },
  },
  {
    file: "real/viking-house1.schematic",
    source: "npm prismarine-schematic@1.3.0 test/schematics/viking-house1.schematic (https://github.com/PrismarineJS/prismarine-schematic)",
    licence: "MIT, Copyright (c) 2020 PrismarineJS",
    writer: "MCEdit / Schematica (numeric block ids, before 1.13)",
    features: ["MCEdit .schematic: refused with the way out (WorldEdit 7 converts it)"],
    expect: { error: { code: "invalid_request", reason: "unsupported_format" } },
  },
  {
    file: "real/21981.schematic",
    source: "npm mineflayer-schem@1.5.2 schematic/21981.schematic",
    licence: "MIT, Copyright (c) 2020 PrismarineJS (LICENSE of mineflayer-schem)",
    writer: "MCEdit / Schematica (numeric block ids, before 1.13)",
    features: ["MCEdit .schematic: refused with the way out"],
    expect: { error: { code: "invalid_request", reason: "unsupported_format" } },
  },
];

/** Real files we found whose licence does not let us keep them: generated equivalents stand in. */
export const NOT_KEPT = [
  { file: "dist/schematics/large_schematic.schem", source: "npm schematic-renderer@1.6.1", licence: "AGPL-3.0-only", holds: "Sponge v2, DataVersion 3700, 256 × 256 × 256, 617 palette entries, 42,010 block entities", equivalent: "large.mjs largeEquivalent()" },
  { file: "dist/schematics/all_blocks.litematic", source: "npm schematic-renderer@1.6.1", licence: "AGPL-3.0-only", holds: "Litematica, DataVersion 3578, 132 × 7 × 30, 799 states, 121 block entities, 30 entities", equivalent: "generated/all-blocks-equivalent.litematic" },
  { file: "dist/schematics/1wide_15ss_detector.schem", source: "npm schematic-renderer@1.6.1", licence: "AGPL-3.0-only", holds: "Sponge v3, DataVersion 4189, 15 × 3 × 5, 9 states, 15 block entities", equivalent: "generated/redstone-detector-equivalent.schem" },
];
