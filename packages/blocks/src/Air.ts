/**
 * The game's three air blocks: `air`, and `cave_air` and `void_air`, which the world generator
 * places and which a player cannot tell from air. Wherever mcb asks "is nothing there" (surfaces,
 * heightmaps, counts, schematic pastes that skip air) it means any of the three.
 */
export const AIR_IDS = ["minecraft:air", "minecraft:cave_air", "minecraft:void_air"] as const;

const AIRS: ReadonlySet<string> = new Set([...AIR_IDS, "air", "cave_air", "void_air"]);

/** True for one of the air blocks, as a block id or a state (`minecraft:` may be left out; air has no properties). */
export function isAir(state: string): boolean {
  return AIRS.has(state);
}
