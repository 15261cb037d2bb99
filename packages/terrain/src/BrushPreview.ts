import { PNG } from "pngjs";
import type { ScannedColumn } from "./SurfaceScan.js";

/**
 * Before | after | delta panels of a brush, north up: heights as grey levels over the window,
 * delta green (raised) / red (lowered) / grey (unchanged), skipped columns dark blue.
 */
export function brushPreviewPng(
  b: { radius: number; center: { x: number; z: number }; y_range: { min: number; max: number } },
  scan: readonly ScannedColumn[],
  target: ReadonlyMap<string, number>,
): Buffer {
  const side = 2 * b.radius + 1;
  const scale = Math.max(1, Math.floor(96 / side));
  const gap = 4;
  const pw = side * scale;
  const width = pw * 3 + gap * 2,
    height = pw;
  const data = Buffer.alloc(width * height * 3, 32);
  const span = Math.max(1, b.y_range.max - b.y_range.min);
  const fill = (panel: number, cx: number, cz: number, rgb: [number, number, number]) => {
    for (let j = 0; j < scale; j++)
      for (let i = 0; i < scale; i++) {
        const x = panel * (pw + gap) + cx * scale + i,
          y = cz * scale + j;
        const o = (x + y * width) * 3;
        ((data[o] = rgb[0]), (data[o + 1] = rgb[1]), (data[o + 2] = rgb[2]));
      }
  };
  const grey = (y: number): [number, number, number] => {
    const v = Math.round(40 + (200 * (y - b.y_range.min)) / span);
    return [v, v, v];
  };
  for (const c of scan) {
    const cx = c.x - b.center.x + b.radius,
      cz = c.z - b.center.z + b.radius;
    const next = target.get(`${c.x},${c.z}`);
    if (c.kind !== "ground" || next === undefined) {
      for (const p of [0, 1, 2]) fill(p, cx, cz, [20, 30, 90]);
      continue;
    }
    fill(0, cx, cz, grey(c.surfaceY));
    fill(1, cx, cz, grey(next));
    const d = next - c.surfaceY;
    const k = Math.min(1, Math.abs(d) / 8);
    fill(2, cx, cz, d > 0 ? [60, Math.round(120 + 135 * k), 60] : d < 0 ? [Math.round(120 + 135 * k), 60, 60] : [128, 128, 128]);
  }
  const png = new PNG({ width, height, colorType: 2, inputColorType: 2, inputHasAlpha: false });
  png.data = data;
  return PNG.sync.write(png, { colorType: 2, inputColorType: 2, inputHasAlpha: false });
}
