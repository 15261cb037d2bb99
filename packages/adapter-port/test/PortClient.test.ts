import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isHostCrash } from "@mcb/engine";
import { bitsFor, encodeSlice, packIndices, parsePortUrl, PortClient, PortWorld, unpackIndices } from "../src/index.js";
import { freePort } from "@mcb/property-tests";

const vectors = JSON.parse(readFileSync(new URL("../../../java/protocol-vectors.json", import.meta.url), "utf8")) as {
  packed_indices: { palette_size: number; bits: number; indices: number[]; packed: string }[];
};

describe("port URLs and tokens", () => {
  it("accepts loopback only, with an explicit port and nothing else", () => {
    expect(parsePortUrl("port://127.0.0.1:8765")).toEqual({ host: "127.0.0.1", port: 8765 });
    expect(parsePortUrl("http://localhost:9")).toEqual({ host: "localhost", port: 9 });
    expect(parsePortUrl("http://[::1]:8765")).toEqual({ host: "::1", port: 8765 });
    expect(parsePortUrl("http://127.8.9.10:1")).toEqual({ host: "127.8.9.10", port: 1 });
    for (const bad of [
      "http://10.0.0.1:8765",
      "http://192.168.1.2:80",
      "http://example.com:80",
      "https://127.0.0.1:8765",
      "http://127.0.0.1",
      "http://127.0.0.1:8765/v1",
      "http://u:p@127.0.0.1:1",
      "127.0.0.1:8765",
      "http://0.0.0.0:8765",
    ])
      expect(() => parsePortUrl(bad), bad).toThrow(RangeError);
  });

  it("refuses a short token before any connection", () => {
    expect(() => new PortClient({ url: "port://127.0.0.1:8765", token: "short" })).toThrow(/16 characters/);
  });

  it("a port nobody listens on is a vanished host (HostCrash), not a hang", async () => {
    const port = await freePort();
    const e = await PortWorld.connect({ url: `port://127.0.0.1:${port}`, token: "x".repeat(20), timeoutMs: 2_000 }).catch((x: unknown) => x);
    expect(isHostCrash(e)).toBe(true);
  });
});

describe("packed indices", () => {
  it("match the shared protocol vectors (from an independent implementation)", () => {
    expect(vectors.packed_indices).toHaveLength(9);
    for (const v of vectors.packed_indices) {
      expect(bitsFor(v.palette_size)).toBe(v.bits);
      expect(Buffer.from(packIndices(v.indices, v.bits)).toString("base64")).toBe(v.packed);
      expect([...unpackIndices(Buffer.from(v.packed, "base64"), v.bits, v.indices.length)]).toEqual(v.indices);
    }
  });

  it("round-trip any indices at any width (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70_000 }).chain((n) => fc.tuple(fc.constant(n), fc.array(fc.nat(n - 1), { maxLength: 300 }))),
        ([n, idx]) => {
          const bits = bitsFor(n);
          expect(2 ** bits).toBeGreaterThanOrEqual(n);
          expect([...unpackIndices(packIndices(idx, bits), bits, idx.length)]).toEqual(idx);
        },
      ),
    );
  });

  it("refuse a stream shorter than the count", () => {
    expect(() => unpackIndices(new Uint8Array(1), 3, 3)).toThrow(RangeError);
  });
});

describe("compare-and-set slices on the wire", () => {
  it("refer to states and digests by table index, data by write index", () => {
    const d = "a".repeat(64);
    const wire = encodeSlice({
      checks: [{ x: 9, y: 64, z: 9, state: "minecraft:stone", digest: null }],
      writes: [
        { x: 0, y: 64, z: 0, before: "minecraft:air", beforeDigest: null, after: "minecraft:stone" },
        { x: 1, y: 64, z: 0, before: "minecraft:chest[facing=north,type=single,waterlogged=false]", beforeDigest: d, after: "minecraft:air" },
        {
          x: 2,
          y: 64,
          z: 0,
          before: "minecraft:air",
          beforeDigest: null,
          after: "minecraft:chest[facing=north,type=single,waterlogged=false]",
          afterData: Uint8Array.of(10, 0, 0, 0),
        },
      ],
      groupEnds: [1, 3],
    });
    expect(wire).toEqual({
      states: ["minecraft:stone", "minecraft:air", "minecraft:chest[facing=north,type=single,waterlogged=false]"],
      digests: [d],
      checks: [[9, 64, 9, 0, -1]],
      writes: [
        [0, 64, 0, 1, -1, 0],
        [1, 64, 0, 2, 0, 1],
        [2, 64, 0, 1, -1, 2],
      ],
      data: [[2, "CgAAAA=="]],
      group_ends: [1, 3],
    });
  });
});
