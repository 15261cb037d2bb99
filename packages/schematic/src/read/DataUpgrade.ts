import { formatState, parseStateSyntax } from "@mcb/blocks";

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
  rename(3698, "1.20.3", "minecraft:grass", "minecraft:short_grass"),
  rename(4554, "1.21.9", "minecraft:chain", "minecraft:iron_chain"),
];

/**
 * A palette state written at `fromDataVersion`, in the form of `toDataVersion`: every step in
 * between applied in order. Unparsable strings are returned as they are (the registry refuses them).
 */
export function upgradeState(state: string, fromDataVersion: number, toDataVersion: number): { state: string; applied: readonly string[] } {
  const steps = BLOCK_UPGRADES.filter((u) => u.dataVersion > fromDataVersion && u.dataVersion <= toDataVersion);
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
