import { blockIdOf } from "@mcb/blocks";
import { modelOf, type BoxModel } from "./BlockModels.js";
import { Texture } from "./Textures.js";

/** How a block is drawn: opaque cube, translucent cube (blended, the ray goes on), or nothing. */
export type Surface = "opaque" | "translucent" | "none";

export interface BlockLook {
  /** sRGB 0..255. */
  readonly r: number;
  readonly g: number;
  readonly b: number;
  readonly surface: Surface;
  /** Opacity of a translucent surface (0..1). */
  readonly alpha: number;
  /** Top-face colour when it differs (grass, podzol, mycelium...). */
  readonly top?: readonly [number, number, number];
  /** Boxes inside the block (see BlockModels); null for a full cube. */
  readonly model: BoxModel;
  /** Colour of the boxes marked as accent (a torch's flame, a lever's handle); the main colour otherwise. */
  readonly accent?: readonly [number, number, number];
  /** Procedural face texture (see Textures). */
  readonly texture: number;
}

const DYES: Record<string, [number, number, number]> = {
  white: [233, 236, 236],
  orange: [240, 118, 19],
  magenta: [189, 68, 179],
  light_blue: [58, 175, 217],
  yellow: [248, 198, 39],
  lime: [112, 185, 25],
  pink: [237, 141, 172],
  gray: [62, 68, 71],
  light_gray: [142, 142, 134],
  cyan: [21, 137, 145],
  purple: [121, 42, 172],
  blue: [53, 57, 157],
  brown: [114, 71, 40],
  green: [84, 109, 27],
  red: [160, 39, 34],
  black: [20, 21, 25],
};

/** Longest first, so light_blue is not taken for blue. */
const DYE_ORDER = Object.keys(DYES).sort((a, b) => b.length - a.length);

const WOODS: Record<string, [number, number, number]> = {
  oak: [162, 130, 78],
  spruce: [114, 84, 48],
  birch: [196, 179, 123],
  jungle: [160, 115, 80],
  acacia: [168, 90, 50],
  dark_oak: [66, 43, 20],
  mangrove: [117, 54, 48],
  cherry: [226, 178, 172],
  pale_oak: [232, 222, 215],
  bamboo: [193, 173, 80],
  crimson: [101, 48, 70],
  warped: [43, 104, 99],
};

/** Exact ids first, then the first matching fragment (order matters: specific before general). */
const EXACT: Record<string, [number, number, number]> = {
  stone: [125, 125, 125],
  cobblestone: [122, 122, 122],
  mossy_cobblestone: [110, 118, 94],
  stone_bricks: [122, 121, 122],
  mossy_stone_bricks: [115, 121, 105],
  cracked_stone_bricks: [118, 117, 118],
  smooth_stone: [158, 158, 158],
  granite: [149, 103, 85],
  diorite: [188, 188, 188],
  andesite: [136, 136, 136],
  deepslate: [80, 80, 82],
  tuff: [108, 109, 102],
  calcite: [223, 224, 220],
  dirt: [134, 96, 67],
  coarse_dirt: [119, 85, 59],
  rooted_dirt: [144, 103, 76],
  grass_block: [134, 96, 67],
  podzol: [91, 63, 24],
  mycelium: [111, 99, 105],
  mud: [60, 57, 60],
  clay: [160, 166, 179],
  gravel: [131, 127, 126],
  sand: [219, 207, 163],
  red_sand: [190, 102, 33],
  sandstone: [216, 203, 155],
  red_sandstone: [186, 99, 29],
  snow_block: [249, 254, 254],
  snow: [249, 254, 254],
  ice: [145, 183, 253],
  packed_ice: [141, 180, 250],
  blue_ice: [116, 167, 253],
  water: [63, 118, 228],
  lava: [207, 92, 20],
  bedrock: [85, 85, 85],
  obsidian: [15, 10, 24],
  netherrack: [97, 38, 38],
  glowstone: [171, 131, 84],
  bricks: [150, 97, 83],
  terracotta: [152, 94, 67],
  glass: [200, 220, 230],
  tinted_glass: [44, 38, 46],
  iron_block: [220, 220, 220],
  gold_block: [246, 208, 61],
  diamond_block: [98, 237, 228],
  emerald_block: [42, 203, 87],
  coal_block: [16, 15, 15],
  redstone_block: [175, 24, 5],
  lapis_block: [30, 67, 140],
  copper_block: [192, 107, 79],
  quartz_block: [235, 229, 222],
  prismarine: [99, 156, 151],
  purpur_block: [169, 125, 169],
  end_stone: [219, 222, 158],
  hay_block: [166, 139, 12],
  pumpkin: [198, 118, 24],
  melon: [111, 145, 30],
  bookshelf: [117, 94, 59],
  torch: [130, 100, 60],
  wall_torch: [130, 100, 60],
  soul_torch: [130, 100, 60],
  soul_wall_torch: [130, 100, 60],
  redstone_torch: [130, 100, 60],
  redstone_wall_torch: [130, 100, 60],
  lantern: [62, 64, 72],
  soul_lantern: [62, 64, 72],
  chain: [62, 66, 78],
  iron_chain: [62, 66, 78],
  lever: [122, 122, 122],
  ladder: [150, 115, 70],
  glass_pane: [200, 220, 230],
  short_grass: [98, 146, 59],
  tall_grass: [98, 146, 59],
  fern: [88, 130, 52],
  dandelion: [255, 236, 79],
  poppy: [237, 48, 44],
  cactus: [85, 127, 43],
  sugar_cane: [148, 192, 101],
  dirt_path: [148, 122, 65],
  farmland: [143, 102, 70],
  moss_block: [89, 109, 45],
  amethyst_block: [133, 97, 191],
  mud_bricks: [137, 103, 79],
  packed_mud: [142, 106, 79],
  blackstone: [42, 36, 41],
  basalt: [80, 81, 86],
  soul_sand: [81, 62, 50],
  magma_block: [142, 63, 31],
  sea_lantern: [172, 199, 190],
  shroomlight: [240, 146, 70],
  honey_block: [251, 185, 52],
  slime_block: [111, 192, 91],
};

const FRAGMENTS: [string, [number, number, number]][] = [
  // 26.2's mineral families (the game's map colours: COLOR_RED, COLOR_YELLOW; potent sulfur GOLD), first: "sulfur_bricks" is no brick.
  ["potent_sulfur", [236, 214, 74]],
  ["cinnabar", [158, 48, 44]],
  ["sulfur", [214, 204, 72]],
  ["deepslate", [80, 80, 82]],
  ["blackstone", [42, 36, 41]],
  ["sandstone", [216, 203, 155]],
  ["stone_brick", [122, 121, 122]],
  ["cobblestone", [122, 122, 122]],
  ["quartz", [235, 229, 222]],
  ["prismarine", [99, 156, 151]],
  ["nether_brick", [44, 21, 26]],
  ["end_stone", [219, 222, 158]],
  ["purpur", [169, 125, 169]],
  ["copper", [192, 107, 79]],
  ["tuff", [108, 109, 102]],
  ["mud_brick", [137, 103, 79]],
  ["brick", [150, 97, 83]],
  ["granite", [149, 103, 85]],
  ["diorite", [188, 188, 188]],
  ["andesite", [136, 136, 136]],
  ["_ore", [130, 128, 128]],
  ["leaves", [60, 120, 40]],
  ["coral", [230, 90, 140]],
  ["mushroom", [150, 110, 90]],
  ["iron", [200, 200, 200]],
  ["gold", [246, 208, 61]],
  ["stone", [125, 125, 125]],
  ["sapling", [70, 120, 40]],
  ["vine", [60, 110, 40]],
  ["rail", [140, 120, 100]],
  ["flower", [220, 120, 160]],
  ["tulip", [220, 100, 80]],
  ["wool", [233, 236, 236]],
];

/** Accent colours (see BlockModels' part 1). */
const ACCENTS: Record<string, [number, number, number]> = {
  torch: [255, 216, 80],
  wall_torch: [255, 216, 80],
  soul_torch: [110, 225, 235],
  soul_wall_torch: [110, 225, 235],
  redstone_torch: [235, 45, 20],
  redstone_wall_torch: [235, 45, 20],
  lantern: [250, 200, 110],
  soul_lantern: [120, 220, 230],
  lever: [130, 100, 60],
};

function textureOf(name: string, state: string): number {
  if (name.endsWith("_log") || name.endsWith("_wood") || name.endsWith("_stem") || name.endsWith("_hyphae") || name === "basalt") {
    return state.includes("axis=x") ? Texture.logX : state.includes("axis=z") ? Texture.logZ : Texture.logY;
  }
  if (name.includes("leaves")) return Texture.leaves;
  if (name === "grass_block" || name === "mycelium" || name === "podzol") return Texture.grassy;
  if (name.includes("glass")) return Texture.glass;
  if (name.includes("cobble")) return Texture.cobble;
  if (name.includes("wool") || name.endsWith("_carpet")) return Texture.wool;
  if (/stone_brick|deepslate_brick|blackstone_brick|end_stone_brick|quartz_brick|_tiles|prismarine_brick/.test(name)) return Texture.stoneBricks;
  if (name.includes("brick")) return Texture.bricks;
  if (name.includes("planks") || (Object.keys(WOODS).some((w) => name.startsWith(`${w}_`)) && !name.includes("leaves"))) return Texture.planks;
  if (/concrete$|^smooth_|^polished_|quartz|_block$|terracotta|^iron_|^gold_|^copper|^cut_copper|ice$/.test(name) && !name.includes("powder"))
    return Texture.smooth;
  if (name === "water" || name === "lava") return Texture.flat;
  return Texture.noise;
}

const TRANSLUCENT_FRAGMENTS = ["glass", "ice", "water", "slime_block", "honey_block"];
const INVISIBLE = new Set(["air", "cave_air", "void_air", "barrier", "light", "structure_void"]);
const TOPS: Record<string, [number, number, number]> = {
  grass_block: [109, 153, 48],
  podzol: [122, 86, 37],
  mycelium: [111, 99, 105],
  farmland: [82, 44, 15],
  snow: [249, 254, 254],
};

function hashColor(name: string): [number, number, number] {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619) >>> 0;
  // Muted colours: mid saturation and value so unknown blocks stay readable.
  return [90 + (h & 0x7f), 90 + ((h >>> 8) & 0x7f), 90 + ((h >>> 16) & 0x7f)];
}

function baseColor(name: string): [number, number, number] {
  const exact = EXACT[name];
  if (exact !== undefined) return exact;
  for (const dye of DYE_ORDER) {
    const rgb = DYES[dye]!;
    if (name.startsWith(`${dye}_`)) {
      const rest = name.slice(dye.length + 1);
      if (rest.includes("terracotta")) return [Math.round(rgb[0] * 0.7 + 40), Math.round(rgb[1] * 0.6 + 30), Math.round(rgb[2] * 0.6 + 25)];
      return rgb;
    }
  }
  for (const [wood, rgb] of Object.entries(WOODS)) {
    if (name.startsWith(`${wood}_`) || name.startsWith(`stripped_${wood}_`)) {
      if (name.endsWith("_log") || name.endsWith("_wood") || name.endsWith("_stem") || name.endsWith("_hyphae")) {
        return name.startsWith("stripped_") ? rgb : [Math.round(rgb[0] * 0.55), Math.round(rgb[1] * 0.5), Math.round(rgb[2] * 0.45)];
      }
      if (name.endsWith("_leaves")) break;
      return rgb;
    }
  }
  for (const [fragment, rgb] of FRAGMENTS) if (name.includes(fragment)) return rgb;
  return hashColor(name);
}

const cache = new Map<string, BlockLook>();

/** The look of a canonical block state (colour by id; waterlogged blocks keep their own colour). */
export function lookOf(state: string): BlockLook {
  let look = cache.get(state);
  if (look !== undefined) return look;
  const name = blockIdOf(state).replace(/^minecraft:/, "");
  if (INVISIBLE.has(name)) look = { r: 0, g: 0, b: 0, surface: "none", alpha: 0, model: null, texture: Texture.flat };
  else {
    const [r, g, b] = baseColor(name);
    const translucent = TRANSLUCENT_FRAGMENTS.some((f) => name.includes(f)) && !name.includes("glazed");
    const top = TOPS[name];
    look = {
      r,
      g,
      b,
      surface: translucent ? "translucent" : "opaque",
      alpha: name.includes("water") ? 0.65 : name.includes("glass") ? 0.4 : 0.75,
      model: modelOf(state),
      texture: textureOf(name, state),
      ...(top ? { top } : {}),
      ...(ACCENTS[name] ? { accent: ACCENTS[name] } : {}),
    };
  }
  if (cache.size < 10_000) cache.set(state, look);
  return look;
}
