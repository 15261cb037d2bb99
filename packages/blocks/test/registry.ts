import { createBlockRegistry, type BlockRegistry } from "../src/index.js";

let cached: BlockRegistry | undefined;

/** One registry per test worker: building it reads minecraft-data (~200 ms). */
export function registry(): BlockRegistry {
  if (cached === undefined) {
    const r = createBlockRegistry();
    if (!r.ok) throw new Error(r.error.message);
    cached = r.value;
  }
  return cached;
}
