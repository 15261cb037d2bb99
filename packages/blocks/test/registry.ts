import { createBlockRegistry, type BlockRegistry } from "../src/index.js";

let cached: BlockRegistry | undefined;

/** One registry per test worker: building it parses the generated data (~100 ms). */
export function registry(): BlockRegistry {
  if (cached === undefined) {
    const r = createBlockRegistry();
    if (!r.ok) throw new Error(r.error.message);
    cached = r.value;
  }
  return cached;
}
