import fc from "fast-check";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { brickDistances, columnTops } from "../src/BrickDistance.js";
import { assemblePng, deflateChunk, pngChunkCount } from "../src/PngEncode.js";

const grid = fc.record({
  nx: fc.integer({ min: 1, max: 9 }),
  ny: fc.integer({ min: 1, max: 7 }),
  nz: fc.integer({ min: 1, max: 9 }),
  density: fc.double({ min: 0, max: 0.2, noNaN: true }),
  seed: fc.integer(),
});

function occupancy({ nx, ny, nz, density, seed }: { nx: number; ny: number; nz: number; density: number; seed: number }): Uint8Array {
  const occ = new Uint8Array(nx * ny * nz);
  let h = seed | 0;
  for (let i = 0; i < occ.length; i++) {
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) + 0x632be5ab;
    occ[i] = ((h >>> 8) & 0xffff) / 0x10000 < density ? 1 : 0;
  }
  return occ;
}

describe("scene index", () => {
  it("brick distances are the exact chessboard distance to the nearest drawn brick (property)", () => {
    fc.assert(
      fc.property(grid, (g) => {
        const { nx, ny, nz } = g,
          occ = occupancy(g),
          out = new Uint8Array(occ.length);
        brickDistances(occ, nx, ny, nz, out);
        for (let y = 0; y < ny; y++)
          for (let z = 0; z < nz; z++)
            for (let x = 0; x < nx; x++) {
              let best = 255;
              for (let j = 0; j < ny; j++)
                for (let k = 0; k < nz; k++)
                  for (let i = 0; i < nx; i++)
                    if (occ[i + (k + j * nz) * nx]) best = Math.min(best, Math.max(Math.abs(i - x), Math.abs(j - y), Math.abs(k - z)));
              expect(out[x + (z + y * nz) * nx]).toBe(best);
            }
      }),
      { numRuns: 150 },
    );
  });

  it("column tops are the highest drawn brick + 1 within each radius (property)", () => {
    const radii = [1, 3, 7];
    fc.assert(
      fc.property(grid, (g) => {
        const { nx, ny, nz } = g,
          occ = occupancy(g),
          out = new Uint16Array(radii.length * nx * nz);
        columnTops(occ, nx, ny, nz, radii, out);
        radii.forEach((r, l) => {
          for (let z = 0; z < nz; z++)
            for (let x = 0; x < nx; x++) {
              let top = 0;
              for (let y = 0; y < ny; y++)
                for (let k = Math.max(0, z - r); k <= Math.min(nz - 1, z + r); k++)
                  for (let i = Math.max(0, x - r); i <= Math.min(nx - 1, x + r); i++) if (occ[i + (k + y * nz) * nx]) top = y + 1;
              expect(out[l * nx * nz + x + z * nx]).toBe(top);
            }
        });
      }),
      { numRuns: 150 },
    );
  });

  it("PNG chunks assemble into a valid PNG of the same pixels, whatever the size (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 100 }), fc.integer(), (width, height, seed) => {
        const rgb = new Uint8Array(width * height * 3);
        let h = seed | 0;
        for (let i = 0; i < rgb.length; i++) rgb[i] = ((h = Math.imul(h ^ (h >>> 13), 0x5bd1e995) + i) >>> 24) & (i % 7 === 0 ? 255 : 15);
        const parts = Array.from({ length: pngChunkCount(height) }, (_, c) => deflateChunk(rgb, width, height, c));
        const png = PNG.sync.read(assemblePng(width, height, parts)); // pngjs checks the CRCs and zlib the Adler-32
        expect([png.width, png.height]).toEqual([width, height]);
        for (let p = 0; p < width * height; p++) for (let k = 0; k < 3; k++) expect(png.data[p * 4 + k]).toBe(rgb[p * 3 + k]);
      }),
      { numRuns: 60 },
    );
  });
});
