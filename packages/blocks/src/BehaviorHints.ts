/**
 * Compact behaviour hints for material_describe (how a block behaves when placed). They are
 * advisory facts about the vanilla block type, derived from its id and property names (the block
 * entity from the game's registry); they never decide whether a state is valid. Facts already visible in the property domains (such as
 * `waterlogged`) are not repeated. Order is fixed: gravity, fluid, attachment, multipart, block_entity.
 */
export type BehaviorHint = "gravity" | "fluid" | "attachment" | "multipart" | "block_entity";

const GRAVITY = new Set([
  "sand",
  "red_sand",
  "gravel",
  "suspicious_sand",
  "suspicious_gravel",
  "anvil",
  "chipped_anvil",
  "damaged_anvil",
  "dragon_egg",
  "pointed_dripstone",
  "scaffolding",
]);

const FLUID = new Set(["water", "lava", "bubble_column"]);

const ATTACHED_NAMES = new Set([
  "ladder",
  "vine",
  "lever",
  "tripwire_hook",
  "tripwire",
  "redstone_wire",
  "repeater",
  "comparator",
  "cocoa",
  "lily_pad",
  "glow_lichen",
  "sculk_vein",
  "resin_clump",
  "hanging_roots",
  "spore_blossom",
  "big_dripleaf_stem",
  "small_dripleaf",
  "sugar_cane",
  "cactus",
  "bamboo",
  "kelp",
  "kelp_plant",
  "seagrass",
  "tall_seagrass",
  "sea_pickle",
  "twisting_vines",
  "twisting_vines_plant",
  "weeping_vines",
  "weeping_vines_plant",
  "cave_vines",
  "cave_vines_plant",
  "pale_hanging_moss",
  "snow",
  "lantern",
  "soul_lantern",
  "bell",
  "scaffolding",
  "frogspawn",
  "pointed_dripstone",
  "sulfur_spike",
  "torch",
  "soul_torch",
  "redstone_torch",
  "copper_torch",
  "end_rod",
  "flower_pot",
]);
const ATTACHED_PATTERN =
  /(_wall_|_button$|_pressure_plate$|rail$|_carpet$|_sapling$|_propagule$|_torch$|_sign$|_banner$|_bed$|_door$|_coral_fan$|_coral$|_mushroom$|_fungus$|_roots$|_tulip$|_lantern$|_candle$|^candle$|_vine|_vines$|^potted_)/;

const FLOWERS = new Set([
  "dandelion",
  "golden_dandelion",
  "poppy",
  "blue_orchid",
  "allium",
  "azure_bluet",
  "oxeye_daisy",
  "cornflower",
  "lily_of_the_valley",
  "wither_rose",
  "torchflower",
  "sunflower",
  "lilac",
  "rose_bush",
  "peony",
  "short_grass",
  "tall_grass",
  "fern",
  "large_fern",
  "dead_bush",
  "pink_petals",
  "wildflowers",
  "leaf_litter",
  "open_eyeblossom",
  "closed_eyeblossom",
  "pitcher_plant",
  "pitcher_crop",
  "torchflower_crop",
  "wheat",
  "carrots",
  "potatoes",
  "beetroots",
  "melon_stem",
  "pumpkin_stem",
  "attached_melon_stem",
  "attached_pumpkin_stem",
  "sweet_berry_bush",
  "nether_wart",
  "bush",
  "firefly_bush",
  "short_dry_grass",
  "tall_dry_grass",
  "cactus_flower",
  "crimson_roots",
  "warped_roots",
  "nether_sprouts",
  "azalea",
  "flowering_azalea",
  "mangrove_propagule",
]);

/** `hasBlockEntity`: the game's registry gives the block a block-entity type (the generated data's). */
export function behaviorHints(name: string, propertyNames: ReadonlySet<string>, halfValues: readonly string[], hasBlockEntity: boolean): BehaviorHint[] {
  const hints: BehaviorHint[] = [];
  if (GRAVITY.has(name) || name.endsWith("_concrete_powder")) hints.push("gravity");
  if (FLUID.has(name)) hints.push("fluid");
  if (
    ATTACHED_NAMES.has(name) ||
    ATTACHED_PATTERN.test(name) ||
    FLOWERS.has(name) ||
    propertyNames.has("face") ||
    propertyNames.has("hanging") ||
    propertyNames.has("attachment")
  ) {
    hints.push("attachment");
  }
  const twoHalves = halfValues.includes("upper") && halfValues.includes("lower");
  if (twoHalves || propertyNames.has("part") || name === "piston_head" || name === "moving_piston") hints.push("multipart");
  if (hasBlockEntity) hints.push("block_entity");
  return hints;
}
