import type { Box3 } from "./shapes/Shape.js";
import { boxVolume } from "./shapes/Shape.js";

/** Largest bounding volume collected in a dense grid (4 bytes per cell). */
export const DENSE_CELL_LIMIT = 4_194_304;

/** Raw runs in collection order (y, z, x); `value` = (filter << 16) | (state + 1). */
export interface RawRuns {
  readonly y: Int32Array;
  readonly z: Int32Array;
  readonly x: Int32Array;
  readonly length: Int32Array;
  readonly value: Uint32Array;
  /** Total positions. */
  readonly count: number;
}

/**
 * Collects encoded values by world position; a later put at the same position wins. Dense grids
 * serve recipes whose bounds are small; otherwise an append log is sorted (stable by emission index).
 */
export interface BlockCollector {
  put(x: number, y: number, z: number, value: number): void;
  /** Writes `value` to every position of an inclusive box (constant-state fast path). */
  fillBox(box: Box3, value: number): void;
  toRuns(): RawRuns;
}

export function createCollector(bounds: Box3, emitted: number): BlockCollector {
  return boxVolume(bounds) <= DENSE_CELL_LIMIT ? denseCollector(bounds) : sparseCollector(emitted);
}

class RunWriter {
  private y: number[] = [];
  private z: number[] = [];
  private x: number[] = [];
  private length: number[] = [];
  private value: number[] = [];
  private count = 0;

  push(x: number, y: number, z: number, value: number): void {
    const last = this.length.length - 1;
    if (
      last >= 0 &&
      this.y[last] === y &&
      this.z[last] === z &&
      this.value[last] === value &&
      this.x[last]! + this.length[last]! === x
    ) {
      this.length[last]!++;
    } else {
      this.y.push(y);
      this.z.push(z);
      this.x.push(x);
      this.length.push(1);
      this.value.push(value);
    }
    this.count++;
  }

  /** Adds a whole run (used by the dense scan, which sees maximal runs already). */
  pushRun(x: number, y: number, z: number, length: number, value: number): void {
    this.y.push(y);
    this.z.push(z);
    this.x.push(x);
    this.length.push(length);
    this.value.push(value);
    this.count += length;
  }

  finish(): RawRuns {
    return {
      y: Int32Array.from(this.y),
      z: Int32Array.from(this.z),
      x: Int32Array.from(this.x),
      length: Int32Array.from(this.length),
      value: Uint32Array.from(this.value),
      count: this.count,
    };
  }
}

function denseCollector(bounds: Box3): BlockCollector {
  const sx = bounds.maxX - bounds.minX + 1;
  const sz = bounds.maxZ - bounds.minZ + 1;
  const sy = bounds.maxY - bounds.minY + 1;
  const grid = new Uint32Array(sx * sy * sz);
  const { minX, minY, minZ } = bounds;
  return {
    put(x, y, z, value) {
      grid[((y - minY) * sz + (z - minZ)) * sx + (x - minX)] = value;
    },
    fillBox(box, value) {
      const rowStart = box.minX - minX;
      const rowEnd = box.maxX - minX + 1;
      for (let y = box.minY; y <= box.maxY; y++) {
        for (let z = box.minZ; z <= box.maxZ; z++) {
          const row = ((y - minY) * sz + (z - minZ)) * sx;
          grid.fill(value, row + rowStart, row + rowEnd);
        }
      }
    },
    toRuns() {
      const out = new RunWriter();
      let i = 0;
      for (let y = 0; y < sy; y++) {
        for (let z = 0; z < sz; z++) {
          let x = 0;
          while (x < sx) {
            const v = grid[i + x]!;
            if (v === 0) {
              x++;
              continue;
            }
            let end = x + 1;
            while (end < sx && grid[i + end] === v) end++;
            out.pushRun(x + minX, y + minY, z + minZ, end - x, v);
            x = end;
          }
          i += sx;
        }
      }
      return out.finish();
    },
  };
}

function sparseCollector(capacity: number): BlockCollector {
  const xs = new Int32Array(capacity);
  const ys = new Int32Array(capacity);
  const zs = new Int32Array(capacity);
  const vs = new Uint32Array(capacity);
  let n = 0;
  const put = (x: number, y: number, z: number, value: number): void => {
    xs[n] = x;
    ys[n] = y;
    zs[n] = z;
    vs[n] = value;
    n++;
  };
  return {
    put,
    fillBox(box, value) {
      for (let y = box.minY; y <= box.maxY; y++)
        for (let z = box.minZ; z <= box.maxZ; z++) for (let x = box.minX; x <= box.maxX; x++) put(x, y, z, value);
    },
    toRuns() {
      const order = new Uint32Array(n);
      for (let i = 0; i < n; i++) order[i] = i;
      order.sort((a, b) => ys[a]! - ys[b]! || zs[a]! - zs[b]! || xs[a]! - xs[b]! || a - b);
      const out = new RunWriter();
      for (let k = 0; k < n; k++) {
        const i = order[k]!;
        const next = k + 1 < n ? order[k + 1]! : -1;
        // Keep only the last emission at each position.
        if (next >= 0 && xs[next] === xs[i] && ys[next] === ys[i] && zs[next] === zs[i]) continue;
        out.push(xs[i]!, ys[i]!, zs[i]!, vs[i]!);
      }
      return out.finish();
    },
  };
}
