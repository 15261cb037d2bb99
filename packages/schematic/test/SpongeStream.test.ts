import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TAG, canonicalNbt, nbt } from "@mcb/nbt";
import { DEFAULT_SCHEMATIC_LIMITS, SchematicLibrary, SpongeStream, readSchematic, writeSchematic, type Schematic } from "../src/index.js";
import { registry, states } from "./support.js";

/**
 * The streamed writer against the whole-value writer: for any content fed in any slabs, the same
 * bytes (v3 and v2), so everything `writeSchematic` is tested for (determinism, WorldEdit's
 * offsets, other readers) holds for exports of any size.
 */
const CHEST = "minecraft:chest[facing=north,type=single,waterlogged=false]";

const contentArb = fc
  .record({
    w: fc.integer({ min: 1, max: 9 }),
    h: fc.integer({ min: 1, max: 5 }),
    l: fc.integer({ min: 1, max: 9 }),
    palette: fc.integer({ min: 1, max: 300 }), // past 128: two-byte varints
    seed: fc.nat(),
    entities: fc.nat({ max: 6 }),
    cuts: fc.array(fc.nat(), { maxLength: 6 }),
  })
  .map(({ w, h, l, palette, seed, entities, cuts }) => {
    const all = states();
    const pal = [...all.slice(0, palette - 1), CHEST];
    const n = w * h * l;
    const blocks = new Uint32Array(n);
    let r = seed;
    for (let i = 0; i < n; i++) {
      r = (r * 1103515245 + 12345) >>> 0;
      blocks[i] = r % (pal.length - 1);
    }
    const positions = [...new Set(Array.from({ length: entities }, (_, k) => (seed + k * 7919) % n))].sort((a, b) => a - b);
    for (const i of positions) blocks[i] = pal.length - 1;
    const blockEntities = positions.map((i) => ({
      x: i % w,
      z: Math.floor(i / w) % l,
      y: Math.floor(i / (w * l)),
      id: "minecraft:chest",
      data: canonicalNbt(
        nbt.compound([
          [
            "Items",
            nbt.list(TAG.Compound, [
              nbt.compound([
                ["count", nbt.int(i + 1)],
                ["id", nbt.string("minecraft:stone")],
              ]),
            ]),
          ],
        ]),
      ),
    }));
    const s: Schematic = {
      width: w,
      height: h,
      length: l,
      offset: { x: -2, y: 1, z: 3 },
      dataVersion: 4903,
      palette: pal,
      blocks,
      blockEntities,
      name: "stream",
    };
    return { s, cuts: [...new Set(cuts.map((c) => c % (n + 1)))].sort((a, b) => a - b) };
  });

describe("SpongeStream: a schematic written as its blocks arrive", () => {
  it("writes the bytes writeSchematic writes, v3 and v2, whatever the slabs (property)", async () => {
    await fc.assert(
      fc.asyncProperty(contentArb, async ({ s, cuts }) => {
        const dir = mkdtempSync(join(tmpdir(), "mcb-stream-"));
        const stream = new SpongeStream(
          { width: s.width, height: s.height, length: s.length, offset: s.offset, dataVersion: s.dataVersion, name: s.name! },
          join(dir, ".scratch"),
          true,
        );
        // Each slab with its own palette (what a world read gives), in order.
        const bounds = [0, ...cuts, s.blocks.length];
        for (let k = 0; k + 1 < bounds.length; k++) {
          const slab = s.blocks.subarray(bounds[k], bounds[k + 1]);
          const local = [...new Set(slab)];
          stream.blocks(
            local.map((p) => s.palette[p]!),
            Uint32Array.from(slab, (p) => local.indexOf(p)),
          );
          for (const be of s.blockEntities) {
            const i = be.x + be.z * s.width + be.y * s.width * s.length;
            if (i >= bounds[k]! && i < bounds[k + 1]!) stream.blockEntity(be.x, be.y, be.z, be.id, be.data);
          }
        }
        const sizes = await stream.finish(join(dir, "v3.schem"), join(dir, "v2.schem"));
        expect(readFileSync(join(dir, "v3.schem")).equals(writeSchematic(s))).toBe(true);
        expect(readFileSync(join(dir, "v2.schem")).equals(writeSchematic(s, { version: 2 }))).toBe(true);
        expect(sizes.v3Bytes).toBe(readFileSync(join(dir, "v3.schem")).length);
        expect(readdirSync(dir).sort()).toEqual(["v2.schem", "v3.schem"]); // the scratch files are gone
        expect(stream.totals).toMatchObject({ positions: s.blocks.length, blockEntities: s.blockEntities.length });
      }),
      { numRuns: 40 },
    );
  });

  it("a library reservation takes the streamed file as an asset (never over an existing one) and reads it back; an oversized file is refused and removed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-stream-lib-"));
    const lib = new SchematicLibrary(dir, registry());
    const r = lib.reserve("big");
    if (!r.ok) throw new Error(r.error.message);
    const stream = new SpongeStream({ width: 2, height: 1, length: 1, offset: { x: 0, y: 0, z: 0 }, dataVersion: 4903 }, r.value.scratch, false);
    stream.blocks(["minecraft:stone", "minecraft:air"], Uint32Array.from([0, 1]));
    await stream.finish(r.value.path);
    const saved = r.value.commit({
      name: "big",
      width: 2,
      height: 1,
      length: 1,
      blockCount: 1,
      dataVersion: 4903,
      offset: { x: 0, y: 0, z: 0 },
      blockEntities: 0,
      notes: [],
    });
    expect(saved).toMatchObject({ ok: true, value: { assetId: "big", format: "sponge_v3", blockCount: 1 } });
    const loaded = lib.load("big");
    expect(loaded.ok && [...loaded.value.schematic.blocks].map((i) => loaded.value.schematic.palette[i])).toEqual(["minecraft:stone", "minecraft:air"]);
    expect(lib.reserve("big")).toMatchObject({ ok: false, error: { details: { reason: "asset_exists" } } });
    expect(readdirSync(dir)).toEqual(["big.schem"]);
    const tiny = new SchematicLibrary(dir, registry(), { ...DEFAULT_SCHEMATIC_LIMITS, maxCompressedBytes: 10 });
    const r2 = tiny.reserve("huge");
    if (!r2.ok) throw new Error(r2.error.message);
    const s2 = new SpongeStream({ width: 1, height: 1, length: 1, offset: { x: 0, y: 0, z: 0 }, dataVersion: 4903 }, r2.value.scratch, false);
    s2.blocks(["minecraft:stone"], Uint32Array.from([0]));
    await s2.finish(r2.value.path);
    expect(
      r2.value.commit({
        name: "huge",
        width: 1,
        height: 1,
        length: 1,
        blockCount: 1,
        dataVersion: 4903,
        offset: { x: 0, y: 0, z: 0 },
        blockEntities: 0,
        notes: [],
      }),
    ).toMatchObject({
      ok: false,
      error: { code: "budget_exceeded", details: { reason: "compressed_size" } },
    });
    expect(existsSync(r2.value.path)).toBe(false);
    expect(readdirSync(dir)).toEqual(["big.schem"]);
    expect(readSchematic(registry(), readFileSync(join(dir, "big.schem"))).ok).toBe(true);
  });
});
