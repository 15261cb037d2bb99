/**
 * Chessboard (L∞) distance, in bricks, from every 4³ brick of a grid to the nearest brick that
 * draws something: 0 for such a brick, capped at 255. A ray in a brick at distance d crosses only
 * empty bricks within d − 1 of it, so it may jump to the exit of that cube at once. Exact by the
 * two-pass chamfer scan with the 26-neighbourhood and unit weights.
 */
export function brickDistances(occupied: Uint8Array, nx: number, ny: number, nz: number, out: Uint8Array): void {
  for (let i = 0; i < occupied.length; i++) out[i] = occupied[i] !== 0 ? 0 : 255;
  const sy = nx * nz,
    szs = nx;
  // Forward: neighbours earlier in y, z, x order; backward: the mirror images, later in that order.
  for (const dir of [1, -1] as const) {
    const y0 = dir > 0 ? 0 : ny - 1,
      z0 = dir > 0 ? 0 : nz - 1,
      x0 = dir > 0 ? 0 : nx - 1;
    for (let y = y0; y >= 0 && y < ny; y += dir)
      for (let z = z0; z >= 0 && z < nz; z += dir)
        for (let x = x0; x >= 0 && x < nx; x += dir) {
          const i = x + z * szs + y * sy;
          let d = out[i]!;
          if (d === 0) continue;
          const py = y - dir,
            pz = z - dir,
            px = x - dir;
          const hasY = py >= 0 && py < ny,
            hasZ = pz >= 0 && pz < nz,
            hasX = px >= 0 && px < nx;
          const nxl = x + dir >= 0 && x + dir < nx,
            nzl = z + dir >= 0 && z + dir < nz;
          // Same row: the previous x.
          if (hasX) d = Math.min(d, out[i - dir]! + 1);
          // Same layer, previous z: x − 1, x, x + 1.
          if (hasZ) {
            const j = i - dir * szs;
            d = Math.min(d, out[j]! + 1);
            if (hasX) d = Math.min(d, out[j - dir]! + 1);
            if (nxl) d = Math.min(d, out[j + dir]! + 1);
          }
          // Previous layer: z − 1, z, z + 1 by x − 1, x, x + 1.
          if (hasY) {
            for (let dz = -1; dz <= 1; dz++) {
              if (dz !== 0 && !(dz === -dir ? hasZ : nzl)) continue;
              const j = i - dir * sy + dz * szs;
              d = Math.min(d, out[j]! + 1);
              if (hasX) d = Math.min(d, out[j - dir]! + 1);
              if (nxl) d = Math.min(d, out[j + dir]! + 1);
            }
          }
          out[i] = d > 255 ? 255 : d;
        }
  }
}

/**
 * The bricks' height field (see Scene.tops): per column the top of what it draws, then for each
 * radius the largest top within that many columns either way (a square max filter). Each radius
 * must be 2r + 1 for the previous r (the first 1 or any r from the column itself), so a level is
 * three lookups of the previous one per axis: [x − 2r − 1, x + 2r + 1] is covered by the squares
 * of radius r around x − r − 1, x and x + r + 1.
 */
export function columnTops(occupied: Uint8Array, nx: number, ny: number, nz: number, radii: readonly number[], out: Uint16Array): void {
  const area = nx * nz,
    top = new Uint16Array(area),
    row = new Uint16Array(area);
  for (let y = 0; y < ny; y++) for (let c = 0; c < area; c++) if (occupied[c + y * area] !== 0) top[c] = y + 1;
  let prev: Uint16Array = top,
    prevRadius = 0;
  radii.forEach((k, l) => {
    const level = out.subarray(l * area, (l + 1) * area);
    // From radius r to k = 2r + 1 by three shifted lookups; the first level from the columns (r = 0) directly.
    const step = prevRadius === 0 ? 1 : prevRadius + 1,
      spans = prevRadius === 0 ? k : 1;
    shiftedMax(prev, row, nx, nz, 1, nx, spans, step);
    shiftedMax(row, level, nz, nx, nx, 1, spans, step);
    ((prev = level), (prevRadius = k));
  });
}

/**
 * dst = the max of src at offsets −spans·step … +spans·step (in steps of `step`) along one axis of
 * a 2-D grid: `n` cells along it (index stride `along`), `m` lines across (stride `across`).
 */
function shiftedMax(src: Uint16Array, dst: Uint16Array, n: number, m: number, along: number, across: number, spans: number, step: number): void {
  for (let line = 0; line < m; line++)
    for (let i = 0; i < n; i++) {
      let max = 0;
      for (let d = -spans * step; d <= spans * step; d += step) {
        const j = i + d;
        if (j >= 0 && j < n) max = Math.max(max, src[j * along + line * across]!);
      }
      dst[i * along + line * across] = max;
    }
}
