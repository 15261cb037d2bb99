/**
 * Box models of common non-cube blocks, in block units: 7 numbers per box
 * [x0, y0, z0, x1, y1, z1, part], part 0 drawn in the block's colour and 1 in its accent colour
 * (a torch's flame, a lever's handle); null for a full cube. Boxes follow the game's models and
 * outline shapes (stairs by facing/half/shape, wall torches, lanterns, chains, buttons, levers,
 * signs, ladders, vines, slabs, fences, walls, panes, doors, trapdoors...), axis-aligned.
 */
export type BoxModel = Float64Array | null;

const P = 1 / 16;
type Dir = "north" | "south" | "east" | "west";
const DIRECTIONS: Record<Dir, [number, number]> = { north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0] };

/** A box given in sixteenths, as seen for a block facing north, turned to face `facing`. */
function turned(facing: string | undefined, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, part = 0): number[] {
  switch (facing) {
    case "south":
      return [16 - x1, y0, 16 - z1, 16 - x0, y1, 16 - z0, part].map((v, i) => (i < 6 ? v * P : v));
    case "west":
      return [z0, y0, 16 - x1, z1, y1, 16 - x0, part].map((v, i) => (i < 6 ? v * P : v));
    case "east":
      return [16 - z1, y0, x0, 16 - z0, y1, x1, part].map((v, i) => (i < 6 ? v * P : v));
    default:
      return [x0, y0, z0, x1, y1, z1, part].map((v, i) => (i < 6 ? v * P : v));
  }
}

function flipY(boxes: number[]): number[] {
  const out = boxes.slice();
  for (let k = 0; k < out.length; k += 7) [out[k + 1], out[k + 4]] = [1 - boxes[k + 4]!, 1 - boxes[k + 1]!];
  return out;
}

const box = (x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, part = 0) => [x0 * P, y0 * P, z0 * P, x1 * P, y1 * P, z1 * P, part];

const FLAT = box(0, 0, 0, 16, 1, 16);
const PLANT = box(4.8, 0, 4.8, 11.2, 12.8, 11.2);
const TALL_PLANT = box(4.8, 0, 4.8, 11.2, 16, 11.2);
const SMALL = box(6.4, 0, 6.4, 9.6, 9.6, 9.6);

const FLOWERS = new Set([
  "dandelion",
  "poppy",
  "blue_orchid",
  "allium",
  "azure_bluet",
  "oxeye_daisy",
  "cornflower",
  "lily_of_the_valley",
  "wither_rose",
  "torchflower",
  "short_grass",
  "fern",
  "dead_bush",
  "seagrass",
  "brown_mushroom",
  "red_mushroom",
  "crimson_fungus",
  "warped_fungus",
  "crimson_roots",
  "warped_roots",
  "nether_sprouts",
  "sweet_berry_bush",
  "wheat",
  "carrots",
  "potatoes",
  "beetroots",
  "nether_wart",
  "torchflower_crop",
  "pink_petals",
  "wildflowers",
  "leaf_litter",
  "bush",
  "firefly_bush",
  "short_dry_grass",
]);
const TALL = new Set([
  "tall_grass",
  "large_fern",
  "sunflower",
  "lilac",
  "rose_bush",
  "peony",
  "sugar_cane",
  "kelp",
  "kelp_plant",
  "tall_seagrass",
  "pitcher_plant",
  "bamboo",
  "tall_dry_grass",
  "cactus_flower",
]);
const SMALLS = new Set(["tripwire_hook", "flower_pot", "candle"]);
const FLATS = new Set([
  "rail",
  "powered_rail",
  "detector_rail",
  "activator_rail",
  "redstone_wire",
  "tripwire",
  "lily_pad",
  "moss_carpet",
  "pale_moss_carpet",
  "sculk_vein",
  "resin_clump",
]);

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
  const c0 = 0.5 - half,
    c1 = 0.5 + half,
    a0 = 0.5 - armHalf,
    a1 = 0.5 + armHalf;
  const boxes = [c0, 0, c0, c1, 1, c1, 0];
  for (const [dir, [dx, dz]] of Object.entries(DIRECTIONS)) {
    const v = p[dir];
    if (v === undefined || v === "false" || v === "none") continue;
    const spans = rails ?? [[0, v === "tall" ? 1 : armTop]];
    for (const [y0, y1] of spans) {
      if (dx !== 0) boxes.push(dx > 0 ? c1 : 0, y0, a0, dx > 0 ? 1 : c0, y1, a1, 0);
      else boxes.push(a0, y0, dz > 0 ? c1 : 0, a1, y1, dz > 0 ? 1 : c0, 0);
    }
  }
  return boxes;
}

/** The game's StairBlock: a bottom slab plus the step's quarters (facing north: the step at the north). */
function stairs(p: Record<string, string>): number[] {
  const f = p["facing"],
    shape = p["shape"] ?? "straight";
  const step: number[] = [];
  if (shape === "outer_left") step.push(...turned(f, 0, 8, 0, 8, 16, 8));
  else if (shape === "outer_right") step.push(...turned(f, 8, 8, 0, 16, 16, 8));
  else {
    step.push(...turned(f, 0, 8, 0, 16, 16, 8));
    if (shape === "inner_left") step.push(...turned(f, 0, 8, 8, 8, 16, 16));
    if (shape === "inner_right") step.push(...turned(f, 8, 8, 8, 16, 16, 16));
  }
  const boxes = [...box(0, 0, 0, 16, 8, 16), ...step];
  return p["half"] === "top" ? flipY(boxes) : boxes;
}

/** Buttons and levers: `face` floor/wall/ceiling, `facing` the direction they point away from their wall. */
function attached(p: Record<string, string>, w: number, h: number, depth: number, extra: (face: string) => number[]): number[] {
  const face = p["face"] ?? "wall",
    f = p["facing"];
  const along = f === "east" || f === "west";
  let boxes: number[];
  if (face === "wall") boxes = turned(f, 8 - w / 2, 8 - h / 2, 16 - depth, 8 + w / 2, 8 + h / 2, 16);
  else {
    const [y0, y1] = face === "floor" ? [0, depth] : [16 - depth, 16];
    boxes = along ? box(8 - h / 2, y0, 8 - w / 2, 8 + h / 2, y1, 8 + w / 2) : box(8 - w / 2, y0, 8 - h / 2, 8 + w / 2, y1, 8 + h / 2);
  }
  return [...boxes, ...extra(face)];
}

function lever(p: Record<string, string>): number[] {
  return attached(p, 6, 8, 3, (face) => {
    const f = p["facing"];
    if (face === "wall") return turned(f, 7, 7, 8, 9, 9, 13, 1);
    return face === "floor" ? box(7, 3, 7, 9, 11, 9, 1) : box(7, 5, 7, 9, 13, 9, 1);
  });
}

/** Sign boards: standing (post + board turned by rotation), wall (board on the wall), hanging. */
function sign(name: string, p: Record<string, string>): number[] {
  if (name.endsWith("_wall_hanging_sign")) return turned(p["facing"], 1, 0, 7, 15, 10, 9);
  if (name.endsWith("_wall_sign")) return turned(p["facing"], 0, 4.5, 14, 16, 12.5, 16);
  const across = (Math.round(Number(p["rotation"] ?? 0) / 4) & 1) === 1; // facing east or west
  if (name.endsWith("_hanging_sign")) return across ? box(7, 0, 1, 9, 10, 15) : box(1, 0, 7, 15, 10, 9);
  const board = across ? box(7.3, 8, 0, 8.7, 16, 16) : box(0, 8, 7.3, 16, 16, 8.7);
  return [...box(7.3, 0, 7.3, 8.7, 8, 8.7, 1), ...board];
}

function vine(p: Record<string, string>): number[] {
  const out: number[] = [];
  if (p["north"] === "true") out.push(...box(0, 0, 0, 16, 16, 1));
  if (p["south"] === "true") out.push(...box(0, 0, 15, 16, 16, 16));
  if (p["west"] === "true") out.push(...box(0, 0, 0, 1, 16, 16));
  if (p["east"] === "true") out.push(...box(15, 0, 0, 16, 16, 16));
  if (p["up"] === "true") out.push(...box(0, 15, 0, 16, 16, 16));
  return out.length > 0 ? out : box(0, 0, 0, 16, 16, 1);
}

function torch(name: string, p: Record<string, string>): number[] {
  // The game's torch is a 2×10 stick with the flame at its top; on a wall it leans out from the wall.
  // (a staircase of three 2×2 pieces stands for the leaning stick).
  if (name.endsWith("wall_torch")) {
    const f = p["facing"];
    return [
      ...turned(f, 7, 3.5, 14, 9, 6.3, 16),
      ...turned(f, 7, 6.3, 12.5, 9, 9, 14.5),
      ...turned(f, 7, 9, 11, 9, 11.5, 13),
      ...turned(f, 7, 11.5, 10.5, 9, 13.5, 12.5, 1),
    ];
  }
  return [...box(7, 0, 7, 9, 8, 9), ...box(7, 8, 7, 9, 10, 9, 1)];
}

function modelBoxes(state: string): number[] | null {
  const name = state.replace(/^minecraft:/, "").replace(/\[.*$/, "");
  const p = props(state);
  if (name.endsWith("_stairs")) return stairs(p);
  if (name.endsWith("_slab")) return p["type"] === "top" ? box(0, 8, 0, 16, 16, 16) : p["type"] === "double" ? null : box(0, 0, 0, 16, 8, 16);
  if (name === "snow") {
    const layers = Number(p["layers"] ?? 1);
    return layers >= 8 ? null : box(0, 0, 0, 16, Math.max(1, layers) * 2, 16);
  }
  if (name === "torch" || name === "soul_torch" || name === "redstone_torch" || name.endsWith("wall_torch")) return torch(name, p);
  if (name === "lantern" || name === "soul_lantern")
    // The lit body (accent) under its dark iron cap.
    return p["hanging"] === "true" ? [...box(5, 1, 5, 11, 8, 11, 1), ...box(6, 8, 6, 10, 10, 10)] : [...box(5, 0, 5, 11, 7, 11, 1), ...box(6, 7, 6, 10, 9, 10)];
  if (name === "chain" || name === "iron_chain" || name.endsWith("_chain"))
    return p["axis"] === "x" ? box(0, 6.5, 6.5, 16, 9.5, 9.5) : p["axis"] === "z" ? box(6.5, 6.5, 0, 9.5, 9.5, 16) : box(6.5, 0, 6.5, 9.5, 16, 9.5);
  if (name === "pointed_dripstone" || name === "sulfur_spike") return spike(p);
  if (name.endsWith("_button")) return attached(p, 6, 4, p["powered"] === "true" ? 1 : 2, () => []);
  if (name === "lever") return lever(p);
  if (name.endsWith("_sign")) return sign(name, p);
  if (name === "ladder") return turned(p["facing"], 0, 0, 13, 16, 16, 16);
  if (name === "vine" || name === "glow_lichen") return vine(p);
  if (name.endsWith("_carpet") || name.endsWith("_pressure_plate") || FLATS.has(name)) return FLAT;
  if (name.endsWith("_trapdoor")) {
    if (p["open"] !== "true") return p["half"] === "top" ? box(0, 13, 0, 16, 16, 16) : box(0, 0, 0, 16, 3, 16);
    // Open: the game's shape for facing north is the panel at z 13..16, turned for the others.
    return turned(p["facing"], 0, 0, 13, 16, 16, 16);
  }
  if (name.endsWith("_door")) {
    // The game's DoorBlock shapes: a 3/16 panel on the facing side when closed, turned by the hinge when open.
    const closed = p["open"] !== "true",
      right = p["hinge"] === "right";
    const f = (p["facing"] ?? "south") as Dir;
    const side: Record<Dir, [Dir, Dir]> = { west: ["south", "north"], north: ["west", "east"], east: ["north", "south"], south: ["east", "west"] };
    const at = closed ? f : right ? side[f][0] : side[f][1];
    // A panel at the *opposite* side of `at`'s direction: facing north puts the panel at z 13..16.
    return turned(at, 0, 0, 13, 16, 16, 16);
  }
  if (name.endsWith("_fence"))
    return post(p, 2 * P, P, 15 * P, [
      [6 * P, 9 * P],
      [12 * P, 15 * P],
    ]);
  if (name.endsWith("_wall")) return post(p, 4 * P, 3 * P, 14 * P);
  if (name.endsWith("_pane") || name === "iron_bars" || name === "glass_pane") return post(p, P, P, 1);
  if (
    FLOWERS.has(name) ||
    name.endsWith("_sapling") ||
    name.endsWith("_tulip") ||
    name === "mangrove_propagule" ||
    name.endsWith("_coral") ||
    name.endsWith("_coral_fan")
  )
    return PLANT;
  if (TALL.has(name) || name.endsWith("_banner")) return TALL_PLANT;
  if (SMALLS.has(name) || name.endsWith("_candle")) return SMALL;
  return null;
}

/** A pointed dripstone or sulfur spike: a column as wide as its thickness (the game's shapes, centred), tip up or down. */
function spike(p: Record<string, string>): number[] {
  const half = { tip_merge: 3, tip: 3, frustum: 4, middle: 5, base: 6 }[p["thickness"] ?? "tip"] ?? 3;
  const height = p["thickness"] === "tip" ? 11 : 16;
  const up = box(8 - half, 0, 8 - half, 8 + half, height, 8 + half);
  return p["vertical_direction"] === "down" ? flipY(up) : up;
}

const cache = new Map<string, BoxModel>();

export function modelOf(state: string): BoxModel {
  let s = cache.get(state);
  if (s === undefined) {
    const boxes = modelBoxes(state);
    s = boxes === null ? null : Float64Array.from(boxes);
    if (cache.size < 10_000) cache.set(state, s);
  }
  return s;
}
