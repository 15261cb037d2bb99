import { describe, expect, it } from "vitest";
import { countingJournal } from "../CountingJournal.js";
import { openJournal } from "../../src/index.js";
import { BridgeClaims, ClaimLost } from "../../src/recovery/BridgeClaims.js";
import { PlanCache } from "../../src/plan/PlanCache.js";
import type { PreparedPlan } from "../../src/core/PreparedPlan.js";

const TTL = 300;

/** Blocks the event loop (a stalled bridge: no timer renews anything meanwhile). */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

describe("fencing a shared journal's claims", () => {
  it("a fence within a third of the expiry after a renewal asks nothing; a later one renews", () => {
    const { journal, calls: renewals } = countingJournal("renewClaims");
    const a = new BridgeClaims(journal, { shared: true, holder: "a", ttlMs: TTL });
    try {
      expect(a.own("op1")).toBe(true);
      a.fence("op1"); // the first fence renews (nothing known yet)
      expect(renewals()).toBe(1);
      a.fence("op1");
      a.fence("op1");
      expect(renewals()).toBe(1);
      stall(TTL / 3 + 20);
      a.fence("op1");
      expect(renewals()).toBe(2);
      expect(journal.claimHolder("op:op1")).toBe("a");
    } finally {
      a.close();
      journal.close();
    }
  });

  it("after a stall past the expiry, another bridge's claim is found: ClaimLost, whatever was renewed before", () => {
    const journal = openJournal(":memory:");
    const a = new BridgeClaims(journal, { shared: true, holder: "a", ttlMs: TTL });
    const b = new BridgeClaims(journal, { shared: true, holder: "b", ttlMs: TTL });
    try {
      expect(a.own("op1")).toBe(true);
      a.fence("op1");
      expect(b.own("op1")).toBe(false); // live: b leaves it alone
      stall(TTL + 30);
      expect(b.own("op1")).toBe(true); // expired: b recovers it
      expect(() => a.fence("op1")).toThrow(ClaimLost);
      expect(() => a.fence("op1")).toThrow(/another bridge \(b\) took over op:op1/);
    } finally {
      a.close();
      b.close();
      journal.close();
    }
  });

  it("every fence that returns leaves the claims held for at least two thirds of the expiry (another bridge cannot take them)", () => {
    const journal = openJournal(":memory:");
    const a = new BridgeClaims(journal, { shared: true, holder: "a", ttlMs: TTL });
    const b = new BridgeClaims(journal, { shared: true, holder: "b", ttlMs: TTL });
    try {
      expect(a.own("op1")).toBe(true);
      // Pauses before each fence, some inside the third without a round trip, some past it.
      for (const pause of [0, 60, 110, 30, 0]) {
        stall(pause);
        a.fence("op1");
        stall((2 * TTL) / 3 - 25);
        expect(b.own("op1")).toBe(false);
      }
    } finally {
      a.close();
      b.close();
      journal.close();
    }
  });
});

function fakePlan(id: string, positions: number): PreparedPlan {
  return { planId: id, pos: new Int32Array(positions * 3), depPos: new Int32Array(0) } as unknown as PreparedPlan;
}

describe("the plan cache", () => {
  it("keeps the most recently used plans within its bound of positions, and none larger than it", () => {
    const cache = new PlanCache(100);
    cache.put(fakePlan("a", 40));
    cache.put(fakePlan("b", 40));
    expect(cache.get("a")?.planId).toBe("a"); // a is now the most recent
    cache.put(fakePlan("c", 40)); // 120 > 100: the least recently used (b) goes
    expect([cache.get("a")?.planId, cache.get("b"), cache.get("c")?.planId]).toEqual(["a", undefined, "c"]);
    cache.put(fakePlan("huge", 101));
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});
