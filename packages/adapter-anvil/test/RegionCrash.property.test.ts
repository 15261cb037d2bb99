import { mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMPRESSION, RegionFile, type ChunkWrite } from "../src/RegionFile.js";

/**
 * The process dies in the middle of a write: `budget` bytes reach the file, then nothing more. A
 * write is cut only at a 512-byte boundary of the file: a kill -9 cuts a write between pages and a
 * power loss between disk sectors, never inside one (a torn 4-byte header entry is outside what any
 * storage gives, and outside what the game's own in-place header write could survive).
 */
class Killed extends Error {}
const ATOMIC = 512;

class CrashingRegion extends RegionFile {
  constructor(
    path: string,
    private budget: number,
  ) {
    super(path, 0, 0, openSync(path, "r+"));
  }
  protected override put(bytes: Uint8Array, position: number): void {
    if (this.budget <= 0) throw new Killed();
    if (position % ATOMIC !== 0) throw new Error(`a region write at ${position}, not on a ${ATOMIC}-byte boundary`);
    const n = this.budget >= bytes.length ? bytes.length : Math.floor(this.budget / ATOMIC) * ATOMIC;
    super.put(bytes.subarray(0, n), position);
    this.budget -= n;
    if (n < bytes.length) throw new Killed();
  }
}

/** Planted bug: a rewritten chunk goes back into its own sectors when it fits (an in-place overwrite). */
class InPlaceRegion extends CrashingRegion {
  protected override place(sectors: number, used: Uint8Array, end: number, index: number): { start: number; end: number } {
    const e = this.entry(index);
    if (e !== 0 && (e & 255) >= sectors) return { start: e >>> 8, end };
    return super.place(sectors, used, end, index);
  }
}

const chunkBytes = (seed: number, size: number): Uint8Array => Uint8Array.from({ length: size }, (_, i) => (seed * 131 + i * 7 + (i >> 5)) & 255);

const scenario = fc.record({
  before: fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 6 }),
  after: fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 6 }),
  sizes: fc.array(fc.integer({ min: 100, max: 9000 }), { minLength: 16, maxLength: 16 }),
  crashAt: fc.nat(),
});

/**
 * Property: a region holding some chunks gets a batch of new versions (rewrites and new chunks) and
 * the process dies after any number of written bytes. Opened again, every chunk is exactly its old
 * or its new version (a new chunk: absent or new), and the region is still writable.
 */
function check(Region: typeof CrashingRegion) {
  return fc.property(scenario, ({ before, after, sizes, crashAt }) => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-region-crash-"));
    try {
      const path = join(dir, "r.0.0.mca");
      const first = RegionFile.open(path, 0, 0, true)!;
      first.write(before.map((x) => ({ x, z: 0, nbt: chunkBytes(x, sizes[x]!), compression: COMPRESSION.none })));
      first.close();
      const writes: ChunkWrite[] = after.map((x) => ({ x, z: 0, nbt: chunkBytes(x + 100, sizes[(x + 5) % 16]!), compression: COMPRESSION.none }));
      // Total bytes of the batch (data sectors + header), to pick a crash point inside it.
      const total = writes.reduce((n, w) => n + Math.ceil((5 + w.nbt.length) / 4096) * 4096, 0) + 8192;
      const budget = crashAt % (total + 1);
      const r = new Region(path, budget);
      try {
        r.write(writes);
      } catch (e) {
        if (!(e instanceof Killed)) throw e;
      }
      r.close();
      const again = RegionFile.open(path, 0, 0, false)!;
      for (let x = 0; x < 16; x++) {
        const old = before.includes(x) ? chunkBytes(x, sizes[x]!) : null;
        const neu = after.includes(x) ? chunkBytes(x + 100, sizes[(x + 5) % 16]!) : null;
        const got = again.read(x, 0);
        const bytes = got === null ? null : new Uint8Array(got.nbt);
        const isOld = old === null ? bytes === null : bytes !== null && Buffer.from(bytes).equals(Buffer.from(old));
        const isNew = neu !== null && bytes !== null && Buffer.from(bytes).equals(Buffer.from(neu));
        if (!isOld && !isNew) throw new Error(`chunk ${x}: neither its old nor its new version after a crash at byte ${budget} of ${total}`);
      }
      again.write([{ x: 20, z: 0, nbt: chunkBytes(20, 500), compression: COMPRESSION.zlib }]);
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

describe("region writes under a crash at any byte", () => {
  it("every chunk is old or new, never torn (property, 300 crash points)", () => {
    fc.assert(check(CrashingRegion), { numRuns: 300 });
  });

  it("replays the counterexample CI found when a kill could cut a header entry after 3 of its 4 bytes", () => {
    const found = {
      before: [0],
      after: [0, 6, 5, 1, 2],
      sizes: [100, 100, 100, 100, 100, 4092, 4092, 100, 100, 100, 8188, 4092, 100, 100, 100, 100],
      crashAt: 2003222349,
    };
    fc.assert(check(CrashingRegion), { examples: [[found]], numRuns: 1, seed: 1548158327 });
  });

  it("the property catches a planted writer that overwrites a chunk in place", () => {
    let caught: unknown = null;
    try {
      fc.assert(check(InPlaceRegion), { numRuns: 300 });
    } catch (e) {
      caught = (e as { cause?: unknown }).cause ?? e;
    }
    expect(String(caught)).toMatch(/neither its old nor its new version|corrupt_chunk|truncated/);
  });
});
