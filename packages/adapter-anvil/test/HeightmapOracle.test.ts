import { basename } from "node:path";
import { describe, expect, it } from "vitest";
import { blockShapes, createBlockRegistry, type BlockRegistry } from "@mcb/blocks";
import { NbtReader, TAG, type NbtCompound } from "@mcb/nbt";
import { decodeChunk } from "../src/ChunkCodec.js";
import { Heightmaps, type HeightmapFacts } from "../src/Heightmaps.js";
import { unpack } from "../src/PackedArray.js";
import { RegionFile } from "../src/RegionFile.js";
import { chunkVersionsOf } from "../src/SaveVersion.js";
import { fixtureRegion } from "../../../property-tests/src/interop/RealSave.js";

/**
 * Chunks the game wrote are the oracle for our heightmaps: every full chunk of the region files
 * prismarine-provider-anvil 2.13.0 ships as test fixtures (MIT, saved by the game: 1.17.1 with the
 * `Level` layout, 1.18.2, 1.19.4, 1.20.6, 1.21.1; oceans, rivers, kelp, leaves, snow), its blocks
 * read through mcb (upgraded to each registry), its four heightmaps recomputed and compared column
 * by column with what the game stored.
 */
const VERSIONS = ["1.17.1", "1.18.2", "1.19.4", "1.20.6", "1.21.1"];
const KINDS = ["MOTION_BLOCKING", "MOTION_BLOCKING_NO_LEAVES", "OCEAN_FLOOR", "WORLD_SURFACE"] as const;

function registry(version: string): BlockRegistry {
  const r = createBlockRegistry({ version });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

interface Tally {
  chunks: number;
  columns: number;
  differences: Record<string, number>;
  sample: string[];
}

/** Every full chunk of every fixture: our heightmaps against the game's. */
function compare(reg: BlockRegistry, facts: HeightmapFacts): Map<string, Tally> {
  const versions = chunkVersionsOf(reg);
  const heightmaps = new Heightmaps(facts);
  const out = new Map<string, Tally>();
  for (const v of VERSIONS) {
    const { path, rx, rz } = fixtureRegion(v);
    const file = basename(path);
    const region = RegionFile.open(path, rx, rz, false, true)!;
    const tally: Tally = { chunks: 0, columns: 0, differences: {}, sample: [] };
    try {
      for (const { x, z } of region.chunks()) {
        const stored = region.read(x, z)!;
        const { chunk, full } = decodeChunk(stored.nbt, x, z, stored.compression, versions, file);
        if (!full) continue;
        const reader = new NbtReader(stored.nbt);
        reader.root();
        const root = reader.compoundValue();
        const level = root.v.get("Level");
        const game = (level?.t === TAG.Compound ? level : root).v.get("Heightmaps") as NbtCompound;
        const ours = heightmaps.compute(chunk);
        const bits = Math.ceil(Math.log2(chunk.sectionCount * 16 + 1));
        for (const kind of KINDS) {
          const a = new Uint16Array(256),
            b = new Uint16Array(256);
          const g = game.v.get(kind);
          expect(g?.t, `${v} chunk ${x},${z} stores ${kind}`).toBe(TAG.LongArray);
          unpack((ours.v.get(kind) as { v: BigInt64Array }).v, bits, 256, a);
          unpack((g as { v: BigInt64Array }).v, bits, 256, b);
          for (let c = 0; c < 256; c++) {
            if (a[c] === b[c]) continue;
            tally.differences[kind] = (tally.differences[kind] ?? 0) + 1;
            if (tally.sample.length < 3) tally.sample.push(`${kind} chunk ${x},${z} column ${c}: ours ${a[c]}, the game's ${b[c]}`);
          }
        }
        tally.chunks++;
        tally.columns += 256;
      }
    } finally {
      region.close();
    }
    out.set(v, tally);
  }
  return out;
}

describe("heightmaps: the game's own chunks are the oracle", () => {
  it.each(["26.2", "26.1"])(
    "every full chunk of the game-written regions (1.17.1 to 1.21.1), read with the %s registry: our four heightmaps equal the game's in every column",
    (version) => {
      const reg = registry(version);
      const result = compare(reg, blockShapes(reg));
      let chunks = 0,
        columns = 0;
      for (const [v, t] of result) {
        expect(t.chunks, `${v}: full chunks compared`).toBeGreaterThan(10);
        expect({ version: v, differences: t.differences, sample: t.sample }).toEqual({ version: v, differences: {}, sample: [] });
        chunks += t.chunks;
        columns += t.columns;
      }
      // 347 chunks, 88,832 columns, each with four heightmaps.
      expect([chunks, columns]).toEqual([347, 88_832]);
    },
  );

  it("the comparison sees a wrong rule: heightmaps that ignore fluids (the bug of 12-06) differ on the oceans and rivers", () => {
    const reg = registry("26.2");
    const shapes = blockShapes(reg);
    const result = compare(reg, { blocksMotion: shapes.blocksMotion, fluid: () => false });
    const motion = [...result.values()].reduce((n, t) => n + (t.differences["MOTION_BLOCKING"] ?? 0), 0);
    expect(motion).toBeGreaterThan(10_000);
    expect([...result.values()].every((t) => t.differences["WORLD_SURFACE"] === undefined && t.differences["OCEAN_FLOOR"] === undefined)).toBe(true);
  });
});
