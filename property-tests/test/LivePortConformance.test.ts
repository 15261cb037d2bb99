import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkAdapterConformance, portDriver, startMinestomHost, type MinestomHost } from "../src/index.js";

const ARENA = { minX: 0, maxX: 3, y: 64, minZ: 0, maxZ: 1 };

describe("WorldAdapter conformance against a live world port (Minestom 26.1.2 host)", () => {
  let host: MinestomHost;
  let buggy: MinestomHost;

  beforeAll(async () => {
    [host, buggy] = await Promise.all([startMinestomHost({ testHooks: true }), startMinestomHost({ plantedCasBug: true })]);
  }, 120_000);

  afterAll(async () => {
    for (const h of [host, buggy]) {
      if (h === undefined) continue;
      await h.stop();
      h.dispose();
    }
  });

  it("PortWorld on port-minestom satisfies the adapter contract", async () => {
    await checkAdapterConformance(() => portDriver(host, ARENA), 100);
  }, 300_000);

  it("catches a planted bug in the Java compare-and-set (writing past a failing group)", async () => {
    await expect(checkAdapterConformance(() => portDriver(buggy, ARENA), 100)).rejects.toThrow(/Property failed/);
  }, 300_000);
});
