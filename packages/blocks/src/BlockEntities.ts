import type { BlockRegistry } from "./BlockRegistry.js";

/**
 * Which states carry a block entity (chests, signs, …), from the registry's behaviour hints. For
 * world adapters that must create default data for new block entities.
 */
export function blockEntityPredicate(registry: BlockRegistry): (state: string) => boolean {
  return (state) => {
    const i = state.indexOf("[");
    const id = i < 0 ? state : state.slice(0, i);
    return registry.blockTypes.get(id)?.behavior.includes("block_entity") ?? false;
  };
}
