import { PNG } from "pngjs";

/** One PNG holding `tiles` (PNGs) at their offsets (uncovered pixels transparent). */
export function tilePngs(width: number, height: number, tiles: ReadonlyArray<{ readonly png: Buffer; readonly x: number; readonly y: number }>): Buffer {
  const out = new PNG({ width, height });
  for (const t of tiles) {
    const img = PNG.sync.read(t.png);
    PNG.bitblt(img, out, 0, 0, Math.min(img.width, width - t.x), Math.min(img.height, height - t.y), t.x, t.y);
  }
  return PNG.sync.write(out);
}
