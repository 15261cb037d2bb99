import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CasSlice } from "@mcb/engine";
import { decodeBatchResult, encodeBatch } from "../src/CasBatchCodec.js";

interface VectorWrite {
  x: number;
  y: number;
  z: number;
  before: number;
  before_digest: number;
  after: number;
  data: string | null;
}
const vector = (
  JSON.parse(readFileSync(new URL("../../../java/protocol-vectors.json", import.meta.url), "utf8")) as {
    cas_batch: {
      states: string[];
      digests: string[];
      slices: { checks: { x: number; y: number; z: number; state: number; digest: number }[]; writes: VectorWrite[]; group_ends: number[] }[];
      body_hex: string;
    };
  }
).cas_batch;

/** The vector's slices as the engine hands them over (states and digests as strings). */
function slicesOf(v: typeof vector): CasSlice[] {
  const digest = (i: number) => (i < 0 ? null : v.digests[i]!);
  return v.slices.map((s) => ({
    checks: s.checks.map((c) => ({ x: c.x, y: c.y, z: c.z, state: v.states[c.state]!, digest: digest(c.digest) })),
    writes: s.writes.map((w) => ({
      x: w.x,
      y: w.y,
      z: w.z,
      before: v.states[w.before]!,
      beforeDigest: digest(w.before_digest),
      after: v.states[w.after]!,
      ...(w.data === null ? {} : { afterData: Uint8Array.from(Buffer.from(w.data, "hex")) }),
    })),
    ...(s.group_ends.length === 0 ? {} : { groupEnds: s.group_ends }),
  }));
}

describe("cas_batch body", () => {
  it("is byte for byte the shared vector (an independent Python encoder)", () => {
    expect(encodeBatch(slicesOf(vector)).toString("hex")).toBe(vector.body_hex);
  });

  it("refuses what the port would refuse, before anything is sent", () => {
    const one = slicesOf(vector)[0]!;
    expect(() => encodeBatch([])).toThrow(/1\.\.64 slices/);
    expect(() => encodeBatch(Array.from({ length: 65 }, () => one))).toThrow(/1\.\.64 slices/);
    expect(() => encodeBatch([{ checks: [], writes: [{ ...one.writes[0]!, beforeDigest: "xyz" }] }])).toThrow(/64 lowercase hex/);
    expect(() => encodeBatch([{ checks: [], writes: [{ ...one.writes[0]!, after: `minecraft:${"a".repeat(1100)}` }] }])).toThrow(/at most 1024/);
    const many = Array.from({ length: 513 }, (_, i) => ({ ...one.writes[0]!, x: i }));
    expect(() => encodeBatch([{ checks: [], writes: many }])).toThrow(/513 writes/);
  });
});

describe("cas_batch answer", () => {
  const result = (written: number, mismatches: unknown[] = []) => ({ written, mismatches, entity_digests: [] });
  const mismatch = {
    kind: "write",
    index: 0,
    x: 1,
    y: 2,
    z: 3,
    expected: "minecraft:air",
    expected_digest: null,
    actual: "minecraft:dirt",
    actual_digest: null,
  };

  it("reads every stop the protocol names, and each slice's result", () => {
    expect(decodeBatchResult({ results: [result(2), result(3)], stopped: null }, 2)).toMatchObject({ results: [{ written: 2 }, { written: 3 }] });
    expect(decodeBatchResult({ results: [result(2), result(0, [mismatch])], stopped: { slice: 1, reason: "mismatch" } }, 3).stopped).toEqual({
      slice: 1,
      reason: "mismatch",
    });
    expect(
      decodeBatchResult({ results: [result(2)], stopped: { slice: 1, reason: "refused", error: { code: "unsupported_block", message: "no" } } }, 3).stopped,
    ).toEqual({ slice: 1, reason: "refused", code: "unsupported_block", message: "no" });
    expect(decodeBatchResult({ results: [], stopped: { slice: 0, reason: "failed", error: { code: "busy", message: "host" } } }, 2).stopped).toEqual({
      slice: 0,
      reason: "failed",
      message: "host",
    });
  });

  it("refuses answers that contradict themselves (a bridge never guesses what was written)", () => {
    const bad = [
      { results: [result(1)], stopped: null }, // two slices sent, one result, no stop
      { results: [result(1), result(1)], stopped: { slice: 0, reason: "mismatch" } },
      { results: [result(1)], stopped: { slice: 0, reason: "mismatch" } }, // a mismatch stop without mismatches
      { results: [result(1)], stopped: { slice: 0, reason: "refused", error: {} } }, // refused, yet a result
      { results: [], stopped: { slice: 5, reason: "failed" } },
      { results: [], stopped: { slice: 0, reason: "exploded" } },
      { results: [result(-1), result(1)], stopped: null },
      { results: "no", stopped: null },
    ];
    for (const b of bad) expect(() => decodeBatchResult(b as Record<string, unknown>, 2), JSON.stringify(b)).toThrow(TypeError);
  });
});
