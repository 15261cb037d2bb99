import { afterEach } from "vitest";
import type { MemoryWorld } from "@mcb/adapter-memory";
import { Harness, type HarnessOptions } from "@mcb/property-tests";

/** `harness(options)` for a test file: every harness it creates is closed after each test. */
export function harnessPool(): (options?: HarnessOptions & { readonly anvil?: false }) => Promise<Harness<MemoryWorld>> {
  let hs: Harness[] = [];
  afterEach(() => {
    hs.forEach((h) => h.close());
    hs = [];
  });
  return async (options = {}) => {
    const h = await Harness.create(options);
    hs.push(h);
    return h;
  };
}
