import { PNG } from "pngjs";
import type { HeightField } from "./HeightField.js";

export const PREVIEW_DEFAULT_RESOLUTION = 256;
export const PREVIEW_MAX_RESOLUTION = 1024;

export interface PreviewOptions {
  /** Longest image side in pixels (each pixel samples ⌈side / resolution⌉² columns, their maximum). */
  readonly resolution?: number;
  /** Draw tile borders every `tileSize` columns. */
  readonly tileSize?: number;
  /** Heights mapped to the colour ramp (default the field's own range). */
  readonly range?: { readonly min: number; readonly max: number };
}

const RAMP: [number, number, number, number][] = [
  // t, r, g, b: low dry floors, grass, upland, rock, snow
  [0, 176, 160, 112],
  [0.2, 96, 150, 64],
  [0.55, 130, 150, 80],
  [0.8, 128, 120, 110],
  [1, 245, 245, 250],
];

function ramp(t: number): [number, number, number] {
  for (let i = 1; i < RAMP.length; i++) {
    const [t1, r1, g1, b1] = RAMP[i]!;
    if (t <= t1) {
      const [t0, r0, g0, b0] = RAMP[i - 1]!;
      const u = (t - t0) / (t1 - t0);
      return [r0 + (r1 - r0) * u, g0 + (g1 - g0) * u, b0 + (b1 - b0) * u];
    }
  }
  return [245, 245, 250];
}

/** A downsampled view of a height field: out[j × w + i] = max height of the pixel's columns. */
function sampleField(field: HeightField, resolution: number): { width: number; height: number; step: number; values: Int16Array } {
  const step = Math.max(1, Math.ceil(Math.max(field.width, field.length) / resolution));
  const width = Math.ceil(field.width / step),
    height = Math.ceil(field.length / step);
  const values = new Int16Array(width * height).fill(-32768);
  for (let z = 0; z < field.length; z++)
    for (let x = 0; x < field.width; x++) {
      const o = Math.floor(x / step) + Math.floor(z / step) * width;
      const h = field.heights[x + z * field.width]!;
      if (h > values[o]!) values[o] = h;
    }
  return { width, height, step, values };
}

/**
 * A native PNG of a height field seen from above (north up, x to the right): colour by height,
 * hill-shading lit from the north-west, optional tile borders. Deterministic bytes.
 */
export function heightPreviewPng(field: HeightField, options: PreviewOptions = {}): Buffer {
  const res = Math.min(PREVIEW_MAX_RESOLUTION, Math.max(8, Math.floor(options.resolution ?? PREVIEW_DEFAULT_RESOLUTION)));
  const s = sampleField(field, res);
  let lo = options.range?.min ?? Infinity,
    hi = options.range?.max ?? -Infinity;
  if (options.range === undefined) for (const v of s.values) ((lo = Math.min(lo, v)), (hi = Math.max(hi, v)));
  const span = Math.max(1, hi - lo);
  const png = new PNG({ width: s.width, height: s.height, colorType: 2, inputColorType: 2, inputHasAlpha: false });
  const data = Buffer.alloc(s.width * s.height * 3);
  const at = (i: number, j: number) => s.values[Math.min(s.width - 1, Math.max(0, i)) + Math.min(s.height - 1, Math.max(0, j)) * s.width]!;
  for (let j = 0; j < s.height; j++)
    for (let i = 0; i < s.width; i++) {
      const h = at(i, j);
      const [r, g, b] = ramp(Math.min(1, Math.max(0, (h - lo) / span)));
      // Slope towards the light (north-west): brighter when the ground rises to the south-east.
      const dx = (at(i + 1, j) - at(i - 1, j)) / (2 * s.step),
        dz = (at(i, j + 1) - at(i, j - 1)) / (2 * s.step);
      const shade = Math.min(1.25, Math.max(0.45, 0.9 + (0.35 * (dx + dz)) / Math.sqrt(1 + dx * dx + dz * dz)));
      let k = shade;
      if (options.tileSize !== undefined && options.tileSize > 0) {
        const x = i * s.step,
          z = j * s.step;
        if ((x % options.tileSize < s.step && i > 0) || (z % options.tileSize < s.step && j > 0)) k *= 0.8;
      }
      const o = (i + j * s.width) * 3;
      data[o] = Math.min(255, Math.round(r * k));
      data[o + 1] = Math.min(255, Math.round(g * k));
      data[o + 2] = Math.min(255, Math.round(b * k));
    }
  png.data = data;
  return PNG.sync.write(png, { colorType: 2, inputColorType: 2, inputHasAlpha: false });
}
