import { afterEach } from "vitest";
import { Harness } from "@mcb/property-tests";

/** `harness(options)` for a test file: every harness it creates is closed after each test. */
export function harnessPool(): (options?: Parameters<typeof Harness.create>[0]) => Promise<Harness> {
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
