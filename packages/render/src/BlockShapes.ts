/**
 * Approximate collision shapes of common non-cube blocks, as boxes in block units
 * [x0, y0, z0, x1, y1, z1, ...]; null for a full cube. Enough for a capture to tell a slab from a
 * block, a fence from a wall and a flower from a cube; not every model detail (stairs stay cubes).
 */
export type Shape = Float64Array | null;

const P = 1 / 16;
const FLAT = [0, 0, 0, 1, P, 1];
const PLANT = [0.3, 0, 0.3, 0.7, 0.8, 0.7];
const TALL_PLANT = [0.3, 0, 0.3, 0.7, 1, 0.7];
const SMALL = [0.4, 0, 0.4, 0.6, 0.6, 0.6];

const FLOWERS = new Set(["dandelion", "poppy", "blue_orchid", "allium", "azure_bluet", "oxeye_daisy", "cornflower", "lily_of_the_valley", "wither_rose", "torchflower", "short_grass", "fern", "dead_bush", "seagrass", "brown_mushroom", "red_mushroom", "crimson_fungus", "warped_fungus", "crimson_roots", "warped_roots", "nether_sprouts", "sweet_berry_bush", "wheat", "carrots", "potatoes", "beetroots", "nether_wart", "torchflower_crop", "pink_petals", "wildflowers", "leaf_litter", "bush", "firefly_bush", "short_dry_grass"]);
const TALL = new Set(["tall_grass", "large_fern", "sunflower", "lilac", "rose_bush", "peony", "sugar_cane", "kelp", "kelp_plant", "tall_seagrass", "pitcher_plant", "bamboo", "tall_dry_grass", "cactus_flower"]);
const SMALLS = new Set(["torch", "soul_torch", "redstone_torch", "wall_torch", "soul_wall_torch", "redstone_wall_torch", "lever", "tripwire_hook", "flower_pot", "candle"]);
const FLATS = new Set(["rail", "powered_rail", "detector_rail", "activator_rail", "redstone_wire", "tripwire", "lily_pad", "moss_carpet", "pale_moss_carpet", "glow_lichen", "sculk_vein", "resin_clump"]);
const DIRECTIONS: Record<string, [number, number]> = { north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0] };

function props(state: string): Record<string, string> {
  const i = state.indexOf("[");
  const out: Record<string, string> = {};
  if (i < 0) return out;
  for (const kv of state.slice(i + 1, -1).split(",")) {
    const [k, v] = kv.split("=");
    if (k !== undefined && v !== undefined) out[k] = v;
  }
  return out;
}

/**
 * A post with an arm towards each connected side (fences, walls, panes, bars). `rails` gives the
 * arm's vertical spans (fences have two bars); by default one span from the ground to `armTop`.
 */
function post(p: Record<string, string>, half: number, armHalf: number, armTop: number, rails?: readonly [number, number][]): number[] {
  const c0 = 0.5 - half, c1 = 0.5 + half, a0 = 0.5 - armHalf, a1 = 0.5 + armHalf;
  const boxes = [c0, 0, c0, c1, 1, c1];
  for (const [dir, [dx, dz]] of Object.entries(DIRECTIONS)) {
    const v = p[dir];
    if (v === undefined || v === "false" || v === "none") continue;
    const spans = rails ?? [[0, v === "tall" ? 1 : armTop]];
    for (const [y0, y1] of spans) {
      if (dx !== 0) boxes.push(dx > 0 ? c1 : 0, y0, a0, dx > 0 ? 1 : c0, y1, a1);
      else boxes.push(a0, y0, dz > 0 ? c1 : 0, a1, y1, dz > 0 ? 1 : c0);
    }
  }
  return boxes;
}

function shapeBoxes(state: string): number[] | null {
  const name = state.replace(/^minecraft:/, "").replace(/\[.*$/, "");
  const p = props(state);
  if (name.endsWith("_slab")) return p["type"] === "top" ? [0, 0.5, 0, 1, 1, 1] : p["type"] === "double" ? null : [0, 0, 0, 1, 0.5, 1];
  if (name === "snow") {
    const layers = Number(p["layers"] ?? 1);
    return layers >= 8 ? null : [0, 0, 0, 1, Math.max(1, layers) / 8, 1];
  }
  if (name.endsWith("_carpet") || name.endsWith("_pressure_plate") || FLATS.has(name)) return FLAT;
  if (name.endsWith("_trapdoor")) {
    if (p["open"] !== "true") return p["half"] === "top" ? [0, 13 * P, 0, 1, 1, 1] : [0, 0, 0, 1, 3 * P, 1];
    switch (p["facing"]) {
      case "north": return [0, 0, 13 * P, 1, 1, 1];
      case "south": return [0, 0, 0, 1, 1, 3 * P];
      case "east": return [0, 0, 0, 3 * P, 1, 1];
      default: return [13 * P, 0, 0, 1, 1, 1];
    }
  }
  if (name.endsWith("_door")) {
    // Minecraft's DoorBlock shapes: a 3/16 panel, on the facing side when closed, turned by the hinge when open.
    const SOUTH = [0, 0, 0, 1, 1, 3 * P], NORTH = [0, 0, 13 * P, 1, 1, 1], WEST = [13 * P, 0, 0, 1, 1, 1], EAST = [0, 0, 0, 3 * P, 1, 1];
    const closed = p["open"] !== "true", right = p["hinge"] === "right";
    switch (p["facing"]) {
      case "west": return closed ? WEST : right ? SOUTH : NORTH;
      case "north": return closed ? NORTH : right ? WEST : EAST;
      case "east": return closed ? EAST : right ? NORTH : SOUTH;
      default: return closed ? SOUTH : right ? EAST : WEST;
    }
  }
  if (name.endsWith("_fence")) return post(p, 2 * P, P, 15 * P, [[6 * P, 9 * P], [12 * P, 15 * P]]);
  if (name.endsWith("_wall")) return post(p, 4 * P, 3 * P, 14 * P);
  if (name.endsWith("_pane") || name === "iron_bars" || name === "glass_pane") return post(p, P, P, 1);
  if (FLOWERS.has(name) || name.endsWith("_sapling") || name.endsWith("_tulip") || name === "mangrove_propagule" || name.endsWith("_coral") || name.endsWith("_coral_fan")) return PLANT;
  if (TALL.has(name) || name.endsWith("_sign") || name.endsWith("_banner")) return TALL_PLANT;
  if (SMALLS.has(name) || name.endsWith("_button") || name.endsWith("_candle")) return SMALL;
  return null;
}

const cache = new Map<string, Shape>();

export function shapeOf(state: string): Shape {
  let s = cache.get(state);
  if (s === undefined) {
    const boxes = shapeBoxes(state);
    s = boxes === null ? null : Float64Array.from(boxes);
    if (cache.size < 10_000) cache.set(state, s);
  }
  return s;
}
