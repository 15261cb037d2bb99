import { rayDirection, type ResolvedPose } from "./CameraPose.js";
import { COLUMN_RADII, Look, LOOK_STRIDE, SURFACE_OPAQUE, SURFACE_TRANSLUCENT, type Scene } from "./Scene.js";
import { AoCache, shadeHit, type ShadeOptions } from "./Shading.js";

const MAX_LAYERS = 8;
/** Bricks at least this far from any block are crossed by one jump, nearer ones one by one. */
const JUMP_DISTANCE = 3;

/** Sky colour for a (normalized) ray direction: a vertical gradient, darker below the horizon. */
export function skyColor(dy: number, out: Float64Array): void {
  if (dy >= 0) {
    const t = Math.min(1, dy * 1.5);
    ((out[0] = 186 - 66 * t), (out[1] = 214 - 44 * t), (out[2] = 255));
  } else {
    const t = Math.min(1, -dy * 2);
    ((out[0] = 186 - 40 * t), (out[1] = 206 - 40 * t), (out[2] = 235 - 40 * t));
  }
}

/** Per-column parts of the ray directions (forward + h(i)·right at the top row, minus the row's up part). */
export function columnDirections(p: ResolvedPose): Float64Array {
  const cols = new Float64Array(p.width * 3),
    d = new Float64Array(3);
  const v = (1 - 1 / p.height) * p.tanHalf;
  for (let i = 0; i < p.width; i++) {
    rayDirection(p, i, 0, d);
    ((cols[i * 3] = d[0]! - v * p.up[0]), (cols[i * 3 + 1] = d[1]! - v * p.up[1]), (cols[i * 3 + 2] = d[2]! - v * p.up[2]));
  }
  return cols;
}

/** What `raycastRows` draws: a scene seen from a pose into `rgb` (a `RenderJob` is one). */
export interface RayJob {
  readonly scene: Scene;
  readonly pose: ResolvedPose;
  readonly maxDistance: number;
  readonly options: ShadeOptions;
  /** width·height·3 bytes. */
  readonly rgb: Uint8Array;
}

/**
 * What one thread reuses over its bands of one job: the columns' ray directions (computed once
 * per job, not per band), colour buffers, the ambient-occlusion memo and the column radii.
 */
export class RayScratch {
  readonly sky = new Float64Array(3);
  readonly color = new Float64Array(3);
  readonly ao = new AoCache();
  readonly radii = Int32Array.from(COLUMN_RADII);
  readonly cols: Float64Array;

  constructor(pose: ResolvedPose) {
    this.cols = columnDirections(pose);
  }
}

/**
 * Renders rows [j0, j1) of `job` as RGB (3 bytes per pixel, at row j·width·3) by voxel traversal
 * (Amanatides–Woo) from the eye, jumping over empty space by the bricks' distances (see Scene).
 * Opaque blocks end a ray; translucent ones blend and let it through (a run of the same
 * translucent block blends once). Distance fog towards the sky. Each pixel depends only on the
 * scene and the pose, so any split of the rows gives the same bytes. Returns the pixels that hit.
 * `scratch` belongs to one thread and this job's pose. Measured by `bench/render.bench.mjs`.
 * Deliberately one function, the one long one of the code: a ray's state (position, brick, the
 * next faces' times, colour so far) lives in locals the JIT keeps in registers; split into calls
 * it would go through an object per ray, in the loop that runs for every pixel.
 */
export function raycastRows(job: RayJob, scratch: RayScratch, j0: number, j1: number): number {
  const { scene: s, pose: p, maxDistance, rgb, options } = job;
  const { slots, cells, bricks, tops, looks, boxes, ox, oy, oz, nx, nz } = s;
  // The drawn sections' box in blocks and in bricks.
  const X0 = ox * 16,
    Y0 = oy * 16,
    Z0 = oz * 16,
    X1 = (ox + nx) * 16,
    Y1 = (oy + s.ny) * 16,
    Z1 = (oz + nz) * 16;
  const BX = ox * 4,
    BY = oy * 4,
    BZ = oz * 4,
    bnx = nx * 4,
    bny = s.ny * 4,
    bnz = nz * 4;
  const columns = bnx * bnz,
    LEVELS = COLUMN_RADII.length;
  const { sky, color, ao, radii, cols } = scratch;
  const [ex, ey, ez] = p.eye;
  const fx = Math.floor(ex),
    fy = Math.floor(ey),
    fz = Math.floor(ez);
  const width = p.width;
  let hits = 0;
  for (let j = j0; j < j1; j++) {
    const v = (1 - (2 * (j + 0.5)) / p.height) * p.tanHalf;
    const rx = v * p.up[0],
      ry = v * p.up[1],
      rz = v * p.up[2];
    let o = j * width * 3;
    for (let i = 0; i < width; i++, o += 3) {
      const ux = cols[i * 3]! + rx,
        uy = cols[i * 3 + 1]! + ry,
        uz = cols[i * 3 + 2]! + rz;
      const len = Math.sqrt(ux * ux + uy * uy + uz * uz);
      const dx = ux / len,
        dy = uy / len,
        dz = uz / len;
      skyColor(dy, sky);
      const stepX = dx > 0 ? 1 : -1,
        stepY = dy > 0 ? 1 : -1,
        stepZ = dz > 0 ? 1 : -1;
      const idx = 1 / dx,
        idy = 1 / dy,
        idz = 1 / dz;
      const tdx = Math.abs(idx),
        tdy = Math.abs(idy),
        tdz = Math.abs(idz);
      let t = 0,
        x = fx,
        y = fy,
        z = fz,
        face = -1; // face: the axis last crossed (0 x, 1 y, 2 z)
      if (!(ex >= X0 && ex < X1 && ey >= Y0 && ey < Y1 && ez >= Z0 && ez < Z1)) {
        // The eye is outside every drawn section: start where the ray enters their box, if it does.
        let t0 = 0,
          t1 = maxDistance;
        if (dx !== 0) {
          const a = (X0 - ex) * idx,
            c = (X1 - ex) * idx;
          if ((a < c ? a : c) > t0) ((t0 = a < c ? a : c), (face = 0));
          t1 = Math.min(t1, a < c ? c : a);
        } else if (ex < X0 || ex >= X1) t1 = -1;
        if (dy !== 0) {
          const a = (Y0 - ey) * idy,
            c = (Y1 - ey) * idy;
          if ((a < c ? a : c) > t0) ((t0 = a < c ? a : c), (face = 1));
          t1 = Math.min(t1, a < c ? c : a);
        } else if (ey < Y0 || ey >= Y1) t1 = -1;
        if (dz !== 0) {
          const a = (Z0 - ez) * idz,
            c = (Z1 - ez) * idz;
          if ((a < c ? a : c) > t0) ((t0 = a < c ? a : c), (face = 2));
          t1 = Math.min(t1, a < c ? c : a);
        } else if (ez < Z0 || ez >= Z1) t1 = -1;
        if (t0 > t1 || face < 0) {
          ((rgb[o] = (sky[0]! + 0.5) | 0), (rgb[o + 1] = (sky[1]! + 0.5) | 0), (rgb[o + 2] = (sky[2]! + 0.5) | 0));
          continue;
        }
        t = t0;
        x = face === 0 ? (stepX > 0 ? X0 : X1 - 1) : Math.min(Math.max(Math.floor(ex + dx * t), X0), X1 - 1);
        y = face === 1 ? (stepY > 0 ? Y0 : Y1 - 1) : Math.min(Math.max(Math.floor(ey + dy * t), Y0), Y1 - 1);
        z = face === 2 ? (stepZ > 0 ? Z0 : Z1 - 1) : Math.min(Math.max(Math.floor(ez + dz * t), Z0), Z1 - 1);
      }
      let r = 0,
        g = 0,
        b = 0,
        transmit = 1,
        layers = 0,
        prevLook = 0,
        hit = false;
      // Brick mode: (qx, qy, qz) the brick (from the grid's origin), tbx.. the times of its next faces.
      let qx = (x >> 2) - BX,
        qy = (y >> 2) - BY,
        qz = (z >> 2) - BZ;
      let tbx = dx !== 0 ? (stepX > 0 ? (qx + BX + 1) * 4 - ex : ex - (qx + BX) * 4) * tdx : Infinity;
      let tby = dy !== 0 ? (stepY > 0 ? (qy + BY + 1) * 4 - ey : ey - (qy + BY) * 4) * tdy : Infinity;
      let tbz = dz !== 0 ? (stepZ > 0 ? (qz + BZ + 1) * 4 - ez : ez - (qz + BZ) * 4) * tdz : Infinity;
      let secX = 0x7fffffff,
        secY = 0,
        secZ = 0,
        sec = -1;
      ray: for (;;) {
        // Through empty bricks: one brick at a time near blocks; far from any, jump over the whole
        // empty cube around the brick (every brick within its distance − 1 is empty).
        for (;;) {
          if (qx < 0 || qy < 0 || qz < 0 || qx >= bnx || qy >= bny || qz >= bnz) break ray; // nothing drawn beyond
          const d = bricks[qx + (qz + qy * bnz) * bnx]!;
          if (d === 0) break;
          // Above the height field of a square of columns: cross the square, or come down to it.
          // (Tops grow with the radius: the largest square the ray is above, if any.)
          const column = qx + qz * bnx;
          let level = qy >= tops[column]! ? 0 : -1;
          while (level >= 0 && level + 1 < LEVELS && qy >= tops[(level + 1) * columns + column]!) level++;
          if (level >= 0) {
            const k = radii[level]!,
              top = tops[level * columns + column]!;
            const bx = (qx + BX - k) * 4,
              bz = (qz + BZ - k) * 4,
              size = (2 * k + 1) * 4;
            const txe = dx > 0 ? (bx + size - ex) * idx : dx < 0 ? (bx - ex) * idx : Infinity;
            const tze = dz > 0 ? (bz + size - ez) * idz : dz < 0 ? (bz - ez) * idz : Infinity;
            const tye = dy < 0 ? ((top + BY) * 4 - ey) * idy : Infinity;
            const te = txe < tye ? (txe < tze ? txe : tze) : tye < tze ? tye : tze;
            if (te - t >= 4) {
              t = te;
              face = te === txe ? 0 : te === tye ? 1 : 2;
              if (face === 0) qx += stepX * (k + 1);
              else qx = Math.min(Math.max((Math.floor(ex + dx * t) >> 2) - BX, qx - k), qx + k);
              if (face === 2) qz += stepZ * (k + 1);
              else qz = Math.min(Math.max((Math.floor(ez + dz * t) >> 2) - BZ, qz - k), qz + k);
              if (face === 1) qy = top;
              else qy = Math.max((Math.floor(ey + dy * t) >> 2) - BY, top);
              tbx = dx !== 0 ? (stepX > 0 ? (qx + BX + 1) * 4 - ex : ex - (qx + BX) * 4) * tdx : Infinity;
              tby = dy !== 0 ? (stepY > 0 ? (qy + BY + 1) * 4 - ey : ey - (qy + BY) * 4) * tdy : Infinity;
              tbz = dz !== 0 ? (stepZ > 0 ? (qz + BZ + 1) * 4 - ez : ez - (qz + BZ) * 4) * tdz : Infinity;
              if (t > maxDistance) break ray;
              continue;
            }
          }
          if (d >= JUMP_DISTANCE) {
            const bx = (qx + BX - d + 1) * 4,
              by = (qy + BY - d + 1) * 4,
              bz = (qz + BZ - d + 1) * 4,
              size = (2 * d - 1) * 4;
            const txe = dx > 0 ? (bx + size - ex) * idx : dx < 0 ? (bx - ex) * idx : Infinity;
            const tye = dy > 0 ? (by + size - ey) * idy : dy < 0 ? (by - ey) * idy : Infinity;
            const tze = dz > 0 ? (bz + size - ez) * idz : dz < 0 ? (bz - ez) * idz : Infinity;
            t = txe < tye ? (txe < tze ? txe : tze) : tye < tze ? tye : tze;
            face = t === txe ? 0 : t === tye ? 1 : 2;
            // The exit axis steps out of the cube; the others stay inside it (a coordinate sitting
            // exactly on a boundary must not floor into the wrong brick).
            if (face === 0) qx += stepX * d;
            else qx = Math.min(Math.max((Math.floor(ex + dx * t) >> 2) - BX, qx - d + 1), qx + d - 1);
            if (face === 1) qy += stepY * d;
            else qy = Math.min(Math.max((Math.floor(ey + dy * t) >> 2) - BY, qy - d + 1), qy + d - 1);
            if (face === 2) qz += stepZ * d;
            else qz = Math.min(Math.max((Math.floor(ez + dz * t) >> 2) - BZ, qz - d + 1), qz + d - 1);
            tbx = dx !== 0 ? (stepX > 0 ? (qx + BX + 1) * 4 - ex : ex - (qx + BX) * 4) * tdx : Infinity;
            tby = dy !== 0 ? (stepY > 0 ? (qy + BY + 1) * 4 - ey : ey - (qy + BY) * 4) * tdy : Infinity;
            tbz = dz !== 0 ? (stepZ > 0 ? (qz + BZ + 1) * 4 - ez : ez - (qz + BZ) * 4) * tdz : Infinity;
          } else if (tbx < tby && tbx < tbz) {
            ((qx += stepX), (t = tbx), (tbx += 4 * tdx), (face = 0));
          } else if (tby < tbz) {
            ((qy += stepY), (t = tby), (tby += 4 * tdy), (face = 1));
          } else {
            ((qz += stepZ), (t = tbz), (tbz += 4 * tdz), (face = 2));
          }
          if (t > maxDistance) break ray;
        }
        // Into a brick that draws something: voxel by voxel from where the ray enters it.
        const x0 = (qx + BX) * 4,
          y0 = (qy + BY) * 4,
          z0 = (qz + BZ) * 4;
        if (face !== 0 || t === 0) x = Math.min(Math.max(Math.floor(ex + dx * t), x0), x0 + 3);
        else x = stepX > 0 ? x0 : x0 + 3;
        if (face !== 1 || t === 0) y = Math.min(Math.max(Math.floor(ey + dy * t), y0), y0 + 3);
        else y = stepY > 0 ? y0 : y0 + 3;
        if (face !== 2 || t === 0) z = Math.min(Math.max(Math.floor(ez + dz * t), z0), z0 + 3);
        else z = stepZ > 0 ? z0 : z0 + 3;
        let tmx = dx !== 0 ? (stepX > 0 ? x + 1 - ex : ex - x) * tdx : Infinity;
        let tmy = dy !== 0 ? (stepY > 0 ? y + 1 - ey : ey - y) * tdy : Infinity;
        let tmz = dz !== 0 ? (stepZ > 0 ? z + 1 - ez : ez - z) * tdz : Infinity;
        prevLook = 0;
        for (;;) {
          const sx = x >> 4,
            sy = y >> 4,
            sz = z >> 4;
          if (sx !== secX || sy !== secY || sz !== secZ) {
            ((secX = sx), (secY = sy), (secZ = sz));
            sec = slots[sx - ox + (sz - oz + (sy - oy) * nz) * nx]! - 1;
          }
          const li = cells[sec * 4096 + (((y & 15) << 8) | ((z & 15) << 4) | (x & 15))]!;
          if (li !== 0 && face >= 0) {
            const lo = li * LOOK_STRIDE;
            let drawn = true,
              hitT = t,
              hitFace = face,
              part = 0;
            const boxStart = looks[lo + Look.boxStart]!;
            if (boxStart >= 0) {
              // A partial block: the nearest of its boxes inside this voxel, or nothing (the ray goes on).
              const exit = tmx < tmy ? (tmx < tmz ? tmx : tmz) : tmy < tmz ? tmy : tmz;
              const boxEnd = looks[lo + Look.boxEnd]!;
              let best = Infinity;
              for (let k = boxStart; k < boxEnd; k += 7) {
                let t0 = t,
                  t1 = exit,
                  f = face,
                  ta: number,
                  tb: number;
                // x
                if (dx === 0) {
                  if (ex < x + boxes[k]! || ex > x + boxes[k + 3]!) continue;
                } else {
                  ((ta = (x + boxes[k]! - ex) * idx), (tb = (x + boxes[k + 3]! - ex) * idx));
                  if (ta > tb) [ta, tb] = [tb, ta];
                  if (ta > t0) ((t0 = ta), (f = 0));
                  if (tb < t1) t1 = tb;
                  if (t0 > t1) continue;
                }
                if (dy === 0) {
                  if (ey < y + boxes[k + 1]! || ey > y + boxes[k + 4]!) continue;
                } else {
                  ((ta = (y + boxes[k + 1]! - ey) * idy), (tb = (y + boxes[k + 4]! - ey) * idy));
                  if (ta > tb) [ta, tb] = [tb, ta];
                  if (ta > t0) ((t0 = ta), (f = 1));
                  if (tb < t1) t1 = tb;
                  if (t0 > t1) continue;
                }
                if (dz === 0) {
                  if (ez < z + boxes[k + 2]! || ez > z + boxes[k + 5]!) continue;
                } else {
                  ((ta = (z + boxes[k + 2]! - ez) * idz), (tb = (z + boxes[k + 5]! - ez) * idz));
                  if (ta > tb) [ta, tb] = [tb, ta];
                  if (ta > t0) ((t0 = ta), (f = 2));
                  if (tb < t1) t1 = tb;
                }
                if (t0 <= t1 && t0 < best) ((best = t0), (hitFace = f), (part = boxes[k + 6]!));
              }
              if (best === Infinity) drawn = false;
              else hitT = best;
            }
            // A run of one translucent block (a lake, a glass wall) blends once, at its first face.
            const surface = drawn ? looks[lo + Look.surface]! : 0;
            const sameRun = li === prevLook;
            prevLook = surface === SURFACE_TRANSLUCENT ? li : 0;
            if (drawn && !(sameRun && surface === SURFACE_TRANSLUCENT)) {
              const step = hitFace === 0 ? stepX : hitFace === 1 ? stepY : stepZ;
              shadeHit(s, li, part, hitFace, step, boxStart < 0, hitT, ex + dx * hitT, ey + dy * hitT, ez + dz * hitT, x, y, z, options, ao, color);
              const fog = Math.min(0.7, (hitT / maxDistance) ** 2 * 0.7);
              const fr = color[0]! + (sky[0]! - color[0]!) * fog,
                fg = color[1]! + (sky[1]! - color[1]!) * fog,
                fb = color[2]! + (sky[2]! - color[2]!) * fog;
              hit = true;
              if (surface === SURFACE_OPAQUE) {
                ((r += transmit * fr), (g += transmit * fg), (b += transmit * fb));
                transmit = 0;
                break ray;
              }
              const alpha = looks[lo + Look.alpha]!;
              ((r += transmit * alpha * fr), (g += transmit * alpha * fg), (b += transmit * alpha * fb));
              transmit *= 1 - alpha;
              if (++layers >= MAX_LAYERS || transmit < 0.03) break ray;
            }
          } else prevLook = 0;
          if (tmx < tmy && tmx < tmz) {
            ((x += stepX), (t = tmx), (tmx += tdx), (face = 0));
          } else if (tmy < tmz) {
            ((y += stepY), (t = tmy), (tmy += tdy), (face = 1));
          } else {
            ((z += stepZ), (t = tmz), (tmz += tdz), (face = 2));
          }
          if (t > maxDistance) break ray;
          const nqx = (x >> 2) - BX,
            nqy = (y >> 2) - BY,
            nqz = (z >> 2) - BZ;
          if (nqx !== qx || nqy !== qy || nqz !== qz) {
            ((qx = nqx), (qy = nqy), (qz = nqz));
            if (qx < 0 || qy < 0 || qz < 0 || qx >= bnx || qy >= bny || qz >= bnz) break ray;
            if (bricks[qx + (qz + qy * bnz) * bnx] !== 0) {
              tbx = dx !== 0 ? (stepX > 0 ? (qx + BX + 1) * 4 - ex : ex - (qx + BX) * 4) * tdx : Infinity;
              tby = dy !== 0 ? (stepY > 0 ? (qy + BY + 1) * 4 - ey : ey - (qy + BY) * 4) * tdy : Infinity;
              tbz = dz !== 0 ? (stepZ > 0 ? (qz + BZ + 1) * 4 - ez : ez - (qz + BZ) * 4) * tdz : Infinity;
              continue ray;
            }
          }
        }
      }
      if (hit) hits++;
      // Rounded half up (all values are ≥ 0: the same as Math.round, cheaper).
      rgb[o] = (r + transmit * sky[0]! + 0.5) | 0;
      rgb[o + 1] = (g + transmit * sky[1]! + 0.5) | 0;
      rgb[o + 2] = (b + transmit * sky[2]! + 0.5) | 0;
    }
  }
  return hits;
}
