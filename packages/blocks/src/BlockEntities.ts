import type { BlockRegistry } from "./BlockRegistry.js";
import { blockIdOf } from "./BlockStateSyntax.js";

/**
 * Which states carry a block entity (chests, signs, …), from the registry's behaviour hints. For
 * world adapters that must create default data for new block entities.
 */
export function blockEntityPredicate(registry: BlockRegistry): (state: string) => boolean {
  return (state) => registry.blockTypes.get(blockIdOf(state))?.behavior.includes("block_entity") ?? false;
}
