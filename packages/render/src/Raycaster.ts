import { rayDirection, type ResolvedPose } from "./CameraPose.js";
import type { SectionGrid } from "./SectionGrid.js";

/** Face shading, Minecraft-like: top 1.0, bottom 0.5, north/south 0.8, east/west 0.6. */
const SHADE_X = 0.6, SHADE_Z = 0.8, SHADE_TOP = 1.0, SHADE_BOTTOM = 0.5;
const MAX_LAYERS = 8;
const EDGE_DISTANCE = 48, EDGE_WIDTH = 0.05, EDGE_SHADE = 0.86;

export interface RaycastStats {
  /** Pixels whose ray hit at least one drawn block. */
  hitPixels: number;
  /** The eye is inside an opaque block (the image shows its inside). */
  insideBlock: boolean;
}

/** Sky colour for a (normalized) ray direction: a vertical gradient, darker below the horizon. */
export function skyColor(dy: number, out: Float64Array): void {
  if (dy >= 0) {
    const t = Math.min(1, dy * 1.5);
    out[0] = 186 - 66 * t, out[1] = 214 - 44 * t, out[2] = 255;
  } else {
    const t = Math.min(1, -dy * 2);
    out[0] = 186 - 40 * t, out[1] = 206 - 40 * t, out[2] = 235 - 40 * t;
  }
}

/**
 * Renders RGB (3 bytes per pixel) by voxel traversal (Amanatides–Woo) from the eye, skipping
 * empty and unloaded sections whole. Opaque blocks end a ray; translucent ones blend and let it
 * through (a run of the same translucent block blends once). Distance fog towards the sky.
 */
export function raycast(grid: SectionGrid, p: ResolvedPose, maxDistance: number, rgb: Uint8Array): RaycastStats {
  const stats: RaycastStats = { hitPixels: 0, insideBlock: false };
  const d = new Float64Array(3);
  const sky = new Float64Array(3);
  const [ex, ey, ez] = p.eye;
  // Scratch for partial-block box tests (no allocation per voxel).
  const origin = Float64Array.of(ex, ey, ez), dir = new Float64Array(3), vox = new Float64Array(3);
  {
    const s = grid.section(Math.floor(ex) >> 4, Math.floor(ey) >> 4, Math.floor(ez) >> 4);
    if (s) {
      const look = grid.looks[s[((Math.floor(ey) & 15) << 8) | ((Math.floor(ez) & 15) << 4) | (Math.floor(ex) & 15)]!];
      stats.insideBlock = look !== undefined && look.surface === "opaque";
    }
  }
  // Ray directions are forward + h(i)·right + v(j)·up: the two parts are precomputed per column/row.
  const colX = new Float64Array(p.width), colY = new Float64Array(p.width), colZ = new Float64Array(p.width);
  for (let i = 0; i < p.width; i++) {
    rayDirection(p, i, 0, d);
    const v = (1 - 1 / p.height) * p.tanHalf;
    colX[i] = d[0]! - v * p.up[0], colY[i] = d[1]! - v * p.up[1], colZ[i] = d[2]! - v * p.up[2];
  }
  let o = 0;
  for (let j = 0; j < p.height; j++) {
    const v = (1 - (2 * (j + 0.5)) / p.height) * p.tanHalf;
    const rx = v * p.up[0], ry = v * p.up[1], rz = v * p.up[2];
    for (let i = 0; i < p.width; i++, o += 3) {
      const ux = colX[i]! + rx, uy = colY[i]! + ry, uz = colZ[i]! + rz;
      const len = Math.sqrt(ux * ux + uy * uy + uz * uz);
      const dx = ux / len, dy = uy / len, dz = uz / len;
      skyColor(dy, sky);
      const stepX = dx > 0 ? 1 : -1, stepY = dy > 0 ? 1 : -1, stepZ = dz > 0 ? 1 : -1;
      const tdx = dx !== 0 ? Math.abs(1 / dx) : Infinity, tdy = dy !== 0 ? Math.abs(1 / dy) : Infinity, tdz = dz !== 0 ? Math.abs(1 / dz) : Infinity;
      let t = 0;
      let x = Math.floor(ex), y = Math.floor(ey), z = Math.floor(ez);
      let tmx = dx !== 0 ? (stepX > 0 ? x + 1 - ex : ex - x) * tdx : Infinity;
      let tmy = dy !== 0 ? (stepY > 0 ? y + 1 - ey : ey - y) * tdy : Infinity;
      let tmz = dz !== 0 ? (stepZ > 0 ? z + 1 - ez : ez - z) * tdz : Infinity;
      let face = -1; // 0 x, 1 y, 2 z
      let r = 0, g = 0, b = 0, transmit = 1, layers = 0, prevLook = 0, hit = false;
      let secX = NaN, secY = NaN, secZ = NaN;
      let cells: Uint16Array | null | undefined = undefined;
      while (t <= maxDistance) {
        const sx = x >> 4, sy = y >> 4, sz = z >> 4;
        if (sx !== secX || sy !== secY || sz !== secZ) {
          secX = sx, secY = sy, secZ = sz;
          cells = grid.section(sx, sy, sz);
        }
        if (!cells) {
          // Jump to the exit of this 16³ section, then restart the traversal there.
          const bx = sx * 16, by = sy * 16, bz = sz * 16;
          const txe = dx > 0 ? (bx + 16 - ex) / dx : dx < 0 ? (bx - ex) / dx : Infinity;
          const tye = dy > 0 ? (by + 16 - ey) / dy : dy < 0 ? (by - ey) / dy : Infinity;
          const tze = dz > 0 ? (bz + 16 - ez) / dz : dz < 0 ? (bz - ez) / dz : Infinity;
          const te = Math.min(txe, tye, tze);
          if (te > maxDistance) break;
          face = te === txe ? 0 : te === tye ? 1 : 2;
          t = te;
          const px = ex + dx * te, py = ey + dy * te, pz = ez + dz * te;
          x = face === 0 ? (stepX > 0 ? bx + 16 : bx - 1) : Math.floor(px);
          y = face === 1 ? (stepY > 0 ? by + 16 : by - 1) : Math.floor(py);
          z = face === 2 ? (stepZ > 0 ? bz + 16 : bz - 1) : Math.floor(pz);
          // Guard the floor of a coordinate sitting exactly on a boundary against the wrong section.
          if (face !== 0) x = Math.min(Math.max(x, bx), bx + 15);
          if (face !== 1) y = Math.min(Math.max(y, by), by + 15);
          if (face !== 2) z = Math.min(Math.max(z, bz), bz + 15);
          tmx = dx !== 0 ? (stepX > 0 ? x + 1 - ex : ex - x) * tdx : Infinity;
          tmy = dy !== 0 ? (stepY > 0 ? y + 1 - ey : ey - y) * tdy : Infinity;
          tmz = dz !== 0 ? (stepZ > 0 ? z + 1 - ez : ez - z) * tdz : Infinity;
          prevLook = 0;
          continue;
        }
        const li = cells[((y & 15) << 8) | ((z & 15) << 4) | (x & 15)]!;
        let look = li !== 0 && face >= 0 ? grid.looks[li]! : undefined;
        let hitT = t, hitFace = face;
        if (look !== undefined && look.shape !== null) {
          // A partial block: the nearest of its boxes inside this voxel, or nothing (the ray goes on).
          const exit = Math.min(tmx, tmy, tmz);
          const boxes = look.shape;
          dir[0] = dx, dir[1] = dy, dir[2] = dz, vox[0] = x, vox[1] = y, vox[2] = z;
          let best = Infinity, bestFace = face;
          for (let k = 0; k < boxes.length; k += 6) {
            let t0 = t, t1 = exit, f = face;
            for (let a = 0; a < 3 && t0 <= t1; a++) {
              const da = dir[a]!, oa = origin[a]!, lo = vox[a]! + boxes[k + a]!, hi = vox[a]! + boxes[k + 3 + a]!;
              if (da === 0) {
                if (oa < lo || oa > hi) t0 = Infinity;
                continue;
              }
              let ta = (lo - oa) / da, tb = (hi - oa) / da;
              if (ta > tb) [ta, tb] = [tb, ta];
              if (ta > t0) (t0 = ta), (f = a);
              if (tb < t1) t1 = tb;
            }
            if (t0 <= t1 && t0 < best) (best = t0), (bestFace = f);
          }
          if (best === Infinity) look = undefined;
          else (hitT = best), (hitFace = bestFace);
        }
        // A run of one translucent block (a lake, a glass wall) blends once, at its first face.
        const sameRun = li === prevLook;
        prevLook = look !== undefined && look.surface === "translucent" ? li : 0;
        if (look !== undefined && !(sameRun && look.surface === "translucent")) {
          const t = hitT, face = hitFace;
          let shade = face === 0 ? SHADE_X : face === 2 ? SHADE_Z : dy < 0 ? SHADE_TOP : SHADE_BOTTOM;
          // Block outlines (near faces only) make sizes countable in a capture.
          if (t < EDGE_DISTANCE) {
            const u = face === 0 ? ey + dy * t : ex + dx * t;
            const v = face === 2 ? ey + dy * t : ez + dz * t;
            const fu = u - Math.floor(u), fv = v - Math.floor(v);
            if (Math.min(fu, 1 - fu, fv, 1 - fv) < EDGE_WIDTH) shade *= EDGE_SHADE;
          }
          const top = face === 1 && dy < 0 && look.top !== undefined ? look.top : null;
          const cr = (top ? top[0] : look.r) * shade, cg = (top ? top[1] : look.g) * shade, cb = (top ? top[2] : look.b) * shade;
          const fog = Math.min(0.7, (t / maxDistance) ** 2 * 0.7);
          const fr = cr + (sky[0]! - cr) * fog, fg = cg + (sky[1]! - cg) * fog, fb = cb + (sky[2]! - cb) * fog;
          hit = true;
          if (look.surface === "opaque") {
            r += transmit * fr, g += transmit * fg, b += transmit * fb;
            transmit = 0;
            break;
          }
          r += transmit * look.alpha * fr, g += transmit * look.alpha * fg, b += transmit * look.alpha * fb;
          transmit *= 1 - look.alpha;
          if (++layers >= MAX_LAYERS || transmit < 0.03) break;
        }
        if (tmx < tmy && tmx < tmz) {
          x += stepX, t = tmx, tmx += tdx, face = 0;
        } else if (tmy < tmz) {
          y += stepY, t = tmy, tmy += tdy, face = 1;
        } else {
          z += stepZ, t = tmz, tmz += tdz, face = 2;
        }
      }
      if (hit) stats.hitPixels++;
      rgb[o] = Math.round(r + transmit * sky[0]!);
      rgb[o + 1] = Math.round(g + transmit * sky[1]!);
      rgb[o + 2] = Math.round(b + transmit * sky[2]!);
    }
  }
  return stats;
}
