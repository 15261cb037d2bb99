import type { BlockRegistry } from "./BlockRegistry.js";
import { blockIdOf } from "./BlockStateSyntax.js";

/**
 * Which states carry a block entity (chests, signs, …), from the registry's behaviour hints. For
 * world adapters that must create default data for new block entities.
 */
export function blockEntityPredicate(registry: BlockRegistry): (state: string) => boolean {
  return (state) => registry.blockTypes.get(blockIdOf(state))?.behavior.includes("block_entity") ?? false;
}

/**
 * The block-entity type of a state (`minecraft:mob_spawner` for a spawner, `minecraft:shelf` for
 * every shelf …), from the game's registry; null for a state without one or not in the registry.
 */
export function blockEntityType(registry: BlockRegistry): (state: string) => string | null {
  return (state) => registry.blockTypes.get(blockIdOf(state))?.blockEntity ?? null;
}
