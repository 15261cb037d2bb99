import { isAir, blockIdOf, blockShapes, boundsOf, posKey, type BlockRegistry, type Box3, type Face } from "@mcb/blocks";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import type { WorldAdapter } from "../world/WorldAdapter.js";

/**
 * Positional placement warnings: a block that hangs on or stands on another (torch, lantern,
 * ladder, door, flower …) where that other block, in the plan or in the world, cannot hold it; a
 * two-block block (door, bed, tall plant) whose other half is missing; a falling block over air or
 * fluid. Each warning names positions (at most `LISTED`, then a count). Advisory, never blocking.
 */
const LISTED = 5;

type Need = "sturdy" | "centre" | "soil" | "any" | "spike";
interface Support {
  readonly face: Face;
  readonly need: Need;
}

const OPPOSITE: Readonly<Record<Face, Face>> = { down: "up", up: "down", north: "south", south: "north", west: "east", east: "west" };
const STEP: Readonly<Record<Face, readonly [number, number, number]>> = {
  down: [0, -1, 0],
  up: [0, 1, 0],
  north: [0, 0, -1],
  south: [0, 0, 1],
  west: [-1, 0, 0],
  east: [1, 0, 0],
};
const WORDS: Readonly<Record<Face, string>> = {
  down: "below",
  up: "above",
  north: "to the north",
  south: "to the south",
  west: "to the west",
  east: "to the east",
};
/** The middle of a face (a torch or lantern needs only that much). */
const CENTRE = [7, 7, 9, 9] as const;

const SOIL = new Set([
  "grass_block",
  "dirt",
  "coarse_dirt",
  "podzol",
  "rooted_dirt",
  "moss_block",
  "pale_moss_block",
  "mud",
  "muddy_mangrove_roots",
  "farmland",
  "mycelium",
  "crimson_nylium",
  "warped_nylium",
  "soul_soil",
  "sand",
  "red_sand",
  "suspicious_sand",
  "clay",
  "gravel",
]);
const PLANTS =
  /(^(dandelion|golden_dandelion|poppy|blue_orchid|allium|azure_bluet|oxeye_daisy|cornflower|lily_of_the_valley|wither_rose|torchflower|short_grass|fern|dead_bush|pink_petals|wildflowers|leaf_litter|open_eyeblossom|closed_eyeblossom|sweet_berry_bush|bush|firefly_bush|short_dry_grass|azalea|flowering_azalea|wheat|carrots|potatoes|beetroots|sugar_cane|bamboo|cactus)$|_sapling$|_tulip$|_roots$|_fungus$|_propagule$)/;
const FLOOR =
  /(^(torch|soul_torch|redstone_torch|copper_torch|redstone_wire|repeater|comparator|flower_pot|snow|candle|lever)$|_sign$|_banner$|rail$|_carpet$|_pressure_plate$|_candle$|^potted_|_mushroom$)/;
/** Floor blocks that need only the middle of the face below, or only something there. */
const FLOOR_CENTRE = /torch|candle|flower_pot|potted_|_sign$|_banner$|_pressure_plate$/;
const FLOOR_ANY = /_carpet$|_mushroom$/;
const WALL = /(^(ladder|tripwire_hook)$|_wall_torch$|_wall_sign$|_wall_banner$|_coral_wall_fan$)/;
const FALLING = /(^(sand|red_sand|gravel|suspicious_sand|suspicious_gravel|anvil|chipped_anvil|damaged_anvil|dragon_egg)$|_concrete_powder$)/;

/** What a state stands or hangs on; null when it holds itself (or is not checked, like vines). */
function supportOf(state: string, props: Readonly<Record<string, string>>): Support | null {
  const name = blockIdOf(state).replace(/^minecraft:/, "");
  const facing = props.facing as Face | undefined;
  if (props.face !== undefined) {
    if (props.face === "floor") return { face: "down", need: "centre" };
    if (props.face === "ceiling") return { face: "up", need: "centre" };
    return facing === undefined ? null : { face: OPPOSITE[facing], need: "sturdy" };
  }
  if (name === "bell") {
    if (props.attachment === "floor") return { face: "down", need: "centre" };
    if (props.attachment === "ceiling") return { face: "up", need: "centre" };
    return props.attachment === "single_wall" && facing !== undefined ? { face: OPPOSITE[facing], need: "sturdy" } : null;
  }
  if (props.hanging !== undefined && /lantern$/.test(name)) return { face: props.hanging === "true" ? "up" : "down", need: "centre" };
  if (/_wall_hanging_sign$/.test(name)) return null;
  if (/_hanging_sign$/.test(name)) return { face: "up", need: "any" };
  if (WALL.test(name)) return facing === undefined ? null : { face: OPPOSITE[facing], need: /sign|banner/.test(name) ? "any" : "sturdy" };
  // Pointed dripstone and 26.2's sulfur spike: on a sturdy face, or on one of their own pointing the same way (the game's PointedDripstoneBlock rule).
  if ((name === "pointed_dripstone" || name === "sulfur_spike") && props.vertical_direction !== undefined)
    return { face: props.vertical_direction === "down" ? "up" : "down", need: "spike" };
  if (name === "cocoa") return facing === undefined ? null : { face: facing, need: "any" };
  if (props.half === "upper") return null; // held by its lower half (see the two-block check)
  if (/_door$/.test(name)) return { face: "down", need: "sturdy" };
  if (PLANTS.test(name) || (props.half === "lower" && !/_door$/.test(name) && props.facing === undefined)) return { face: "down", need: "soil" };
  if (FLOOR.test(name)) return { face: "down", need: FLOOR_CENTRE.test(name) ? "centre" : FLOOR_ANY.test(name) ? "any" : "sturdy" };
  return null;
}

/** The other half of a two-block block, as an offset and the state it must have there; null for one-block blocks. */
function otherHalf(
  state: string,
  props: Readonly<Record<string, string>>,
): { readonly at: readonly [number, number, number]; readonly matches: (other: string) => boolean; readonly words: string } | null {
  const id = blockIdOf(state);
  const same = (other: string, key: string, value: string): boolean => blockIdOf(other) === id && new RegExp(`[[,]${key}=${value}[,\\]]`).test(other);
  if (props.half === "lower" || props.half === "upper") {
    if (!/_door$|^minecraft:(sunflower|lilac|rose_bush|peony|tall_grass|large_fern|pitcher_plant|tall_seagrass|small_dripleaf|tall_dry_grass)$/.test(id))
      return null;
    const up = props.half === "lower";
    return { at: [0, up ? 1 : -1, 0], matches: (o) => same(o, "half", up ? "upper" : "lower"), words: up ? "upper half above" : "lower half below" };
  }
  if (/_bed$/.test(id) && (props.part === "foot" || props.part === "head") && props.facing !== undefined) {
    const [dx, , dz] = STEP[props.facing as Face];
    const foot = props.part === "foot";
    return { at: foot ? [dx, 0, dz] : [-dx, 0, -dz], matches: (o) => same(o, "part", foot ? "head" : "foot"), words: foot ? "head in front" : "foot behind" };
  }
  return null;
}

interface Finding {
  readonly kind: "attachment" | "incomplete" | "gravity";
  readonly text: string;
}

/** Reads the states at `keys` ("x,y,z") from the world, one box read per 16³ section they fall in. */
async function readAt(world: Pick<WorldAdapter, "read">, points: ReadonlyArray<readonly [number, number, number]>): Promise<Map<string, string>> {
  const bySection = new Map<string, Array<readonly [number, number, number]>>();
  for (const p of points) {
    const k = `${p[0] >> 4},${p[1] >> 4},${p[2] >> 4}`;
    let list = bySection.get(k);
    if (list === undefined) bySection.set(k, (list = []));
    list.push(p);
  }
  const out = new Map<string, string>();
  for (const list of bySection.values()) {
    const box: Box3 = {
      minX: Math.min(...list.map((p) => p[0])),
      minY: Math.min(...list.map((p) => p[1])),
      minZ: Math.min(...list.map((p) => p[2])),
      maxX: Math.max(...list.map((p) => p[0])),
      maxY: Math.max(...list.map((p) => p[1])),
      maxZ: Math.max(...list.map((p) => p[2])),
    };
    let read;
    try {
      read = await world.read(box);
    } catch {
      continue; // unloaded or unreachable: not judged
    }
    const w = box.maxX - box.minX + 1,
      d = box.maxZ - box.minZ + 1;
    for (const [x, y, z] of list) out.set(posKey(x, y, z), read.palette[read.states[((y - box.minY) * d + (z - box.minZ)) * w + (x - box.minX)]!]!);
  }
  return out;
}

/** The plan's states at the positions inside the box around `points` (only there: the rest is never asked). */
function plannedNear(plan: PreparedPlan, points: ReadonlyArray<readonly [number, number, number]>): Map<string, string> {
  const box = boundsOf(points.flat());
  if (box === null) return new Map();
  const { minX: x0, minY: y0, minZ: z0, maxX: x1, maxY: y1, maxZ: z1 } = box;
  const out = new Map<string, string>();
  for (let i = 0; i < plan.after.length; i++) {
    const x = plan.pos[i * 3]!,
      y = plan.pos[i * 3 + 1]!,
      z = plan.pos[i * 3 + 2]!;
    if (x >= x0 && x <= x1 && y >= y0 && y <= y1 && z >= z0 && z <= z1) out.set(posKey(x, y, z), plan.states[plan.after[i]!]!);
  }
  return out;
}

/** The warnings for a prepared build plan (see the module comment); world reads only next to blocks that need support. */
export async function placementWarnings(registry: BlockRegistry, world: Pick<WorldAdapter, "read">, plan: PreparedPlan): Promise<string[]> {
  const shapes = blockShapes(registry);
  const wanted = neighbourChecks(plan, stateNeeds(registry, plan), (nb, support, face, self) => holds(shapes, nb, support, face, self));
  if (wanted.length === 0) return [];
  const after = plannedNear(
    plan,
    wanted.map((w) => w.at),
  );
  const outside = wanted.filter((w) => !after.has(posKey(...w.at))).map((w) => w.at);
  const seen = await readAt(world, outside);
  const found = new Map<Finding["kind"], string[]>();
  for (const w of wanted) {
    const key = posKey(...w.at);
    const f = w.check(after.get(key) ?? seen.get(key));
    if (f === null) continue;
    let list = found.get(f.kind);
    if (list === undefined) found.set(f.kind, (list = []));
    list.push(f.text);
  }
  return phrased(found);
}

/** What a placed state needs: support on a face, its other half, ground below (falling blocks); null: nothing. */
type StateNeed = { readonly support: Support | null; readonly half: ReturnType<typeof otherHalf>; readonly falling: boolean } | null;

/** What each distinct state needs, judged once per state (a plan of 100,000 blocks has few states). */
function stateNeeds(registry: BlockRegistry, plan: PreparedPlan): StateNeed[] {
  return plan.states.map((state) => {
    if (state === "minecraft:air") return null;
    const p = registry.stateOf(state).properties;
    const support = supportOf(state, p);
    const half = otherHalf(state, p);
    const falling = FALLING.test(blockIdOf(state).replace(/^minecraft:/, ""));
    return support === null && half === null && !falling ? null : { support, half, falling };
  });
}

type Holds = (nb: string | undefined, s: Support, face: Face, self: string) => boolean;
type NeighbourCheck = { readonly at: readonly [number, number, number]; readonly check: (state: string | undefined) => Finding | null };

/** Neighbours to look at, each with its check: below falling blocks, at each support face, at each other half. */
function neighbourChecks(plan: PreparedPlan, needs: readonly StateNeed[], holdsOn: Holds): NeighbourCheck[] {
  const wanted: NeighbourCheck[] = [];
  for (let i = 0; i < plan.after.length; i++) {
    const need = needs[plan.after[i]!];
    if (need === null || need === undefined) continue;
    const x = plan.pos[i * 3]!,
      y = plan.pos[i * 3 + 1]!,
      z = plan.pos[i * 3 + 2]!;
    const state = plan.states[plan.after[i]!]!;
    const where = `${x} ${y} ${z}`;
    const { support, half } = need;
    if (support !== null) {
      const [dx, dy, dz] = STEP[support.face];
      wanted.push({
        at: [x + dx, y + dy, z + dz],
        check: (nb) =>
          holdsOn(nb, support, OPPOSITE[support.face], state)
            ? null
            : { kind: "attachment", text: `${state} at ${where} (nothing holds it ${WORDS[support.face]})` },
      });
    }
    if (half !== null)
      wanted.push({
        at: [x + half.at[0], y + half.at[1], z + half.at[2]],
        check: (nb) => (nb !== undefined && half.matches(nb) ? null : { kind: "incomplete", text: `${state} at ${where} (no ${half.words})` }),
      });
    if (need.falling) {
      wanted.push({
        at: [x, y - 1, z],
        check: (nb) =>
          nb === undefined || isAir(nb) || /^minecraft:(water|lava)(\[|$)/.test(nb)
            ? { kind: "gravity", text: `${state} at ${where} (falls: nothing below)` }
            : null,
      });
    }
  }
  return wanted;
}

/** One warning per kind found, naming up to `LISTED` blocks. */
function phrased(found: ReadonlyMap<Finding["kind"], string[]>): string[] {
  const HEAD: Record<Finding["kind"], string> = {
    attachment: "attachment: nothing holds",
    incomplete: "incomplete: two-block blocks miss their other half:",
    gravity: "gravity: falling blocks over air or fluid:",
  };
  return (["attachment", "incomplete", "gravity"] as const)
    .filter((k) => found.has(k))
    .map((k) => {
      const list = found.get(k)!;
      const head = k === "attachment" ? `${HEAD[k]} ${list.length} block${list.length === 1 ? "" : "s"}:` : HEAD[k];
      return `${head} ${list.slice(0, LISTED).join("; ")}${list.length > LISTED ? `; and ${list.length - LISTED} more` : ""}`;
    });
}

/** Whether neighbour `nb` gives the support `s` on its `face` to `self`. */
function holds(shapes: ReturnType<typeof blockShapes>, nb: string | undefined, s: Support, face: Face, self: string): boolean {
  if (nb === undefined) return false;
  const id = blockIdOf(nb).replace(/^minecraft:/, "");
  if (isAir(id) || id === "water" || id === "lava") return false;
  switch (s.need) {
    case "any":
      return true;
    case "soil":
      return SOIL.has(id) || blockIdOf(nb) === blockIdOf(self);
    case "centre":
      return shapes.covers(nb, face, CENTRE);
    case "sturdy":
      return shapes.covers(nb, face);
    case "spike":
      return shapes.covers(nb, face) || (blockIdOf(nb) === blockIdOf(self) && nb.includes(`vertical_direction=${face === "up" ? "up" : "down"}`));
  }
}
