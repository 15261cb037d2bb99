import { formatState, parseStateSyntax } from "./BlockStateSyntax.js";

/**
 * Block renames between Minecraft versions, keyed by the DataVersion that introduced them (the
 * game's own DataFixer rename steps; the ids checked against minecraft-data: the old id exists
 * before, the new one from that version on). A state from a file older than `dataVersion` is
 * rewritten; the registry then validates the result as usual.
 */
export interface BlockUpgrade {
  /** First DataVersion with the new form. */
  readonly dataVersion: number;
  /** The game version it shipped in. */
  readonly since: string;
  readonly what: string;
  /** The upgraded (id, properties), or null when this step does not concern the state. */
  apply(id: string, props: Map<string, string>): { id: string; props: Map<string, string> } | null;
}

const rename = (dataVersion: number, since: string, from: string, to: string): BlockUpgrade => ({
  dataVersion,
  since,
  what: `${from} → ${to}`,
  apply: (id, props) => (id === from ? { id: to, props } : null),
});

/** The steps in DataVersion order. */
export const BLOCK_UPGRADES: readonly BlockUpgrade[] = [
  rename(1902, "1.14", "minecraft:sign", "minecraft:oak_sign"),
  rename(1902, "1.14", "minecraft:wall_sign", "minecraft:oak_wall_sign"),
  // 1.13's "stone slab" was the smooth stone slab; 1.14 renamed it and added a plain stone slab.
  rename(1902, "1.14", "minecraft:stone_slab", "minecraft:smooth_stone_slab"),
  {
    dataVersion: 2504,
    since: "1.16",
    what: "walls: sides true/false → low/none",
    apply: (id, props) => {
      if (!id.endsWith("_wall") || !["north", "east", "south", "west"].some((d) => props.get(d) === "true" || props.get(d) === "false")) return null;
      const p = new Map(props);
      for (const d of ["north", "east", "south", "west"]) if (p.has(d)) p.set(d, p.get(d) === "true" ? "low" : p.get(d) === "false" ? "none" : p.get(d)!);
      return { id, props: p };
    },
  },
  {
    dataVersion: 2521,
    since: "1.16",
    what: "jigsaw: facing → orientation",
    apply: (id, props) => {
      if (id !== "minecraft:jigsaw" || !props.has("facing")) return null;
      const f = props.get("facing")!;
      const p = new Map(props);
      p.delete("facing");
      p.set("orientation", f === "up" ? "up_north" : f === "down" ? "down_south" : `${f}_up`);
      return { id, props: p };
    },
  },
  rename(2681, "1.17", "minecraft:grass_path", "minecraft:dirt_path"),
  {
    dataVersion: 2681,
    since: "1.17",
    what: "cauldron with water levels → water_cauldron",
    apply: (id, props) => {
      if (id !== "minecraft:cauldron" || !props.has("level")) return null;
      const level = props.get("level")!;
      const p = new Map(props);
      p.delete("level");
      return level === "0" ? { id, props: p } : { id: "minecraft:water_cauldron", props: p.set("level", level) };
    },
  },
  {
    // 1.19.4's experimental torchflower crop grew in three stages; 1.20's in two.
    dataVersion: 3463,
    since: "1.20",
    what: "torchflower_crop: age 2 → 1",
    apply: (id, props) => (id === "minecraft:torchflower_crop" && props.get("age") === "2" ? { id, props: new Map(props).set("age", "1") } : null),
  },
  rename(3698, "1.20.3", "minecraft:grass", "minecraft:short_grass"),
  {
    // 1.21.2–1.21.3's experimental heart: creaking disabled/dormant/active; 1.21.4: active true/false.
    dataVersion: 4189,
    since: "1.21.4",
    what: "creaking_heart: creaking → active",
    apply: (id, props) => {
      if (id !== "minecraft:creaking_heart" || !props.has("creaking")) return null;
      const p = new Map(props);
      const creaking = p.get("creaking")!;
      p.delete("creaking");
      return { id, props: p.set("active", creaking === "disabled" ? "false" : "true") };
    },
  },
  {
    dataVersion: 4325,
    since: "1.21.5",
    what: "creaking_heart: active → creaking_heart_state",
    apply: (id, props) => {
      if (id !== "minecraft:creaking_heart" || !props.has("active")) return null;
      const p = new Map(props);
      const active = p.get("active")!;
      p.delete("active");
      return { id, props: p.set("creaking_heart_state", active === "true" ? "awake" : "uprooted") };
    },
  },
  rename(4554, "1.21.9", "minecraft:chain", "minecraft:iron_chain"),
];

/**
 * Block-entity types the game dropped, by the DataVersion from which its registry has no such
 * type: a block entity of it in older data is removed by the upgrade (it carries nothing the
 * block does not: a bed's colour is its block id since 1.13).
 */
export const BLOCK_ENTITY_REMOVALS: readonly {
  readonly dataVersion: number;
  readonly since: string;
  readonly id: string;
  readonly blocks: RegExp;
  readonly what: string;
}[] = [{ dataVersion: 4903, since: "26.2", id: "minecraft:bed", blocks: /^minecraft:[a-z_]+_bed$/, what: "bed block entities (26.2 beds have none)" }];

/**
 * The removal step that drops a block entity of type `id` (or, for files that leave the type
 * out, at a block of id `block`) written at `fromDataVersion`, read at `toDataVersion`;
 * undefined when it stays.
 */
export function removedBlockEntity(
  id: string,
  block: string,
  fromDataVersion: number,
  toDataVersion: number,
): (typeof BLOCK_ENTITY_REMOVALS)[number] | undefined {
  const full = id.includes(":") ? id : `minecraft:${id.toLowerCase()}`;
  return BLOCK_ENTITY_REMOVALS.find((r) => (r.id === full || r.blocks.test(block)) && r.dataVersion > fromDataVersion && r.dataVersion <= toDataVersion);
}

/**
 * A palette state written at `fromDataVersion`, in the form of `toDataVersion`: every step in
 * between applied in order (`table`: the steps, default `BLOCK_UPGRADES`; tests plant a gap). Unparsable strings are returned as they are (the registry refuses them).
 */
export function upgradeState(
  state: string,
  fromDataVersion: number,
  toDataVersion: number,
  table: readonly BlockUpgrade[] = BLOCK_UPGRADES,
): { state: string; applied: readonly string[] } {
  const steps = table.filter((u) => u.dataVersion > fromDataVersion && u.dataVersion <= toDataVersion);
  if (steps.length === 0) return { state, applied: [] };
  const parsed = parseStateSyntax(state);
  if (!parsed.ok) return { state, applied: [] };
  let id = parsed.value.id;
  let props = new Map(parsed.value.properties);
  const applied: string[] = [];
  for (const u of steps) {
    const r = u.apply(id, props);
    if (r === null) continue;
    ({ id, props } = r);
    applied.push(u.what);
  }
  return applied.length === 0 ? { state, applied } : { state: formatState(id, Object.fromEntries(props)), applied };
}
