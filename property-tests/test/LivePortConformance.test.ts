import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PortCallError, PortWorld } from "@mcb/adapter-port";
import { isHostCrash } from "@mcb/engine";
import { checkAdapterConformance, portDriver, startMinestomHost, type MinestomHost } from "../src/index.js";

const ARENA = { minX: 0, maxX: 3, y: 64, minZ: 0, maxZ: 1 };

describe("WorldAdapter conformance against a live world port (the Minestom 26.2 host)", () => {
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
    await checkAdapterConformance(() => portDriver(host, ARENA), 300);
  }, 300_000);

  it("catches a planted bug in the Java compare-and-set (writing past a failing group)", async () => {
    await expect(checkAdapterConformance(() => portDriver(buggy, ARENA), 100, { planted: true })).rejects.toThrow(/Property failed/);
  }, 300_000);

  it("refuses a wrong token without echoing it, and bad requests with structured errors", async () => {
    const wrong = `${host.token}x`;
    const e = await PortWorld.connect({ url: host.url, token: wrong }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PortCallError);
    expect(e).toMatchObject({ code: "permission_denied", status: 401 });
    expect((e as Error).message).not.toContain(host.token.slice(0, 8));
    const w = await PortWorld.connect({ url: host.url, token: host.token });
    try {
      await expect(w.read({ minX: 0, minY: 0, minZ: 0, maxX: 40, maxY: 40, maxZ: 40 })).rejects.toThrow(/exceeds 32768/);
      await expect(w.port.call("read", { box: { min: { x: 0, y: 0, z: 0 }, max: { x: 1, y: 1, z: 1 } }, extra: 1 }, true)).rejects.toMatchObject({
        code: "invalid_request",
        details: { path: "extra" },
      });
      await expect(w.port.call("read", { box: { min: { x: 0, y: 0, z: 0 }, max: { x: 40, y: 40, z: 40 } } }, true)).rejects.toMatchObject({
        code: "budget_exceeded",
      });
      await expect(w.read({ minX: 5000, minY: 64, minZ: 0, maxX: 5001, maxY: 64, maxZ: 1 })).rejects.toMatchObject({
        name: "ChunkNotLoaded",
        chunk: { x: 312, z: 0 },
      });
    } finally {
      await w.close();
    }
  });

  it.runIf(process.getuid?.() === 0 && process.platform === "linux")(
    "run as root, the threads a tick waits for run first (nice -10: the tick, its dispatcher, the port's executor); the saver yields (nice 4)",
    async () => {
      // The host has ticked by now (the conformance run above); a save makes sure the saver thread exists.
      const w = await PortWorld.connect({ url: host.url, token: host.token });
      await w.flush();
      await w.close();
      const niceOf = (): Map<string, number> => {
        const m = new Map<string, number>();
        for (const tid of readdirSync(`/proc/${host.process.pid}/task`)) {
          const stat = readFileSync(`/proc/${host.process.pid}/task/${tid}/stat`, "utf8");
          const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
          const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // field 19 (nice) is index 16 here
          m.set(name, Number(fields[16]));
        }
        return m;
      };
      const nice = niceOf();
      expect(nice.get("Ms-TickSchedule")).toBe(-10);
      expect(nice.get("Ms-Tick-0")).toBe(-10);
      expect(nice.get("mcb-port-game")).toBe(-10);
      expect(nice.get("mcb-port-saver")).toBe(4);
      expect(nice.get("main") ?? 0).toBe(0);
    },
  );

  it("a server that vanishes is a HostCrash for the next call", async () => {
    const h = await startMinestomHost({ testHooks: true });
    const w = await PortWorld.connect({ url: h.url, token: h.token });
    await h.kill();
    h.dispose();
    const e = await w.read({ minX: 0, minY: 64, minZ: 0, maxX: 1, maxY: 64, maxZ: 1 }).catch((x: unknown) => x);
    expect(isHostCrash(e)).toBe(true);
    await w.close();
  }, 120_000);
});
